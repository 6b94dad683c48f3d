//! Go's `golang.org/x/time/rate` limiter as version 0.3.0 computes it, read from its
//! `rate/rate.go` (Debian's golang-golang-x-time-dev: `NewLimiter`, `AllowN`, `reserveN`,
//! `advance`, `tokensFromDuration`, `durationFromTokens`): a token bucket in `float64` tokens.
//!
//! Each arrival is `AllowN(t, 1)`: the tokens advance to `t` from the last *admitted* request
//! (`tokens = min(b, tokens + elapsed.Seconds() × r)`; a limiter that has admitted nothing is
//! full, its `last` being the zero `time.Time`), one token is taken, and the request is allowed
//! iff `b ≥ 1` and the wait for the missing part, `time.Duration(1e9 × (−tokens ÷ r))` truncated
//! to whole nanoseconds, is not positive. Only an admission changes the state: a refusal leaves
//! `last` and `tokens` as they were. So a request that lacks less than a nanosecond's worth of
//! tokens is admitted, and the bucket goes (very slightly) below zero.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::time::{Nanos, SimTime};

/// `rate.NewLimiter(r, b)` as the production panel exports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GoLimit {
    /// `r`: tokens per second (`rate.Limit`, a float64).
    pub r: f64,
    /// `b`: the burst.
    pub b: u64,
}

impl GoLimit {
    /// The limiter for `p`: `r` is its rate, `b` its burst (a window's limit).
    pub fn of(p: &Policy) -> GoLimit {
        // rate_milli / 1000 rounded once: the double nearest the decimal, as Go reads `7.777`.
        GoLimit { r: p.rate_milli as f64 / 1000.0, b: p.burst }
    }
}

/// `time.Duration.Seconds()`: whole seconds and the rest, each converted, then added.
fn seconds(d: u64) -> f64 {
    (d / 1_000_000_000) as f64 + (d % 1_000_000_000) as f64 / 1e9
}

/// `Limit.durationFromTokens`: `time.Duration(float64(time.Second) × (tokens ÷ r))`, which Go
/// truncates toward zero (and Rust's `as` too, saturating where Go's would be undefined).
fn duration_from_tokens(tokens: f64, r: f64) -> i64 {
    (1e9 * (tokens / r)) as i64
}

/// One `rate.Limiter`, made at t = 0 (one key's, in a keyed setup).
#[derive(Clone, Debug)]
pub struct GoRate {
    limit: GoLimit,
    /// The tokens after the last admission, and when it was (ns); `None` until the first.
    last: Option<(f64, u64)>,
}

impl GoRate {
    /// A limiter that has admitted nothing yet.
    pub fn new(limit: GoLimit) -> Self {
        GoRate { limit, last: None }
    }

    /// `advance(t)`: the tokens at `t` (ns), not changing anything.
    fn tokens_at(&self, t: u64) -> f64 {
        let burst = self.limit.b as f64;
        match self.last {
            // The zero time.Time is ~2 000 years back: any rate has refilled the bucket since.
            None => burst,
            Some((tokens, last)) => {
                let elapsed = t.saturating_sub(last.min(t));
                let tokens = tokens + seconds(elapsed) * self.limit.r;
                if tokens > burst {
                    burst
                } else {
                    tokens
                }
            }
        }
    }

    /// What `reserveN(t, 1, 0)` decides: the tokens left if it takes one, and the wait, ns.
    fn reserve(&self, t: u64) -> (f64, i64) {
        let tokens = self.tokens_at(t) - 1.0;
        let wait = if tokens < 0.0 { duration_from_tokens(-tokens, self.limit.r) } else { 0 };
        (tokens, wait)
    }
}

crate::sim::limiter::model!(GoRate);

impl Limiter for GoRate {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        let (tokens, wait) = self.reserve(t);
        let ok = self.limit.b >= 1 && wait <= 0;
        if ok {
            self.last = Some((tokens, t));
        }
        ok
    }

    fn consume(&mut self, now: SimTime) {
        let t = now.as_nanos();
        self.last = Some((self.reserve(t).0, t));
    }

    fn status(&self, now: SimTime) -> Status {
        let t = now.as_nanos();
        let tokens = self.tokens_at(t);
        let (_, wait) = self.reserve(t);
        let missing = (self.limit.b as f64 - tokens).max(0.0);
        Status {
            remaining: tokens.max(0.0) as u64,
            reset: Nanos(duration_from_tokens(missing, self.limit.r).max(0) as u64),
            wait: Nanos(wait.max(0) as u64),
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        Gauge { level: self.tokens_at(now.as_nanos()), current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        let b = self.limit.b;
        Quota { limit: b, window: Nanos(duration_from_tokens(b as f64, self.limit.r).max(1) as u64) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_limiter_is_full_and_a_refusal_changes_nothing() {
        let mut g = GoRate::new(GoLimit { r: 2.0, b: 3 });
        let passed = (0..5).filter(|_| g.acquire(SimTime(0))).count();
        assert_eq!(passed, 3);
        assert_eq!(g.status(SimTime(0)).wait, Nanos(500_000_000));
        assert!(!g.acquire(SimTime(499_999_999)));
        assert!(g.acquire(SimTime(500_000_000)), "the refusals did not move `last`");
    }

    #[test]
    fn less_than_a_nanosecond_short_is_admitted_below_zero() {
        // r = 3/s: a token every 333 333 333.33 ns. After 333 333 333 ns the bucket lacks a
        // third of a nanosecond's worth, which truncates to a wait of 0: admitted.
        let mut g = GoRate::new(GoLimit { r: 3.0, b: 1 });
        assert!(g.acquire(SimTime(0)));
        assert!(g.acquire(SimTime(333_333_333)));
        assert!(g.gauge(SimTime(333_333_333)).level < 0.0);
    }

    #[test]
    fn seconds_is_gos_split_conversion() {
        assert_eq!(seconds(1_500_000_000), 1.5);
        assert_eq!(seconds(999_999_999), 0.999999999);
    }
}
