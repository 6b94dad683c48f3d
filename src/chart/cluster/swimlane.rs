//! The swimlane: the store operations of the last moments, one lane per node and one for the
//! store, each operation drawn from its node down to the store and back with its real timing.
//! GETs and SETs interleave; a lost update — a SET that overwrites what another node wrote after
//! this node's GET — is marked together with the overwritten SET and the two reads of the same
//! value. In atomic mode the scripts line up one by one at the store. Plain data built from
//! [`Traces`]; [`super::swimlane_draw`] draws it.

use super::trace::{FirstOp, Link, Traces};
use crate::sim::{Nanos, Scenario, SimTime};

/// What a store operation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// A GET (store = race).
    Get,
    /// A SET (store = race).
    Set,
    /// The atomic script, and what it decided.
    Script {
        /// 200 or 429.
        allowed: bool,
    },
    /// An increment (store = async).
    Increment,
    /// Sent to a store that is down: never answered.
    Unanswered,
}

/// One store operation; times are seconds relative to now (≤ 0 in the past).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Op {
    /// The node that sent it.
    pub node: u8,
    /// When the node sent it.
    pub sent: f64,
    /// When it reached the store (or would have).
    pub at: f64,
    /// When the reply reached the node (possibly after now); `None` if none comes.
    pub back: Option<f64>,
    /// What it is.
    pub kind: OpKind,
    /// A SET that overwrote an update it had not read.
    pub lost_update: bool,
    /// A SET whose update a later SET overwrote.
    pub overwritten: bool,
    /// A GET that read the same value as another node's GET, both going on to SET it.
    pub same_read: bool,
    /// A write that counted a request and reached the primary in the replica's lag before the
    /// failover: the promoted replica never got it.
    pub lost_at_failover: bool,
}

/// What the swimlane shows: the last `span` seconds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Swimlane {
    /// Seconds shown, ending now.
    pub span: f64,
    /// Node lanes.
    pub nodes: usize,
    /// Store operations that overlap the span.
    pub ops: Vec<Op>,
    /// Answers: node, when, admitted.
    pub decisions: Vec<(u8, f64, bool)>,
    /// Waits for a store that did not answer: node, from, until the timeout.
    pub waits: Vec<(u8, f64, f64)>,
    /// Each lost update's stale stretch at the store: from the overwriting SET's GET to it.
    pub stale: Vec<(f64, f64)>,
    /// The outage, clipped to the span.
    pub outage: Option<(f64, f64)>,
    /// Lost updates marked (the SET and the GET before it both in view).
    pub lost_updates: usize,
    /// The failover, if it happened in view (seconds relative to now).
    pub failover: Option<f64>,
    /// Writes in view that the failover lost.
    pub lost_at_failover: usize,
}

/// The span the swimlane shows for `sc`: five round trips or twenty arrivals, whichever is longer,
/// rounded up to 1, 2 or 5 × 10ⁿ so its scale holds still.
///
/// ```
/// use ratelimit_playground::chart::cluster::swimlane::span_for;
/// use ratelimit_playground::sim::{Nanos, Scenario};
/// let sc = |q| Scenario::from_query(q).unwrap();
/// assert_eq!(span_for(&sc("rtt=20&rate=40")), Nanos::from_millis(500));
/// assert_eq!(span_for(&sc("rtt=200&rate=40")), Nanos::from_secs(1));
/// assert_eq!(span_for(&sc("rtt=1&rate=1000")), Nanos::from_millis(20));
/// ```
pub fn span_for(sc: &Scenario) -> Nanos {
    let rtt = sc.rtt.as_secs_f64() * 5.0;
    let arrivals = 20.0 / sc.rate.as_per_sec().max(1e-3);
    let raw = rtt.max(arrivals).clamp(1e-3, 60.0);
    let magnitude = 10f64.powi(raw.log10().floor() as i32); // as in `crate::chart::axis::nice_ceiling`
    let nice = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|v| *v >= raw * (1.0 - 1e-9));
    Nanos::from_secs_f64(nice.unwrap_or(raw))
}

impl Swimlane {
    /// The operations among `traces` of the `span` before `now`, on `nodes` lanes. `waits` says
    /// whether requests wait for the store (store = race or atomic), so that a request whose
    /// operation met an outage is drawn unanswered.
    pub fn from_traces(traces: &Traces, now: SimTime, span: Nanos, link: &Link, nodes: usize, waits: bool) -> Self {
        let rel = |t: SimTime| (t.as_nanos() as f64 - now.as_nanos() as f64) / 1e9;
        let (up, down) = (link.up.as_secs_f64(), link.down.as_secs_f64());
        let mut lane = Swimlane { span: span.as_secs_f64(), nodes, ..Swimlane::default() };
        let op = |node, at: f64, back: bool, kind| Op {
            node,
            sent: at - up,
            at,
            back: back.then_some(at + down),
            kind,
            lost_update: false,
            overwritten: false,
            same_read: false,
            lost_at_failover: false,
        };
        // Index into `ops` of each request's GET and SET, for marking lost updates.
        let mut race: Vec<(usize, Option<(usize, u64)>)> = Vec::new();
        for r in &traces.requests {
            let mut get = None;
            match r.first {
                Some((tg, FirstOp::Get { version })) => {
                    get = Some((lane.ops.len(), version));
                    lane.ops.push(op(r.node, rel(tg), true, OpKind::Get));
                }
                Some((tg, FirstOp::Script { allowed })) => {
                    lane.ops.push(op(r.node, rel(tg), true, OpKind::Script { allowed }))
                }
                None => {
                    if let Some(ta) = r.arrived.filter(|&ta| waits && link.down_at(ta + link.up)) {
                        lane.ops.push(op(r.node, rel(ta) + up, false, OpKind::Unanswered));
                    }
                }
            }
            if let Some((ts, lost_update)) = r.set {
                race.push((lane.ops.len(), get));
                lane.ops.push(Op { lost_update, ..op(r.node, rel(ts), true, OpKind::Set) });
            } else if let (Some((tg, _)), Some(_)) = (r.first, r.timed_out) {
                lane.ops.push(op(r.node, rel(tg) + down + up, false, OpKind::Unanswered));
            }
            if let Some(tt) = r.timed_out {
                lane.waits.push((r.node, rel(tt) - link.timeout.as_secs_f64(), rel(tt)));
            }
            if let Some((td, allowed)) = r.decided {
                lane.decisions.push((r.node, rel(td), allowed));
            }
        }
        for &(ti, node) in &traces.increments {
            lane.ops.push(op(node, rel(ti), true, OpKind::Increment));
        }
        lane.mark_lost_updates(&race);
        let left = -lane.span;
        lane.ops.retain(|o| o.back.unwrap_or(o.at) >= left && o.sent <= 0.0);
        if let Some((t, lag)) = link.failover.filter(|&(t, _)| t <= now) {
            let (at, lag) = (rel(t), lag.as_secs_f64());
            for o in &mut lane.ops {
                let write = matches!(o.kind, OpKind::Set | OpKind::Increment | OpKind::Script { allowed: true });
                // A write reaching the store at the failover's instant goes to the new primary.
                o.lost_at_failover = write && o.at > at - lag && o.at < at;
            }
            lane.lost_at_failover = lane.ops.iter().filter(|o| o.lost_at_failover && o.at >= left).count();
            lane.failover = Some(at).filter(|&a| a >= left);
        }
        lane.decisions.retain(|d| d.1 >= left && d.1 <= 0.0);
        lane.waits.retain(|w| w.2 >= left && w.2 <= 0.0);
        lane.outage = link.outage.map(|o| (rel(o.start).max(left), rel(o.end).min(0.0))).filter(|(from, to)| from < to);
        lane
    }

    /// Marks each lost update: the SET that overwrote, the SETs it overwrote (those reaching
    /// the store between its GET and it), and the GETs that read the same value.
    fn mark_lost_updates(&mut self, race: &[(usize, Option<(usize, u64)>)]) {
        let left = -self.span;
        for &(set, get) in race {
            let (Some((get, version)), true) = (get, self.ops[set].lost_update) else { continue };
            let (from, to) = (self.ops[get].at, self.ops[set].at);
            for &(other, other_get) in race {
                if other != set && self.ops[other].at > from && self.ops[other].at < to {
                    self.ops[other].overwritten = true;
                    if let Some((g, _)) = other_get.filter(|&(_, v)| v == version) {
                        self.ops[g].same_read = true;
                        self.ops[get].same_read = true;
                    }
                }
            }
            if from >= left {
                self.stale.push((from, to));
                self.lost_updates += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Simulation;

    fn lane(q: &str, secs: u64) -> Swimlane {
        let sc = Scenario::from_query(q).unwrap();
        let mut sim = Simulation::new(&sc);
        sim.step_until(SimTime::from_secs(secs));
        let traces = Traces::from_events(sim.metrics().events());
        let waits = matches!(sc.store, crate::sim::StoreMode::Race | crate::sim::StoreMode::Atomic);
        Swimlane::from_traces(&traces, sim.now(), span_for(&sc), &Link::of(&sc), sc.nodes as usize, waits)
    }

    #[test]
    fn overlapping_gets_and_sets_mark_lost_updates_with_both_reads_and_the_overwritten_set() {
        let l = lane("nodes=4&store=race&rtt=50&rate=100&traffic=poisson", 10);
        assert!(l.lost_updates > 0, "no lost update in view");
        assert!(l.ops.iter().any(|o| o.kind == OpKind::Set && o.overwritten));
        assert!(l.ops.iter().filter(|o| o.kind == OpKind::Get && o.same_read).count() >= 2);
        assert_eq!(l.stale.len(), l.lost_updates);
    }

    #[test]
    fn spaced_arrivals_never_race_and_scripts_never_lose_an_update() {
        assert_eq!(lane("nodes=4&store=race&rtt=0.05&rate=100", 10).lost_updates, 0);
        let atomic = lane("nodes=4&store=atomic&rtt=50&rate=100", 10);
        assert_eq!(atomic.lost_updates, 0);
        assert!(atomic.ops.iter().all(|o| matches!(o.kind, OpKind::Script { .. })));
        assert!(atomic.ops.len() >= 10, "{}", atomic.ops.len());
    }

    #[test]
    fn an_outage_shows_unanswered_operations_and_waits() {
        let l = lane("nodes=2&store=atomic&rtt=10&rate=20&outage=5-15", 8);
        assert_eq!(l.outage, Some((-l.span, 0.0)));
        assert!(l.ops.iter().all(|o| o.kind == OpKind::Unanswered && o.back.is_none()));
        assert!(!l.waits.is_empty());
    }

    #[test]
    fn a_failover_in_view_marks_the_writes_of_the_lag_before_it_as_lost() {
        // 40/s into 100 per 10 s: admitted scripts around 11 s; the replica 100 ms behind.
        let q = "algo=fixed_window&limit=100&window=10&rate=40&nodes=4&store=atomic&rtt=2&failover=11&traffic=poisson";
        let sc = Scenario::from_query(&format!("{q}&replica_lag=100")).unwrap();
        let mut sim = Simulation::new(&sc);
        sim.step_until(SimTime(11_200_000_000));
        let traces = Traces::from_events(sim.metrics().events());
        let l = Swimlane::from_traces(&traces, sim.now(), span_for(&sc), &Link::of(&sc), 4, true);
        let at = l.failover.expect("the failover is in view");
        assert!((at + 0.2).abs() < 1e-9, "{at}");
        assert!(l.lost_at_failover > 0);
        for o in l.ops.iter().filter(|o| o.lost_at_failover) {
            assert_eq!(o.kind, OpKind::Script { allowed: true });
            assert!(o.at > at - 0.1 && o.at <= at, "{o:?}");
        }
        // Before the failover nothing is lost yet, and a replica in step loses nothing.
        assert_eq!(lane(&format!("{q}&replica_lag=100"), 10).lost_at_failover, 0);
        let mut sim = Simulation::new(&Scenario::from_query(&format!("{q}&replica_lag=0")).unwrap());
        sim.step_until(SimTime(11_200_000_000));
        let traces = Traces::from_events(sim.metrics().events());
        let l = Swimlane::from_traces(&traces, sim.now(), span_for(&sc), &Link::of(&sim.scenario().clone()), 4, true);
        assert_eq!(l.lost_at_failover, 0);
    }
}
