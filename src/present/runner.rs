//! [`Runner`]: the engine as the page drives it — one [`Simulation`], or a [`Comparison`] of all
//! five algorithms on the same arrivals — advanced by frames, single events or jumps, and read
//! out as a [`Snapshot`]. It also keeps the bounded pass-ratio history for the steady-state chart.
//! Plain Rust, tested natively.

use crate::chart::history::PassHistory;
use crate::chart::strip::Strip;
use crate::sim::{Capabilities, Comparison, Disagreement, Lacking, Nanos, Scenario, SimTime, Simulation};

use crate::present::snapshot::{Column, LastResponse, Snapshot};

/// Series buckets each simulation keeps: two chart widths of one-second buckets.
pub const HISTORY_BUCKETS: usize = 120;
/// How often the engine samples the limiter's inner state.
pub const SAMPLE_EVERY: Nanos = Nanos::from_millis(50);
/// Seconds of inner state kept (and shown).
pub const STATE_SPAN_SECS: u64 = 20;
/// Seconds the request strip spans (less when the engine's event ring covers less).
pub const STRIP_SECONDS: f64 = 5.0;
/// A jump is run in this many slices, so the steady-state chart gets points along the way.
const JUMP_SLICES: u64 = 256;

enum Engine {
    Single(Box<Simulation>),
    Compare(Box<Comparison>),
    /// The scenario needs a part of the engine this module lacks: nothing runs here, and the
    /// page hands the scenario to a module that has it.
    Lacking(Lacking),
}

/// The running engine of the page.
pub struct Runner {
    engine: Engine,
    history: PassHistory,
}

impl Runner {
    /// A fresh run of a validated scenario at t = 0 with every part of the engine: all five
    /// algorithms if `compare`.
    pub fn new(sc: &Scenario, compare: bool) -> Self {
        Self::with(sc, compare, Capabilities::ALL)
    }

    /// A fresh run of a validated scenario at t = 0 with the parts of the engine `caps` give:
    /// all five algorithms if `compare`. A scenario that needs a part `caps` lack runs nothing
    /// ([`lacking`](Self::lacking) says which part).
    pub fn with(sc: &Scenario, compare: bool, caps: Capabilities) -> Self {
        let engine = if compare {
            Comparison::try_new(sc, caps, HISTORY_BUCKETS).map(|c| Engine::Compare(Box::new(c)))
        } else {
            Simulation::try_new(sc, caps, HISTORY_BUCKETS).map(|mut sim| {
                let capacity = (STATE_SPAN_SECS * 1_000_000_000 / SAMPLE_EVERY.as_nanos()) as usize + 1;
                sim.sample_state(SAMPLE_EVERY, capacity);
                Engine::Single(Box::new(sim))
            })
        };
        Runner { engine: engine.unwrap_or_else(Engine::Lacking), history: PassHistory::default() }
    }

    /// The part of the engine the scenario needs and this runner's capabilities lack, if any:
    /// then nothing runs.
    pub fn lacking(&self) -> Option<Lacking> {
        match self.engine {
            Engine::Lacking(l) => Some(l),
            _ => None,
        }
    }

    /// The simulations: one, or five in [`crate::sim::compare::ALGORITHMS`] order.
    pub fn sims(&self) -> &[Simulation] {
        match &self.engine {
            Engine::Single(sim) => std::slice::from_ref(&**sim),
            Engine::Compare(c) => c.sims(),
            Engine::Lacking(_) => &[],
        }
    }

    /// Simulated time reached.
    pub fn now(&self) -> SimTime {
        self.sims().first().map_or(SimTime::ZERO, Simulation::now)
    }

    /// The pass-ratio history of the first simulation.
    pub fn history(&self) -> &PassHistory {
        &self.history
    }

    /// Compare mode: how often the sliding counter disagreed with the exact log.
    pub fn disagreement(&self) -> Option<Disagreement> {
        match &self.engine {
            Engine::Compare(c) => Some(c.disagreement()),
            _ => None,
        }
    }

    /// Runs every event up to `now + by`.
    pub fn advance(&mut self, by: Nanos) {
        let to = self.now() + by;
        self.step_until(to);
    }

    /// Fast-forward: runs `by` at once (in slices, only so the history gets points on the way).
    pub fn jump(&mut self, by: Nanos) {
        let end = self.now() + by;
        let slice = (by.as_nanos() / JUMP_SLICES).max(1);
        while self.now() < end && self.lacking().is_none() {
            let to = SimTime((self.now().as_nanos().saturating_add(slice)).min(end.as_nanos()));
            self.step_until(to);
        }
    }

    /// The same run at its last event before `t` (at t = 0 when there is none), replayed from the
    /// start: the last stretch (a second, widened until it holds an event) one event at a time, so
    /// the state and the clock are exactly what Step showed there. An embed's step back.
    pub fn before(sc: &Scenario, compare: bool, t: SimTime, caps: Capabilities) -> Runner {
        let mut stretch = 1_000_000_000u64;
        loop {
            let mut runner = Runner::with(sc, compare, caps);
            let from = t.as_nanos().saturating_sub(stretch);
            if from > 0 {
                runner.step_until(SimTime(from));
            }
            let mut stepped = false;
            while runner.next_event_time().is_some_and(|next| next < t) {
                runner.step_event();
                stepped = true;
            }
            if stepped || from == 0 {
                return runner;
            }
            stretch = stretch.saturating_mul(4);
        }
    }

    /// When the next event happens (in compare mode, the earliest of any algorithm's).
    fn next_event_time(&self) -> Option<SimTime> {
        self.sims().iter().filter_map(Simulation::next_event_time).min()
    }

    /// Runs exactly the next event (in compare mode: the next instant at which any algorithm
    /// has one, which for a new arrival is all five). Returns its time.
    pub fn step_event(&mut self) -> Option<SimTime> {
        let at = match &mut self.engine {
            Engine::Single(sim) => sim.step_event(),
            Engine::Compare(c) => c.step_event(),
            Engine::Lacking(_) => None,
        };
        self.record();
        at
    }

    fn step_until(&mut self, t: SimTime) {
        match &mut self.engine {
            Engine::Single(sim) => sim.step_until(t),
            Engine::Compare(c) => c.step_until(t),
            Engine::Lacking(_) => {}
        }
        self.record();
    }

    fn record(&mut self) {
        if let Some(sim) = self.sims().first() {
            let t = sim.metrics().totals;
            let now = sim.now();
            self.history.record(now, t.admitted, t.admitted + t.rejected);
        }
    }

    /// The numbers the view shows now, as the text shows them: [`snapshot`](Self::snapshot) and
    /// the last decision's response.
    pub fn readout(&self, generation: u64) -> Snapshot {
        let single = matches!(self.engine, Engine::Single(_));
        let last = self.sims().first().filter(|_| single).and_then(|sim| {
            sim.last_decision().map(|d| {
                let (status, headers) = sim.response(&d);
                LastResponse { allowed: d.allowed, status, headers }
            })
        });
        Snapshot { last, ..self.snapshot(generation) }
    }

    /// The numbers the charts draw from now, taken every frame: everything but the last
    /// response, whose headers are formatted only for the text (see [`readout`](Self::readout)).
    pub fn snapshot(&self, generation: u64) -> Snapshot {
        let sims = self.sims();
        let first = sims.first();
        let width = first.map_or(1, |s| s.metrics().bucket_width.as_nanos().max(1));
        let sampled_to = first
            .and_then(Simulation::state_samples)
            .and_then(|s| s.iter().last().map(|(t, _)| t.as_nanos()))
            .unwrap_or(0);
        Snapshot {
            generation,
            now: self.now(),
            columns: sims.iter().map(Column::of).collect(),
            disagreement: self.disagreement(),
            last: None,
            completed_buckets: self.now().as_nanos() / width,
            sampled_to,
            events: first.map_or(0, Simulation::events_processed),
            strip_secs: first.map_or(STRIP_SECONDS, |s| Strip::span(s.metrics().events(), s.now(), STRIP_SECONDS)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scenario(q: &str) -> Scenario {
        Scenario::from_query(q).unwrap()
    }

    #[test]
    fn a_jump_reaches_the_same_state_as_frames_and_fills_the_history() {
        let sc = scenario("capacity=10&refill=5&rate=20");
        let mut jumped = Runner::new(&sc, false);
        jumped.jump(Nanos::from_secs(600));
        let mut framed = Runner::new(&sc, false);
        for _ in 0..60_000 {
            framed.advance(Nanos::from_millis(10));
        }
        assert_eq!(jumped.snapshot(0).columns, framed.snapshot(0).columns);
        assert!(jumped.history().len() > 100, "{}", jumped.history().len());
        let ratio = jumped.snapshot(0).columns[0].totals.pass_ratio();
        assert!((ratio - 0.25).abs() < 0.01, "{ratio}");
    }

    #[test]
    fn a_step_back_lands_on_the_state_and_clock_of_the_step_before() {
        for (q, compare) in
            [("traffic=poisson&rate=30&seed=3", false), ("rate=0.1&duration=600", false), ("rate=7", true)]
        {
            let sc = scenario(q);
            // Step through the first events, then from a moment late in the run.
            let mut stepped = Runner::new(&sc, compare);
            let mut seen = vec![(stepped.now(), stepped.snapshot(0).columns)];
            for _ in 0..5 {
                stepped.step_event();
                seen.push((stepped.now(), stepped.snapshot(0).columns));
            }
            for pair in seen.windows(2) {
                let back = Runner::before(&sc, compare, pair[1].0, Capabilities::ALL);
                assert_eq!((back.now(), back.snapshot(0).columns), pair[0].clone(), "{q}");
            }
            let mut late = Runner::new(&sc, compare);
            late.jump(Nanos::from_secs(95));
            let t = late.step_event().unwrap();
            let previous = Runner::before(&sc, compare, t, Capabilities::ALL);
            let mut forward = Runner::before(&sc, compare, t, Capabilities::ALL);
            assert_eq!(forward.step_event(), Some(t), "{q}: the step after the one before is this one");
            assert_eq!(forward.snapshot(0).columns, late.snapshot(0).columns, "{q}");
            assert!(previous.now() < t, "{q}");
        }
        // Before the first event there is nothing to go back to: t = 0, nothing counted.
        let sc = scenario("rate=8");
        let back = Runner::before(&sc, false, SimTime::ZERO, Capabilities::ALL);
        assert_eq!((back.now(), back.snapshot(0).columns[0].totals.requests), (SimTime::ZERO, 0));
    }

    #[test]
    fn compare_mode_runs_five_algorithms_on_the_same_arrivals() {
        let mut r = Runner::new(&scenario("traffic=poisson&rate=30"), true);
        r.jump(Nanos::from_secs(20));
        let s = r.snapshot(3);
        assert_eq!(s.columns.len(), 5);
        assert!(s.columns.iter().all(|c| c.totals.requests == s.columns[0].totals.requests));
        assert!(s.disagreement.is_some() && s.last.is_none());
        assert_eq!(s.generation, 3);
    }

    #[test]
    fn a_single_step_runs_one_arrival_in_every_mode() {
        for compare in [false, true] {
            let mut r = Runner::new(&scenario("rate=4"), compare);
            r.step_event();
            r.step_event();
            let s = r.snapshot(0);
            assert_eq!(s.now, SimTime::from_nanos(250_000_000));
            assert!(s.columns.iter().all(|c| c.totals.requests == 2), "{compare}");
        }
    }

    #[test]
    fn the_seam_shows_twice_the_limit_only_for_the_fixed_window() {
        let mut r = Runner::new(&scenario("traffic=seam"), true);
        r.jump(Nanos::from_secs(10));
        let over: Vec<bool> = r.snapshot(0).columns.iter().map(Column::over_limit).collect();
        assert_eq!(over, vec![false, false, true, false, false]);
        let fixed = &r.snapshot(0).columns[2];
        assert_eq!(fixed.peak.0, 2 * fixed.limit);
    }

    #[test]
    fn the_single_view_samples_state_and_reports_the_last_response() {
        let mut r = Runner::new(&scenario("capacity=2&refill=1&rate=10"), false);
        r.advance(Nanos::from_millis(200));
        let s = r.readout(0);
        assert_eq!(s.sampled_to, 200_000_000);
        assert!(r.snapshot(0).last.is_none(), "the charts' snapshot leaves the response out");
        let last = s.last.expect("a decision was made");
        assert!(!last.allowed);
        assert!(last.headers.iter().any(|(k, v)| *k == "Retry-After" && v == "1"));
    }
}
