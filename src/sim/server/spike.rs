//! [`Spike`]: extra requests on top of a run's traffic for a while (`spike=START-END`,
//! `spike_rate`), whatever the traffic's shape, so a scenario can overload its server, stop,
//! and show whether it recovers (issue #37). They arrive as a Poisson process of their own,
//! from the run's seeded generator: new requests like any other, retried like any other.

use super::keys::{SPIKE, SPIKE_RATE};
use crate::sim::products::key::span;
use crate::sim::products::options::ProductOptions;
use crate::sim::rng::SimRng;
use crate::sim::time::SimTime;

/// A spike's arrivals, one at a time.
#[derive(Clone, Debug)]
pub struct Spike {
    /// Its next arrival.
    next: SimTime,
    end: SimTime,
    /// The mean gap between its arrivals, ns.
    mean_gap: f64,
    rng: SimRng,
}

impl Spike {
    /// The spike the scenario's keys describe, if it has one, drawing from `rng`.
    ///
    /// ```
    /// use ratelimit_playground::sim::{Scenario, SimRng, SimTime};
    /// use ratelimit_playground::sim::server::Spike;
    /// let sc = Scenario::from_query("spike=10-20&spike_rate=500").unwrap();
    /// let mut spike = Spike::of(&sc.product, SimRng::new(1)).unwrap();
    /// let first = spike.next_arrival().unwrap();
    /// assert!(first >= SimTime::from_secs(10) && first < SimTime::from_secs(11));
    /// let count = 1 + std::iter::from_fn(|| spike.next_arrival()).count();
    /// assert!((4_700..5_300).contains(&count), "{count}"); // 500 a second for 10 s
    /// ```
    pub fn of(o: &ProductOptions, mut rng: SimRng) -> Option<Spike> {
        let (start, end) = span(o.get(&SPIKE))?;
        let mean_gap = 1e12 / o.get(&SPIKE_RATE) as f64;
        let next = SimTime(start * 1_000_000 + rng.exponential(mean_gap));
        Some(Spike { next, end: SimTime(end * 1_000_000), mean_gap, rng })
    }

    /// Its next arrival, if one is left before its end.
    pub fn next_arrival(&mut self) -> Option<SimTime> {
        let at = self.next;
        self.next = SimTime(at.0.saturating_add(self.rng.exponential(self.mean_gap)));
        (at < self.end).then_some(at)
    }
}
