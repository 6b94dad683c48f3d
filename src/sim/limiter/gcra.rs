//! GCRA, the generic cell rate algorithm: a token bucket stored as one timestamp.

use super::state::LimiterState;
use super::{div_ceil_nanos, Gauge, Limiter};
use crate::sim::decision::{Quota, Status};
use crate::sim::rate::{Rate, TOKEN};
use crate::sim::time::{Nanos, SimTime};

/// GCRA with emission interval `T = 1 / refill` and burst tolerance `τ = (capacity − 1)·T`.
///
/// It keeps only the theoretical arrival time (TAT) and admits iff `TAT − now ≤ τ`, then sets
/// `TAT = max(TAT, now) + T`. Time is scaled by the refill rate (one token = [`TOKEN`] units) so
/// `T` is an exact integer; with matching parameters it decides exactly as [`super::TokenBucket`].
///
/// ```
/// use ratelimit_playground::sim::{Gcra, Limiter, Rate, SimTime};
/// let mut g = Gcra::new(2, Rate::per_sec(4));
/// assert!(g.acquire(SimTime::ZERO));
/// assert!(g.acquire(SimTime::ZERO));
/// assert!(!g.acquire(SimTime::from_nanos(249_999_999)));
/// assert!(g.acquire(SimTime::from_nanos(250_000_000)));
/// ```
#[derive(Clone, Debug)]
pub struct Gcra {
    capacity: i128,
    refill: i128,
    tat: i128,
}

impl Gcra {
    /// A limiter that can admit a full burst of `capacity` at t = 0.
    pub fn new(capacity: u64, refill: Rate) -> Self {
        Gcra { capacity: i128::from(capacity) * TOKEN as i128, refill: i128::from(refill.milli()), tat: 0 }
    }

    /// The theoretical arrival time.
    pub fn state(&self) -> LimiterState {
        LimiterState::Gcra { tat: self.tat }
    }

    /// Puts back a state from [`state`](Self::state); false (and unchanged) for another kind.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        let &LimiterState::Gcra { tat } = s else { return false };
        self.tat = tat;
        true
    }

    #[inline]
    fn scaled(&self, now: SimTime) -> i128 {
        i128::from(now.as_nanos()) * self.refill
    }

    /// A span of scaled units as nanoseconds, rounded up.
    pub(super) fn nanos(&self, scaled: i128) -> Nanos {
        if scaled <= 0 {
            return Nanos::ZERO;
        }
        div_ceil_nanos(scaled as u128, self.refill as u128)
    }

    /// How far the TAT is ahead of `now`, in scaled units: capacity minus this is the level.
    #[inline]
    pub(super) fn ahead(&self, now: SimTime) -> i128 {
        (self.tat - self.scaled(now)).max(0)
    }
}

impl Limiter for Gcra {
    #[inline]
    fn acquire(&mut self, now: SimTime) -> bool {
        let now = self.scaled(now);
        let tolerance = self.capacity - TOKEN as i128;
        if self.tat - now <= tolerance {
            self.tat = self.tat.max(now) + TOKEN as i128;
            true
        } else {
            false
        }
    }

    fn consume(&mut self, now: SimTime) {
        self.tat = self.tat.max(self.scaled(now)) + TOKEN as i128;
    }

    fn status(&self, now: SimTime) -> Status {
        let ahead = self.ahead(now);
        let level = self.capacity - ahead;
        let to = |target: i128| div_ceil_nanos((target - level).max(0) as u128, self.refill as u128);
        Status { remaining: (level.max(0) / TOKEN as i128) as u64, reset: to(self.capacity), wait: to(TOKEN as i128) }
    }

    #[inline]
    fn wait(&self, now: SimTime) -> Nanos {
        let level = self.capacity - self.ahead(now);
        div_ceil_nanos((TOKEN as i128 - level).max(0) as u128, self.refill as u128)
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        Gauge { level: (self.capacity - self.ahead(now)) as f64 / TOKEN as f64, ..Gauge::default() }
    }

    fn quota(&self) -> Quota {
        Quota {
            limit: (self.capacity / TOKEN as i128) as u64,
            window: if self.refill == 0 {
                Nanos(u64::MAX)
            } else {
                div_ceil_nanos(self.capacity as u128, self.refill as u128)
            },
        }
    }
}
