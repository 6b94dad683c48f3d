//! Spring Cloud Gateway's `RedisRateLimiter` (4.x), read from its source
//! (RedisRateLimiter.java and META-INF/scripts/request_rate_limiter.lua): not run here (Spring
//! Cloud Gateway comes from Maven Central, which this machine cannot reach).
//!
//! - A token bucket in a Lua script on Redis's clock in whole seconds (`TIME`, since 3.0.6):
//!   `filled = min(capacity, tokens + Δseconds × replenishRate)`, allowed when `filled ≥ 1`.
//! - `replenishRate` and `burstCapacity` are integers (the capacity at least the rate); the
//!   state is written on every call, refused ones too (time moving in whole seconds, nothing is
//!   lost by it).
//! - So tokens arrive in steps, `replenishRate` at each turn of the second: requests spread over
//!   a second see the bucket as it was at its start.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::time::{Nanos, SimTime};

const SEC: u64 = 1_000_000_000;

/// `redis-rate-limiter.replenishRate` and `burstCapacity` as the production panel exports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpringLimit {
    /// Tokens per second, a whole number at least 1.
    pub replenish: u64,
    /// The bucket, at least the rate (the setter asserts it).
    pub burst: u64,
}

impl SpringLimit {
    /// The policy's rate rounded to a whole number per second (at least 1), its burst raised to
    /// that rate if below.
    pub fn of(p: &Policy) -> SpringLimit {
        let replenish = ((p.rate_milli + 500) / 1_000).max(1);
        SpringLimit { replenish, burst: p.burst.max(replenish) }
    }
}

/// One key's bucket in Redis.
#[derive(Clone, Debug)]
pub struct Spring {
    limit: SpringLimit,
    /// Tokens and the second they were written at; `None` until the first request.
    state: Option<(u64, u64)>,
    /// Tokens after the last request.
    left: u64,
}

impl Spring {
    /// A key Redis has no bucket for: full.
    pub fn new(limit: SpringLimit) -> Self {
        Spring { limit, state: None, left: limit.burst }
    }

    /// The script's `filled_tokens` at `t` (ns).
    fn filled(&self, t: u64) -> u64 {
        let now = t / SEC;
        match self.state {
            None => self.limit.burst,
            Some((tokens, last)) => {
                let delta = now.saturating_sub(last);
                self.limit.burst.min(tokens.saturating_add(delta.saturating_mul(self.limit.replenish)))
            }
        }
    }
}

crate::sim::limiter::model!(Spring);

impl Limiter for Spring {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        let filled = self.filled(t);
        let allowed = filled >= 1;
        self.left = filled - u64::from(allowed);
        self.state = Some((self.left, t / SEC));
        allowed
    }

    fn consume(&mut self, now: SimTime) {
        let t = now.as_nanos();
        self.left = self.filled(t).saturating_sub(1);
        self.state = Some((self.left, t / SEC));
    }

    fn status(&self, now: SimTime) -> Status {
        let t = now.as_nanos();
        let filled = self.filled(t);
        let next_second = (t / SEC + 1) * SEC - t;
        let missing = self.limit.burst - filled;
        let refill_s = missing.div_ceil(self.limit.replenish);
        Status {
            remaining: filled,
            reset: Nanos(if missing == 0 { 0 } else { next_second + (refill_s - 1) * SEC }),
            wait: Nanos(if filled >= 1 { 0 } else { next_second }),
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        Gauge { level: self.filled(now.as_nanos()) as f64, current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.limit.burst, window: Nanos(self.limit.burst * SEC / self.limit.replenish) }
    }

    /// The gateway's headers, on admitted and refused requests alike.
    fn headers(&self, _: &Decision) -> Vec<(&'static str, String)> {
        vec![
            ("X-RateLimit-Remaining", self.left.to_string()),
            ("X-RateLimit-Replenish-Rate", self.limit.replenish.to_string()),
            ("X-RateLimit-Burst-Capacity", self.limit.burst.to_string()),
            ("X-RateLimit-Requested-Tokens", "1".into()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_come_at_the_turn_of_each_second() {
        let mut s = Spring::new(SpringLimit { replenish: 2, burst: 2 });
        let at = |ms: u64| SimTime(ms * 1_000_000);
        assert!(s.acquire(at(100)) && s.acquire(at(200)));
        assert!(!s.acquire(at(999)), "no refill within the second, however long");
        assert!(s.acquire(at(1_000)) && s.acquire(at(1_001)), "two at once at the turn of the second");
        assert!(!s.acquire(at(1_002)));
    }

    #[test]
    fn the_rate_is_whole_and_the_burst_at_least_the_rate() {
        let p =
            Policy { shape: crate::sim::products::Shape::Bucket, burst: 3, rate_milli: 12_500, limit: 3, window_ns: 1 };
        assert_eq!(SpringLimit::of(&p), SpringLimit { replenish: 13, burst: 13 });
    }
}
