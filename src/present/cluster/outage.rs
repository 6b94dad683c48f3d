//! What the nodes decided while the store was down: the outage of the scenario, where the run is
//! relative to it, and the admissions over the stretch where every request that needed the store
//! waited for it in vain — read from the engine's per-second series.

use crate::present::units::{format_number, format_secs, group_thousands};
use crate::sim::{FailMode, Nanos, SimTime, Simulation, StoreMode};

/// Where the run is relative to the outage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The store has not gone down yet.
    Ahead,
    /// The store is down now.
    During,
    /// The store is back.
    After,
}

/// What the nodes decided while the store was down.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OutageReport {
    /// When the store went down.
    pub start: SimTime,
    /// When it came back.
    pub end: SimTime,
    /// How long a node waits for the store before it decides without it.
    pub timeout: Nanos,
    /// Where the run is.
    pub phase: Phase,
    /// Open or closed.
    pub fail: FailMode,
    /// The measured stretch: whole series buckets inside `[start + timeout, end)`, where every
    /// request that needed the store had waited for it in vain (`from == to`: none yet).
    pub from: SimTime,
    /// End of the measured stretch.
    pub to: SimTime,
    /// Decisions in the measured stretch.
    pub decided: u64,
    /// Of those, admitted.
    pub admitted: u64,
    /// What one exact limiter allows over the measured stretch in the long run.
    pub allowed: f64,
}

impl OutageReport {
    /// The outage of `sim`'s scenario and what the nodes decided during it so far, if it has one.
    pub fn of(sim: &Simulation) -> Option<Self> {
        let sc = sim.scenario();
        let outage = sc.outage?;
        let now = sim.now();
        let phase = if now < outage.start {
            Phase::Ahead
        } else if now < outage.end {
            Phase::During
        } else {
            Phase::After
        };
        let m = sim.metrics();
        let width = m.bucket_width.as_nanos();
        let settled = (outage.start + sc.timeout).as_nanos();
        let (mut from, mut to, mut decided, mut admitted) = (u64::MAX, 0, 0, 0);
        for b in m.buckets() {
            let (s, e) = (b.start.as_nanos(), b.start.as_nanos() + width);
            if s >= settled && e <= outage.end.as_nanos() && e <= now.as_nanos() {
                from = from.min(s);
                to = to.max(e);
                decided += b.admitted + b.rejected;
                admitted += b.admitted;
            }
        }
        let from = from.min(to);
        let allowed = sc.allowed_rate() * Nanos(to - from).as_secs_f64();
        Some(OutageReport {
            start: outage.start,
            end: outage.end,
            timeout: sc.timeout,
            phase,
            fail: sc.fail,
            from: SimTime(from),
            to: SimTime(to),
            decided,
            admitted,
            allowed,
        })
    }
}

/// What the report says, in words.
pub fn summary(r: &OutageReport, store: StoreMode) -> String {
    let s = |t: crate::sim::SimTime| format_secs(t.as_secs_f64());
    let when = format!("The store is down from {} to {}", s(r.start), s(r.end));
    if r.decided == 0 {
        return match r.phase {
            Phase::Ahead => format!("{when}; the run has not got there yet (jump ahead)."),
            _ => format!("{when}; nothing measured yet in whole seconds after the first timeout."),
        };
    }
    // Counted in the engine's whole series buckets, from the first that starts once every
    // request has waited the timeout in vain: say so where it is later than the outage.
    let counted = if r.from > r.start {
        format!(
            " (counted from {}: the first whole second after the nodes' first timeout, {} + {} waiting for the store)",
            s(r.from),
            s(r.start),
            format_secs(r.timeout.as_secs_f64())
        )
    } else {
        String::new()
    };
    let stretch = format!("From {} to {}{counted}", s(r.from), s(r.to));
    let allowed = format_number(r.allowed.round());
    let (n, a) = (group_thousands(r.decided), group_thousands(r.admitted));
    match (store, r.fail) {
        (StoreMode::Async, _) => format!(
            "{when}. {stretch} the edge nodes kept deciding from their own views: {a} of {n} admitted, where one exact limiter allows about {allowed}."
        ),
        (_, FailMode::Open) => format!(
            "{when}. {stretch} every node timed out and failed open: {a} of {n} requests admitted, where one exact limiter allows about {allowed}."
        ),
        (_, FailMode::Closed) => format!(
            "{when}. {stretch} every node timed out and failed closed: {a} of {n} requests admitted — {} refused, although about {allowed} were within the limit.",
            group_thousands(r.decided - r.admitted)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Scenario;

    fn run(q: &str, secs: u64) -> Simulation {
        let mut sim = Simulation::with_history(&Scenario::from_query(q).unwrap(), 120);
        sim.step_until(SimTime::from_secs(secs));
        sim
    }

    #[test]
    fn the_summary_says_why_counting_starts_after_the_outage_does() {
        let r = OutageReport::of(&run("nodes=4&store=atomic&rtt=1&rate=100&outage=10-20&timeout=100", 30)).unwrap();
        let text = summary(&r, StoreMode::Atomic);
        assert!(
            text.contains("From 11.0 s to 20.0 s (counted from 11.0 s: the first whole second after the nodes' first timeout, 10.0 s + 100 ms waiting for the store)"),
            "{text}"
        );
    }

    #[test]
    fn fail_open_admits_every_decision_of_the_outage_and_fail_closed_none() {
        let q = "nodes=4&store=race&rtt=1&rate=100&outage=5-15";
        let open = OutageReport::of(&run(q, 30)).unwrap();
        assert_eq!(open.phase, Phase::After);
        assert_eq!((open.from, open.to), (SimTime::from_secs(6), SimTime::from_secs(15)));
        assert_eq!((open.decided, open.admitted), (900, 900));
        assert!((open.allowed - 45.0).abs() < 1e-9, "5 tokens/s over 9 s");
        let closed = OutageReport::of(&run(&format!("{q}&fail=closed"), 30)).unwrap();
        assert_eq!((closed.decided, closed.admitted), (900, 0));
    }

    #[test]
    fn an_outage_not_reached_yet_has_nothing_measured() {
        let r = OutageReport::of(&run("nodes=2&store=atomic&outage=20-30", 10)).unwrap();
        assert_eq!((r.phase, r.decided, r.from, r.to), (Phase::Ahead, 0, SimTime::ZERO, SimTime::ZERO));
        assert!(OutageReport::of(&run("nodes=2&store=atomic", 1)).is_none());
    }
}
