//! The token bucket: starts full, refills continuously, admits while a whole token is there.

use super::state::LimiterState;
use super::{div_ceil_nanos, Gauge, Limiter};
use crate::sim::decision::{Quota, Status};
use crate::sim::rate::{Rate, TOKEN};
use crate::sim::time::{Nanos, SimTime};

/// A token bucket of `capacity` tokens refilled at `refill` tokens per second.
///
/// The level is kept in fixed-point units ([`TOKEN`] per token), and refill adds exactly
/// `refill.milli()` units per elapsed nanosecond, so there is no drift and no truncation: a
/// request arriving at the exact instant the bucket reaches one token is admitted.
///
/// ```
/// use ratelimit_playground::sim::{Limiter, Rate, SimTime, TokenBucket};
/// let mut b = TokenBucket::new(2, Rate::per_sec(4)); // one token every 250 ms
/// assert!(b.acquire(SimTime::ZERO));
/// assert!(b.acquire(SimTime::ZERO));
/// assert!(!b.acquire(SimTime::from_nanos(249_999_999)));
/// assert!(b.acquire(SimTime::from_nanos(250_000_000)));
/// ```
#[derive(Clone, Debug)]
pub struct TokenBucket {
    capacity: i64,
    refill: i64,
    level: i64,
    last: u64,
}

/// The deepest debt a bucket records (rejected requests that count, increments from other
/// nodes): half of `i64`'s range, over four million tokens. Keeping the level in 64 bits makes
/// every decision a handful of native instructions, also in WebAssembly.
const MAX_DEBT: i64 = i64::MIN / 2;

impl TokenBucket {
    /// A full bucket of `capacity` tokens at t = 0 (at most one million tokens).
    pub fn new(capacity: u64, refill: Rate) -> Self {
        let capacity = (capacity.min(1_000_000) as i64) * TOKEN as i64;
        let refill = refill.milli().min(i64::MAX as u64) as i64;
        TokenBucket { capacity, refill, level: capacity, last: 0 }
    }

    /// The level at `now` in fixed-point units, without changing the bucket.
    #[inline(always)]
    fn level_at(&self, now: SimTime) -> i64 {
        let elapsed = now.as_nanos().saturating_sub(self.last);
        // Under 2^32 ns at under 2^31 milli-tokens/s (the usual case) the product fits 63 bits.
        let added = if elapsed < 1 << 32 && self.refill < 1 << 31 {
            elapsed as i64 * self.refill
        } else {
            (i128::from(elapsed) * i128::from(self.refill)).min(i128::from(i64::MAX)) as i64
        };
        self.level.saturating_add(added).min(self.capacity)
    }

    #[inline(always)]
    fn refill_to(&mut self, now: SimTime) {
        if now.as_nanos() > self.last {
            self.level = self.level_at(now);
            self.last = now.as_nanos();
        }
    }

    /// Tokens in the bucket at `now`, fractional.
    pub fn tokens(&self, now: SimTime) -> f64 {
        self.level_at(now) as f64 / TOKEN as f64
    }

    /// The level and the time it was computed at.
    pub fn state(&self) -> LimiterState {
        LimiterState::Bucket { level: self.level, last: self.last }
    }

    /// Puts back a state from [`state`](Self::state); false (and unchanged) for another kind.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        let &LimiterState::Bucket { level, last } = s else { return false };
        (self.level, self.last) = (level.clamp(MAX_DEBT, self.capacity), last);
        true
    }
}

impl Limiter for TokenBucket {
    #[inline(always)]
    fn acquire(&mut self, now: SimTime) -> bool {
        self.refill_to(now);
        if self.level >= TOKEN as i64 {
            self.level -= TOKEN as i64;
            true
        } else {
            false
        }
    }

    fn consume(&mut self, now: SimTime) {
        self.refill_to(now);
        self.level = (self.level - TOKEN as i64).max(MAX_DEBT);
    }

    fn status(&self, now: SimTime) -> Status {
        let level = i128::from(self.level_at(now));
        let to = |target: i128| div_ceil_nanos((target - level).max(0) as u128, self.refill as u128);
        Status {
            remaining: (level.max(0) / TOKEN as i128) as u64,
            reset: to(i128::from(self.capacity)),
            wait: to(TOKEN as i128),
        }
    }

    #[inline]
    fn wait(&self, now: SimTime) -> Nanos {
        let level = i128::from(self.level_at(now));
        div_ceil_nanos((TOKEN as i128 - level).max(0) as u128, self.refill as u128)
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        Gauge { level: self.tokens(now), ..Gauge::default() }
    }

    fn quota(&self) -> Quota {
        Quota {
            limit: (self.capacity / TOKEN as i64) as u64,
            window: if self.refill == 0 {
                Nanos(u64::MAX)
            } else {
                div_ceil_nanos(self.capacity as u128, self.refill as u128)
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime::from_nanos(ms * 1_000_000)
    }

    #[test]
    fn admits_exactly_at_the_instant_one_token_is_back_for_rates_that_do_not_divide_a_second() {
        // 3 tokens/s: one token every 333 333 333.33 ns, so the first refill completes at ceil.
        let mut b = TokenBucket::new(1, Rate::per_sec(3));
        assert!(b.acquire(SimTime::ZERO));
        let wait = b.status(SimTime::ZERO).wait;
        assert_eq!(wait, Nanos(333_333_334));
        assert!(!b.acquire(SimTime::from_nanos(333_333_333)));
        assert!(b.acquire(SimTime::from_nanos(333_333_334)));
    }

    #[test]
    fn does_not_drift_over_a_million_refills() {
        // 7 tokens/s; each request comes exactly when Retry-After says one token is back. With room
        // for the fraction left over (capacity 2), no nanosecond is lost or gained in a million.
        let mut b = TokenBucket::new(2, Rate::per_sec(7));
        let mut admitted = 0u64;
        let mut t = SimTime::ZERO;
        while admitted < 1_000_000 {
            assert!(b.acquire(t));
            admitted += 1;
            t += b.status(t).wait;
        }
        // Two at t = 0 from the full bucket, then request k at ceil((k − 1) / 7 s): no accumulated error.
        assert_eq!(t.as_nanos(), (999_999u64 * 1_000_000_000).div_ceil(7));
    }

    #[test]
    fn never_holds_more_than_capacity() {
        let mut b = TokenBucket::new(5, Rate::per_sec(100));
        let admitted = (0..10).filter(|_| b.acquire(at_ms(60_000))).count();
        assert_eq!(admitted, 5);
    }

    #[test]
    fn consuming_past_empty_goes_into_debt_that_refill_repays() {
        let mut b = TokenBucket::new(1, Rate::per_sec(1));
        b.consume(SimTime::ZERO);
        b.consume(SimTime::ZERO); // one token of debt
        assert_eq!(b.status(SimTime::ZERO).wait, Nanos::from_secs(2));
        assert!(!b.acquire(at_ms(1_999)));
        assert!(b.acquire(at_ms(2_000)));
    }

    #[test]
    fn debt_saturates_instead_of_overflowing() {
        let mut b = TokenBucket::new(1, Rate::per_sec(1));
        for _ in 0..5_000_000 {
            b.consume(SimTime::ZERO);
        }
        assert!(b.tokens(SimTime::ZERO) < -4_000_000.0);
        assert!(!b.acquire(SimTime::from_secs(3_600)));
    }

    #[test]
    fn an_earlier_time_is_treated_as_no_time_passing() {
        let mut b = TokenBucket::new(1, Rate::per_sec(1));
        assert!(b.acquire(at_ms(5_000)));
        assert!(!b.acquire(at_ms(4_000)));
    }
}
