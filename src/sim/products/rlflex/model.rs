//! rate-limiter-flexible 11.4's `RateLimiterMemory` (npm; `lib/RateLimiterMemory.js`,
//! `lib/component/MemoryStorage/MemoryStorage.js`, `lib/RateLimiterAbstract.js`, read from the
//! package), each request one `consume(key, 1)`:
//!
//! - the clock is `Date.now()`, whole ms (simulated time 0 is [`crate::sim::time::EPOCH_S`]);
//!   `duration` and `blockDuration` are seconds, made ms by `× 1000` in `double`;
//! - the first consume on a key with no live record starts its window: `expiresAt = now +
//!   duration × 1000`; a record is live while `expiresAt − now > 0`, so it is gone at exactly
//!   `expiresAt`. Every consume adds its point first, refused ones too, and is refused when the
//!   key's points are then above `points`;
//! - with `blockDuration`, the consume that first goes over (`points + 1`) replaces the record by
//!   one that expires `blockDuration` later (a block shorter than the window's rest ends it
//!   early); consumes during it still add points and are refused;
//! - with `execEvenly`, an admitted consume that is not its window's first resolves after
//!   `ceil(msBeforeNext / (remainingPoints + 2))` ms, or `consumedPoints × execEvenlyMinDelayMs`
//!   when that is below `execEvenlyMinDelayMs = ceil(duration × 1000 / points)`: the request is
//!   held, not refused;
//! - the storage's `setTimeout` that deletes an expired record only frees memory: a deleted key
//!   and an expired one both start a new window at the next consume, so it is left out.
//!
//! `RateLimiterRedis` (`storage=redis`; `lib/RateLimiterRedis.js` with ioredis) counts in Redis,
//! on Redis's clock (ms), in whole seconds: `secDuration = floor(duration)`, and each consume runs
//! `SET key 0 EX secDuration NX; INCRBY key 1; PTTL key` (a key left without an expiry gets
//! `EXPIRE secDuration`). So the window lasts `floor(duration)` s and one ms more (a Redis key is
//! still there at its expiry millisecond), `msBeforeNext` is the `PTTL`, and a window's first
//! consume is the one that counts 1. A duration under 1 s has no expiry at all (`INCRBY; PTTL`):
//! the key counts for ever. The block is `SET key points EX floor(blockDuration)`, without an
//! expiry under 1 s (until the next consume gives it the window's), while its refusal still says
//! `msBeforeNext = blockDuration × 1000`.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{round_ms, Policy};
use crate::sim::products::redis_key::{self, RedisKey};
use crate::sim::time::{Nanos, SimTime, EPOCH_S};

const NS_PER_MS: u64 = 1_000_000;

/// The exported `new RateLimiterMemory({ points, duration, blockDuration, execEvenly })`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlflexOptions {
    /// `points` per window.
    pub points: u64,
    /// `duration`, written as whole ms ÷ 1000 s.
    pub duration_ms: u64,
    /// `blockDuration`, whole ms ÷ 1000 s; 0 for none.
    pub block_ms: u64,
    /// `execEvenly`.
    pub exec_evenly: bool,
    /// A `RateLimiterRedis` (`storage=redis`), not a `RateLimiterMemory`.
    pub redis: bool,
}

impl RlflexOptions {
    /// What the production panel exports for `p` with the product's keys in `o`: the window
    /// rounded to the ms (a bucket's policy is counted as a window of its burst).
    pub fn of(p: &Policy, o: &ProductOptions) -> RlflexOptions {
        RlflexOptions {
            points: p.limit.max(1),
            duration_ms: round_ms(p.window_ns),
            block_ms: o.get(&super::BLOCK),
            exec_evenly: o.get(&super::EXEC_EVENLY) == 1,
            redis: o.get(&crate::sim::products::key::STORAGE) == 1,
        }
    }

    /// Seconds as JavaScript holds the exported decimal (`2.5`, `0.07`): the `double` nearest.
    fn seconds(ms: u64) -> f64 {
        ms as f64 / 1000.0
    }
}

/// One key's record in the `MemoryStorage`.
#[derive(Clone, Copy, Debug)]
struct Record {
    /// Points consumed.
    value: u64,
    /// `expiresAt`, ms since the epoch (a `double`).
    expires_at: f64,
}

/// One key under a `RateLimiterMemory`.
#[derive(Clone, Debug)]
pub struct Rlflex {
    o: RlflexOptions,
    /// `duration × 1000` and `blockDuration × 1000`, as JavaScript computes them.
    duration: f64,
    block: f64,
    /// `execEvenlyMinDelayMs`.
    min_delay: f64,
    record: Option<Record>,
    /// The key in Redis, for a `RateLimiterRedis`.
    key: Option<RedisKey>,
    /// The last consume's `msBeforeNext` and hold (ms).
    last: (f64, u64),
}

impl Rlflex {
    /// A key the storage has not seen.
    pub fn new(o: RlflexOptions) -> Self {
        let duration = RlflexOptions::seconds(o.duration_ms) * 1000.0;
        let block = RlflexOptions::seconds(o.block_ms) * 1000.0;
        let min_delay = (duration / o.points as f64).ceil();
        Rlflex { o, duration, block, min_delay, record: None, key: None, last: (0.0, 0) }
    }

    /// `Date.now()` at `now`.
    fn clock(now: SimTime) -> f64 {
        (EPOCH_S * 1000 + now.as_nanos() / NS_PER_MS) as f64
    }

    /// The record as the storage reads it at `ms`: none once `expiresAt − now ≤ 0`.
    fn live(&self, ms: f64) -> Option<Record> {
        self.record.filter(|r| r.expires_at - ms > 0.0)
    }

    /// The instant (ns) the live record at `ms` is gone: the first whole ms at or after
    /// `expiresAt`.
    fn gone_at(&self, r: Record) -> u64 {
        (r.expires_at.ceil() as u64 - EPOCH_S * 1000) * NS_PER_MS
    }

    /// One consume in a `MemoryStorage` at `ms`: the points then, `msBeforeNext`, and whether it
    /// started the window.
    fn memory_upsert(&mut self, ms: f64) -> (u64, f64, bool) {
        let (record, first) = match self.live(ms) {
            Some(r) => (Record { value: r.value + 1, ..r }, false),
            None => (Record { value: 1, expires_at: ms + self.duration }, true),
        };
        self.record = Some(record);
        (record.value, if first { self.duration } else { record.expires_at - ms }, first)
    }

    /// One consume's script in Redis at `now` (ms): the points then, `msBeforeNext` (the
    /// `PTTL`), and whether it is the window's first.
    fn redis_upsert(&mut self, now: u64) -> (u64, f64, bool) {
        let seconds = self.o.duration_ms / 1000;
        let live = RedisKey::live(self.key, now);
        let mut key = live.unwrap_or(RedisKey::set(0, now, seconds * 1000));
        key.value += 1;
        if seconds > 0 && key.when.is_none() {
            key.when = Some(now + seconds * 1000);
        }
        self.key = Some(key);
        (key.value, RedisKey::pttl(self.key, now) as f64, key.value == 1)
    }

    /// The block's `SET key points EX floor(blockDuration)` at `now` (ms).
    fn redis_block(&mut self, now: u64, points: u64) {
        self.key = Some(RedisKey::set(points, now, self.o.block_ms / 1000 * 1000));
    }

    /// The points counted at `now`, and when (ns from simulated 0) they are gone: `None` for
    /// never.
    fn counted(&self, now: SimTime) -> Option<(u64, Option<u64>)> {
        match self.o.redis {
            true => {
                RedisKey::live(self.key, redis_key::ms(now)).map(|k| (k.value, k.when.map(|w| (w + 1) * NS_PER_MS)))
            }
            false => self.live(Self::clock(now)).map(|r| (r.value, Some(self.gone_at(r)))),
        }
    }
}

crate::sim::limiter::model!(Rlflex);

impl Limiter for Rlflex {
    fn acquire(&mut self, now: SimTime) -> bool {
        let ms = Self::clock(now);
        let (value, ms_before_next, first) = match self.o.redis {
            true => self.redis_upsert(redis_key::ms(now)),
            false => self.memory_upsert(ms),
        };
        let points = self.o.points;
        if value > points {
            let ms_before_next = if self.block > 0.0 && value <= points + 1 {
                match self.o.redis {
                    true => self.redis_block(redis_key::ms(now), value),
                    false => self.record = Some(Record { value, expires_at: ms + self.block }),
                }
                self.block
            } else {
                ms_before_next
            };
            self.last = (ms_before_next, 0);
            return false;
        }
        let mut hold = 0;
        if self.o.exec_evenly && !first && ms_before_next > 0.0 {
            let mut delay = (ms_before_next / ((points - value) as f64 + 2.0)).ceil();
            if delay < self.min_delay {
                delay = value as f64 * self.min_delay;
            }
            hold = delay as u64;
        }
        self.last = (ms_before_next, hold);
        true
    }

    fn consume(&mut self, now: SimTime) {
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        match self.counted(now) {
            None => Status { remaining: self.o.points, reset: Nanos::ZERO, wait: Nanos::ZERO },
            Some((value, gone_at)) => {
                // A Redis key without an expiry is never gone: a wait as long as a run can be.
                let gone = gone_at.map_or(Nanos(u64::MAX / 4), |at| Nanos(at.saturating_sub(now.as_nanos())));
                let remaining = self.o.points.saturating_sub(value);
                Status { remaining, reset: gone, wait: if remaining > 0 { Nanos::ZERO } else { gone } }
            }
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let points = self.counted(now).map_or(0, |c| c.0);
        Gauge { level: points as f64, current: points, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.o.points, window: Nanos::from_millis(self.o.duration_ms) }
    }

    fn admitted_delay(&self) -> Nanos {
        Nanos::from_millis(self.last.1)
    }

    fn may_delay(&self) -> bool {
        self.o.exec_evenly
    }

    /// The library sends no response: these are the exported middleware's, `Retry-After` on a
    /// 429 as its README writes it, `Math.round(msBeforeNext / 1000) || 1`.
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        match d.allowed {
            true => vec![],
            false => vec![("Retry-After", retry_after(self.last.0).to_string())],
        }
    }
}

/// `Math.round(ms / 1000) || 1`: JavaScript rounds halves up.
pub fn retry_after(ms_before_next: f64) -> u64 {
    ((ms_before_next / 1000.0 + 0.5).floor() as u64).max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * NS_PER_MS)
    }

    fn rlflex(points: u64, duration_ms: u64, block_ms: u64, exec_evenly: bool) -> Rlflex {
        Rlflex::new(RlflexOptions { points, duration_ms, block_ms, exec_evenly, redis: false })
    }

    #[test]
    fn the_window_starts_at_the_first_consume_and_counts_refusals() {
        let mut r = rlflex(1, 1_000, 0, false);
        assert!(r.acquire(at_ms(0)));
        assert!(!r.acquire(at_ms(999)));
        // Gone at exactly expiresAt.
        assert!(r.acquire(at_ms(1_000)));
    }

    #[test]
    fn a_block_starts_at_the_first_overflow_and_replaces_the_window() {
        // As the library printed it (points 2, duration 1, blockDuration 3).
        let mut r = rlflex(2, 1_000, 3_000, false);
        assert!(r.acquire(at_ms(0)));
        assert!(r.acquire(at_ms(400)));
        assert!(!r.acquire(at_ms(999)));
        let refused = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
        assert_eq!(r.headers(&refused), [("Retry-After", "3".to_string())]);
        for ms in [1_000, 1_200, 3_998] {
            assert!(!r.acquire(at_ms(ms)), "{ms}");
        }
        assert!(r.acquire(at_ms(3_999)));
    }

    #[test]
    fn in_redis_the_window_is_whole_seconds_and_lives_through_its_last_millisecond() {
        let mut r =
            Rlflex::new(RlflexOptions { points: 1, duration_ms: 2_500, block_ms: 0, exec_evenly: false, redis: true });
        assert!(r.acquire(at_ms(0)));
        // EX floor(2.5) = 2 s: still there at 2 000 ms (PTTL 0), gone at 2 001.
        assert!(!r.acquire(at_ms(2_000)));
        assert!(r.acquire(at_ms(2_001)));
    }

    #[test]
    fn in_redis_a_duration_under_a_second_never_expires() {
        let mut r =
            Rlflex::new(RlflexOptions { points: 2, duration_ms: 500, block_ms: 0, exec_evenly: false, redis: true });
        assert!(r.acquire(at_ms(0)));
        assert!(r.acquire(at_ms(100)));
        assert!(!r.acquire(at_ms(3_600_000)));
        let refused = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
        // msBeforeNext is the PTTL, -1: Math.round(-0.001) || 1.
        assert_eq!(r.headers(&refused), [("Retry-After", "1".to_string())]);
    }

    #[test]
    fn exec_evenly_holds_admitted_consumes_but_not_a_windows_first() {
        // As the library printed it (points 4, duration 1): 0, 250, 334, 500 ms.
        let mut r = rlflex(4, 1_000, 0, true);
        let holds: Vec<u64> = (0..4)
            .map(|_| {
                assert!(r.acquire(at_ms(2_000)));
                r.admitted_delay().as_nanos() / NS_PER_MS
            })
            .collect();
        assert_eq!(holds, [0, 250, 334, 500]);
        assert!(!r.acquire(at_ms(2_000)));
    }
}
