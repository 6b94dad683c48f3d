//! redis-cell 0.2.2 (`CL.THROTTLE key max_burst count period`), as its source computes it
//! (crates.io `redis-cell` 0.2.2: `src/cell/mod.rs` `RateLimiter::rate_limit`, `src/lib.rs`,
//! `src/cell/store.rs`): GCRA in integer nanoseconds on the module's own clock.
//!
//! - The emission interval is `period × 1e9 ÷ count` in `f64`, truncated to whole nanoseconds;
//!   the tolerance is that times `max_burst + 1`, and so is the limit: `max_burst` 9 admits 10
//!   at once (brandur/redis-cell#70).
//! - A request at `now` is allowed iff `max(tat, now) + T − tolerance ≤ now`; an allowed one stores
//!   the new TAT in a key that Redis expires after `new_tat − now`, in whole milliseconds
//!   (truncated) on Redis's millisecond clock. A request that finds the key gone (a TAT less than
//!   a millisecond ahead can be) starts from `now`.
//! - The reply: limited (0/1), the limit, the remaining (`(tolerance − ttl)` in whole µs ÷ `T`
//!   in whole µs, truncated), `retry_after` and `reset_after` in whole seconds, truncated (−1
//!   for an allowed request's `retry_after`).

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::{gcd, Policy};
use crate::sim::time::{Nanos, SimTime};

const SEC: i64 = 1_000_000_000;
const MS: i64 = 1_000_000;

/// `CL.THROTTLE`'s arguments as the production panel exports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellQuota {
    /// `max_burst`: one less than the requests admitted at once.
    pub max_burst: u64,
    /// `count` per `period`.
    pub count: u64,
    /// `period`, whole seconds.
    pub period_s: u64,
}

impl CellQuota {
    /// The arguments for `p`: its burst less one, its rate as the fewest whole requests per whole
    /// seconds (12.5/s is 25 per 2 s).
    pub fn of(p: &Policy) -> CellQuota {
        let milli = p.rate_milli.max(1);
        let g = gcd(milli, 1_000);
        CellQuota { max_burst: p.burst.max(1) - 1, count: milli / g, period_s: 1_000 / g }
    }

    /// The emission interval `T`, ns: `Rate::per_period`'s `(ns as f64 / n as f64) as i64`.
    pub fn interval(&self) -> i64 {
        ((self.period_s as i64 * SEC) as f64 / self.count as f64) as i64
    }

    /// The delay variation tolerance, ns: `T × (max_burst + 1)`.
    pub fn tolerance(&self) -> i64 {
        self.interval() * (self.max_burst as i64 + 1)
    }
}

/// One `CL.THROTTLE` reply: `[limited, limit, remaining, retry_after, reset_after]`.
pub type Reply = [i64; 5];

/// One key under redis-cell.
#[derive(Clone, Debug)]
pub struct RedisCell {
    quota: CellQuota,
    /// The stored TAT (ns) and the last millisecond of Redis's clock at which the key exists.
    key: Option<(i64, i64)>,
    /// The last request's reply.
    reply: Reply,
}

impl RedisCell {
    /// A key Redis does not have.
    pub fn new(quota: CellQuota) -> Self {
        RedisCell { quota, key: None, reply: [0; 5] }
    }

    /// The stored TAT at `now` (ns), if the key has not expired.
    fn tat(&self, now: i64) -> Option<i64> {
        self.key.filter(|&(_, until)| now.div_euclid(MS) <= until).map(|(tat, _)| tat)
    }

    /// `CL.THROTTLE key max_burst count period 1` at `now` (ns): the reply and, if allowed, the new
    /// TAT with the TTL set on the key (ns).
    pub fn throttle(&self, now: i64) -> (Reply, Option<(i64, i64)>) {
        let (t, dvt) = (self.quota.interval(), self.quota.tolerance());
        let stored = self.tat(now);
        let tat = stored.unwrap_or(now);
        let new_tat = tat.max(now) + t;
        let diff = now - (new_tat - dvt);
        let (limited, retry_after, ttl, write) = if diff < 0 {
            (1, if t <= dvt { -diff } else { -SEC }, tat - now, None)
        } else {
            (0, -SEC, new_tat - now, Some((new_tat, new_tat - now)))
        };
        let next = dvt - ttl;
        let remaining = if next > -t { ((next / 1_000) as f64 / (t / 1_000) as f64) as i64 } else { 0 };
        let limit = self.quota.max_burst as i64 + 1;
        ([limited, limit, remaining, retry_after / SEC, ttl / SEC], write)
    }

    /// The last request's reply.
    pub fn reply(&self) -> Reply {
        self.reply
    }

    fn apply(&mut self, now: i64, write: Option<(i64, i64)>) {
        if let Some((tat, ttl)) = write {
            // RedisModule_SetExpire(key, ttl in whole ms): from Redis's millisecond now.
            self.key = Some((tat, now.div_euclid(MS) + ttl / MS));
        }
    }
}

crate::sim::limiter::model!(RedisCell);

impl Limiter for RedisCell {
    fn acquire(&mut self, now: SimTime) -> bool {
        let now = now.as_nanos() as i64;
        let (reply, write) = self.throttle(now);
        self.apply(now, write);
        self.reply = reply;
        reply[0] == 0
    }

    fn consume(&mut self, now: SimTime) {
        let now = now.as_nanos() as i64;
        let (t, tat) = (self.quota.interval(), self.tat(now).unwrap_or(now));
        let new_tat = tat.max(now) + t;
        self.apply(now, Some((new_tat, new_tat - now)));
    }

    fn status(&self, now: SimTime) -> Status {
        let now_ns = now.as_nanos() as i64;
        let (t, dvt) = (self.quota.interval(), self.quota.tolerance());
        let tat = self.tat(now_ns).unwrap_or(now_ns).max(now_ns);
        let wait = (tat + t - dvt - now_ns).max(0);
        let remaining = ((dvt - (tat - now_ns)) / t.max(1)).max(0);
        Status { remaining: remaining as u64, reset: Nanos((tat - now_ns) as u64), wait: Nanos(wait as u64) }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let now_ns = now.as_nanos() as i64;
        let (t, dvt) = (self.quota.interval(), self.quota.tolerance());
        let tat = self.tat(now_ns).unwrap_or(now_ns).max(now_ns);
        Gauge { level: (dvt - (tat - now_ns)) as f64 / t.max(1) as f64, current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.quota.max_burst + 1, window: Nanos(self.quota.tolerance().max(1) as u64) }
    }

    /// What an application sets from the reply, as redis-cell's README suggests: the limit, the
    /// remaining and the reset (`X-RateLimit-*`), and `Retry-After` on a refusal, in the reply's
    /// whole seconds.
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        let [_, limit, remaining, retry_after, reset_after] = self.reply;
        let mut h = vec![
            ("X-RateLimit-Limit", limit.to_string()),
            ("X-RateLimit-Remaining", remaining.to_string()),
            ("X-RateLimit-Reset", reset_after.to_string()),
        ];
        if !d.allowed {
            h.push(("Retry-After", retry_after.to_string()));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn max_burst_9_admits_10_at_once() {
        let mut c = RedisCell::new(CellQuota { max_burst: 9, count: 5, period_s: 1 });
        assert_eq!((0..12).filter(|_| c.acquire(at_ms(0))).count(), 10);
        assert!(c.acquire(at_ms(200)), "one interval later, one more");
    }

    #[test]
    fn the_reply_truncates_seconds_and_microseconds() {
        // 1 per 3 s, max_burst 0: T = 3 s.
        let mut c = RedisCell::new(CellQuota { max_burst: 0, count: 1, period_s: 3 });
        assert!(c.acquire(at_ms(0)));
        assert_eq!(c.reply(), [0, 1, 0, -1, 3]);
        assert!(!c.acquire(at_ms(500)));
        assert_eq!(c.reply(), [1, 1, 0, 2, 2], "2.5 s truncate to 2");
    }

    #[test]
    fn a_tat_less_than_a_millisecond_ahead_may_find_its_key_gone() {
        // 3 per s: T = 333 333 333 ns; max_burst 0. At 0.7 ms the TAT becomes 334.033 ms, and
        // the key lives until ms 0 + 333 (its TTL truncated): gone at ms 334, before the TAT.
        let mut c = RedisCell::new(CellQuota { max_burst: 0, count: 3, period_s: 1 });
        assert!(c.acquire(SimTime(700_000)));
        assert!(!c.acquire(SimTime(333_999_999)), "ms 333: the key is there");
        assert!(c.acquire(SimTime(334_010_000)), "ms 334: the key is gone, a fresh start");
    }

    #[test]
    fn the_interval_is_the_f64_quotient_truncated() {
        assert_eq!(CellQuota { max_burst: 0, count: 3, period_s: 1 }.interval(), 333_333_333);
        assert_eq!(CellQuota { max_burst: 0, count: 7777, period_s: 1000 }.interval(), 128_584_287);
    }
}
