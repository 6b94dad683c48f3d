//! [`Comparison`]: the same arrivals through every algorithm at once, and how the sliding window
//! counter's admissions compare with the exact sliding log's.

use super::engine::Simulation;
use super::engine::{Capabilities, Lacking};
use super::scenario::{Algorithm, Scenario};
use super::time::SimTime;

/// Every algorithm, in the order the app shows them.
pub const ALGORITHMS: [Algorithm; 5] =
    [Algorithm::TokenBucket, Algorithm::Gcra, Algorithm::FixedWindow, Algorithm::SlidingWindow, Algorithm::SlidingLog];

/// What the sliding window counter's approximation does to throughput: how many requests it
/// admitted against the exact sliding log, both run on the same arrivals.
///
/// (An earlier version counted, per arrival, whether the exact rule would have decided otherwise
/// on the counter's own history. Under overload one unused slot then counts again at every
/// arrival until the counter admits, so at 1 000 requests/s nearly every decision "differed"
/// while the counter admitted a tenth less. Admissions are what a reader can check in the columns.)
///
/// ```
/// use ratelimit_playground::sim::Disagreement;
/// let d = Disagreement { counter_admitted: 90, log_admitted: 100 };
/// assert!((d.difference() + 0.1).abs() < 1e-12); // 10 % fewer
/// assert_eq!(Disagreement::default().difference(), 0.0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Disagreement {
    /// Requests the sliding window counter admitted.
    pub counter_admitted: u64,
    /// Requests the exact sliding log admitted.
    pub log_admitted: u64,
}

impl Disagreement {
    /// (counter − log) ÷ log: negative when the counter admitted fewer; 0 before the log admits.
    pub fn difference(&self) -> f64 {
        if self.log_admitted == 0 {
            0.0
        } else {
            (self.counter_admitted as f64 - self.log_admitted as f64) / self.log_admitted as f64
        }
    }
}

/// What compare mode runs for `sc`: the five algorithms, and the product model last when `sc`'s
/// algorithm is one.
pub fn algorithms(sc: &Scenario) -> Vec<Algorithm> {
    let mut all = ALGORITHMS.to_vec();
    if sc.algo.is_product() {
        all.push(sc.algo);
    }
    all
}

/// One simulation per algorithm on the same scenario (same seed, so the same new arrivals).
pub struct Comparison {
    sims: Vec<Simulation>,
}

impl Comparison {
    /// The [`algorithms`] of `sc` on `sc`, each keeping `history` buckets, with every part of
    /// the engine.
    pub fn new(sc: &Scenario, history: usize) -> Self {
        Self::try_new(sc, Capabilities::ALL, history).expect("every capability")
    }

    /// The [`algorithms`] of `sc` on `sc`, each keeping `history` buckets, run with `caps`;
    /// refused when `sc` needs a part of the engine `caps` lack.
    pub fn try_new(sc: &Scenario, caps: Capabilities, history: usize) -> Result<Self, Lacking> {
        let sims = algorithms(sc)
            .into_iter()
            .map(|algo| Simulation::try_new(&Scenario { algo, ..sc.clone() }, caps, history))
            .collect::<Result<_, _>>()?;
        Ok(Comparison { sims })
    }

    /// Runs every simulation up to `t`.
    pub fn step_until(&mut self, t: SimTime) {
        for sim in &mut self.sims {
            sim.step_until(t);
        }
    }

    /// Runs the next instant at which any simulation has an event (for a new arrival, all
    /// five); returns it.
    pub fn step_event(&mut self) -> Option<SimTime> {
        let next = self.sims.iter().filter_map(Simulation::next_event_time).min()?;
        self.step_until(next);
        Some(next)
    }

    /// The simulations, in [`algorithms`] order.
    pub fn sims(&self) -> &[Simulation] {
        &self.sims
    }

    /// Mutable access, e.g. to enable state sampling on each.
    pub fn sims_mut(&mut self) -> &mut [Simulation] {
        &mut self.sims
    }

    /// The sliding window counter's admissions against the exact sliding log's so far.
    pub fn disagreement(&self) -> Disagreement {
        let admitted = |algo| {
            let i = ALGORITHMS.iter().position(|&a| a == algo).expect("every algorithm is compared");
            self.sims[i].metrics().totals.admitted
        };
        Disagreement {
            counter_admitted: admitted(Algorithm::SlidingWindow),
            log_admitted: admitted(Algorithm::SlidingLog),
        }
    }
}
