//! [`Comparison`]: the same arrivals through every algorithm at once, and how often the sliding
//! window counter disagrees with the exact sliding log.

use super::engine::Simulation;
use super::limiter::{Limiter, SlidingLog, SlidingWindow};
use super::rng::SimRng;
use super::scenario::{Algorithm, Scenario};
use super::time::SimTime;
use super::traffic::Arrivals;

/// Every algorithm, in the order the app shows them.
pub const ALGORITHMS: [Algorithm; 5] =
    [Algorithm::TokenBucket, Algorithm::Gcra, Algorithm::FixedWindow, Algorithm::SlidingWindow, Algorithm::SlidingLog];

/// How often the sliding window counter's estimate decided differently from the exact count.
///
/// For each new arrival (retries left out) the counter decides, and an exact log of what the
/// counter admitted says what the true rule — fewer than `limit` admitted in `(t − window, t]` —
/// would have decided on that same history. A difference is the approximation's error, not a
/// drift between two limiters that have long since admitted different requests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Disagreement {
    /// Arrivals both decided.
    pub compared: u64,
    /// The counter admitted what the exact rule would have rejected.
    pub counter_admitted_log_rejected: u64,
    /// The counter rejected what the exact rule would have admitted.
    pub counter_rejected_log_admitted: u64,
}

impl Disagreement {
    /// Decisions that differ.
    pub fn total(&self) -> u64 {
        self.counter_admitted_log_rejected + self.counter_rejected_log_admitted
    }

    /// Differing decisions as a fraction of those compared.
    pub fn rate(&self) -> f64 {
        if self.compared == 0 {
            0.0
        } else {
            self.total() as f64 / self.compared as f64
        }
    }
}

/// One simulation per algorithm on the same scenario (same seed, so the same new arrivals), plus
/// a counter and a log side by side on those arrivals.
pub struct Comparison {
    sims: Vec<Simulation>,
    arrivals: Arrivals,
    next: Option<u64>,
    counter: SlidingWindow,
    log: SlidingLog,
    disagreement: Disagreement,
}

impl Comparison {
    /// All five algorithms on `sc` (its `algo` is ignored), each keeping `history` buckets.
    pub fn new(sc: &Scenario, history: usize) -> Self {
        let sims = ALGORITHMS
            .iter()
            .map(|&algo| Simulation::with_history(&Scenario { algo, ..sc.clone() }, history))
            .collect();
        let mut arrivals = Arrivals::new(sc, &mut SimRng::new(sc.seed));
        let next = arrivals.next();
        let (limit, window) = (sc.effective_limit(), sc.effective_window());
        Comparison {
            sims,
            arrivals,
            next,
            counter: SlidingWindow::new(limit, window),
            log: SlidingLog::new(limit, window),
            disagreement: Disagreement::default(),
        }
    }

    /// Runs every algorithm up to and including `t`.
    pub fn step_until(&mut self, t: SimTime) {
        for sim in &mut self.sims {
            sim.step_until(t);
        }
        while let Some(a) = self.next.filter(|&a| a <= t.as_nanos()) {
            let at = SimTime(a);
            let l = self.log.wait(at).as_nanos() == 0;
            let c = self.counter.acquire(at);
            if c {
                self.log.consume(at);
            }
            let d = &mut self.disagreement;
            d.compared += 1;
            d.counter_admitted_log_rejected += u64::from(c && !l);
            d.counter_rejected_log_admitted += u64::from(!c && l);
            self.next = self.arrivals.next();
        }
    }

    /// Runs every algorithm through the next instant at which any of them has an event (for a
    /// new arrival, all five); returns that instant.
    pub fn step_event(&mut self) -> Option<SimTime> {
        let next = self.sims.iter().filter_map(Simulation::next_event_time).min()?;
        self.step_until(next);
        Some(next)
    }

    /// The simulations, in [`ALGORITHMS`] order.
    pub fn sims(&self) -> &[Simulation] {
        &self.sims
    }

    /// Mutable access, e.g. to enable state sampling on each.
    pub fn sims_mut(&mut self) -> &mut [Simulation] {
        &mut self.sims
    }

    /// The counter-versus-log disagreement so far.
    pub fn disagreement(&self) -> Disagreement {
        self.disagreement
    }
}
