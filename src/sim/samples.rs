//! [`StateSamples`]: the limiter's inner state at regular instants of simulated time, for the
//! chart of tokens, window counters and the weighted estimate.
//!
//! Samples are taken by the engine at exact instants (`k × every`), between events, so the
//! chart shows what the limiter held then, however fast or slowly the page animates.

use super::limiter::Gauge;
use super::time::{Nanos, SimTime};
use std::collections::VecDeque;

/// A bounded ring of `(instant, gauge)` samples taken every `every`.
#[derive(Clone, Debug)]
pub struct StateSamples {
    every: u64,
    next: u64,
    capacity: usize,
    ring: VecDeque<(SimTime, Gauge)>,
}

impl StateSamples {
    /// Samples every `every` (at least 1 µs), keeping the newest `capacity`.
    pub fn new(every: Nanos, capacity: usize) -> Self {
        StateSamples { every: every.as_nanos().max(1_000), next: 0, capacity: capacity.max(1), ring: VecDeque::new() }
    }

    /// The next instant a sample is due.
    #[inline]
    pub fn due(&self) -> u64 {
        self.next
    }

    /// Records the gauge for the instant that was due, and schedules the next.
    pub fn record(&mut self, gauge: Gauge) {
        if self.ring.len() == self.capacity {
            self.ring.pop_front();
        }
        self.ring.push_back((SimTime(self.next), gauge));
        self.next += self.every;
    }

    /// Skips sampling up to `t` without recording (after a jump longer than the ring holds).
    pub fn skip_to(&mut self, t: u64) {
        if t > self.next {
            self.next = t - (t - self.next) % self.every;
        }
    }

    /// Samples held, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &(SimTime, Gauge)> {
        self.ring.iter()
    }

    /// Interval between samples.
    pub fn every(&self) -> Nanos {
        Nanos(self.every)
    }

    /// How many instants the ring spans at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}
