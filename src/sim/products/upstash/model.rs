//! Upstash Ratelimit 2 (`@upstash/ratelimit` 2.2.0, single region), as its scripts and its
//! `limit()` compute, read from the npm package (`dist/index.js`: `fixedWindow`,
//! `slidingWindow`, `tokenBucket` and the `Cache` behind `ephemeralCache`):
//!
//! - time is `Date.now()`, whole milliseconds; windows are aligned to multiples of the window
//!   (`bucket = floor(now / window)`), one Redis key per window;
//! - `fixedWindow`: `INCRBY` first, refused when the count is above the limit (refused requests
//!   count);
//! - `slidingWindow`: `previous × (1 − (now mod window) / window)`, floored, plus the current
//!   count; refused when that is at least the limit, else the current count is incremented;
//! - `tokenBucket`: `refillRate` tokens every `interval`, in whole intervals since the last
//!   refill, up to `maxTokens`; a new bucket starts full. The key expires (`PEXPIRE`) when the
//!   bucket would be full again, and a bucket made after that starts its interval grid at its
//!   own first request;
//! - the ephemeral cache, on by default: after a refusal, the identifier is refused in memory,
//!   without asking Redis, until `reset` — inclusive, so a request at exactly `reset` is still
//!   refused.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::{gcd, round_ms, Policy, Shape};
use crate::sim::time::{Nanos, SimTime};

const NS_PER_MS: u64 = 1_000_000;

/// The exported limiter: `Ratelimit.fixedWindow(…)`, `slidingWindow(…)` or `tokenBucket(…)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpstashLimiter {
    /// `fixedWindow(tokens, window)`.
    Fixed {
        /// Requests per window.
        tokens: u64,
        /// The window, ms.
        window_ms: u64,
    },
    /// `slidingWindow(tokens, window)`.
    Sliding {
        /// Requests per window.
        tokens: u64,
        /// The window, ms.
        window_ms: u64,
    },
    /// `tokenBucket(refillRate, interval, maxTokens)`.
    Token {
        /// Tokens added per interval.
        refill_rate: u64,
        /// The interval, ms.
        interval_ms: u64,
        /// The bucket's size and starting level.
        max_tokens: u64,
    },
}

impl UpstashLimiter {
    /// What the production panel exports for `p`: a bucket as the fewest whole tokens per whole
    /// millisecond interval; a window in whole milliseconds; a sliding log as the sliding window.
    pub fn of(p: &Policy) -> UpstashLimiter {
        match p.shape {
            Shape::Bucket => {
                let milli = p.rate_milli.max(1);
                let (refill_rate, interval_ms) = if milli.is_multiple_of(1_000) {
                    (milli / 1_000, 1_000)
                } else {
                    // rate_milli / 1e6 tokens per ms = (rate_milli / g) tokens per (1e6 / g) ms.
                    let g = gcd(milli, 1_000_000);
                    (milli / g, 1_000_000 / g)
                };
                UpstashLimiter::Token { refill_rate, interval_ms, max_tokens: p.burst }
            }
            Shape::FixedWindow => UpstashLimiter::Fixed { tokens: p.limit, window_ms: round_ms(p.window_ns) },
            Shape::SlidingWindow | Shape::SlidingLog => {
                UpstashLimiter::Sliding { tokens: p.limit, window_ms: round_ms(p.window_ns) }
            }
        }
    }

    /// A duration as the export writes it: `"10 s"` for whole seconds, else `"1500 ms"`.
    pub fn duration(ms: u64) -> String {
        if ms.is_multiple_of(1_000) {
            format!("{} s", ms / 1_000)
        } else {
            format!("{ms} ms")
        }
    }
}

/// The sliding window script's share of the previous window at `now` ms:
/// `math.floor((1 - (now % window) / window) * previous)`, in `double`s as Lua computes it.
fn weighted(now: u64, window_ms: u64, previous: u64) -> u64 {
    let in_current = (now % window_ms) as f64 / window_ms as f64;
    ((1.0 - in_current) * previous as f64).floor() as u64
}

/// What Redis holds for one identifier.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Stored {
    /// The counts of the newest two windows seen, `(bucket, count)`, newest first.
    Windows([(u64, u64); 2]),
    /// `refilledAt` (ms), `tokens` and the last instant (ms) the key exists, once it does.
    Bucket(Option<(u64, u64, u64)>),
}

/// One identifier under Upstash Ratelimit, with its ephemeral cache entry.
#[derive(Clone, Debug)]
pub struct Upstash {
    limiter: UpstashLimiter,
    stored: Stored,
    /// The ephemeral cache: refused without asking Redis while `now ≤` this (ms).
    blocked_until: Option<u64>,
}

/// The answer of one `limit()`: success and `reset` (ms).
type Answer = (bool, u64);

impl Upstash {
    /// An identifier Redis has no key for yet.
    pub fn new(limiter: &UpstashLimiter) -> Self {
        let stored = match limiter {
            UpstashLimiter::Token { .. } => Stored::Bucket(None),
            _ => Stored::Windows([(u64::MAX, 0); 2]),
        };
        Upstash { limiter: *limiter, stored, blocked_until: None }
    }

    fn count(&self, bucket: u64) -> u64 {
        match &self.stored {
            Stored::Windows(w) => w.iter().find(|(b, _)| *b == bucket).map_or(0, |&(_, c)| c),
            Stored::Bucket(_) => 0,
        }
    }

    fn set_count(&mut self, bucket: u64, count: u64) {
        if let Stored::Windows(w) = &mut self.stored {
            if w[0].0 == bucket {
                w[0].1 = count;
            } else if w[1].0 == bucket {
                w[1].1 = count;
            } else if w[0].0 == u64::MAX || bucket > w[0].0 {
                w[1] = w[0];
                w[0] = (bucket, count);
            } else {
                w[1] = (bucket, count);
            }
        }
    }

    /// The bucket script's refill: `(refilledAt, tokens)` at `now`.
    fn refilled(&self, now: u64) -> (u64, u64) {
        let UpstashLimiter::Token { refill_rate, interval_ms, max_tokens } = self.limiter else { return (now, 0) };
        let Stored::Bucket(Some((mut at, mut tokens, until))) = self.stored else { return (now, max_tokens) };
        if now > until {
            return (now, max_tokens); // the key expired: a new bucket
        }
        if now >= at + interval_ms {
            let refills = (now - at) / interval_ms;
            tokens = max_tokens.min(tokens.saturating_add(refills.saturating_mul(refill_rate)));
            at += refills * interval_ms;
        }
        (at, tokens)
    }

    /// One `ratelimit.limit(identifier)` at `now` ms; `record` false asks without changing anything.
    fn limit(&mut self, now: u64, record: bool) -> Answer {
        if let Some(until) = self.blocked_until {
            if until >= now {
                return (false, until); // the cache answers: Redis is not asked
            }
            if record {
                self.blocked_until = None;
            }
        }
        let (success, reset) = match self.limiter {
            UpstashLimiter::Fixed { tokens, window_ms } => {
                let bucket = now / window_ms;
                let used = self.count(bucket) + 1;
                if record {
                    self.set_count(bucket, used);
                }
                (used <= tokens, (bucket + 1) * window_ms)
            }
            UpstashLimiter::Sliding { tokens, window_ms } => {
                let bucket = now / window_ms;
                let current = self.count(bucket);
                let previous = bucket.checked_sub(1).map_or(0, |b| self.count(b));
                let weighted = weighted(now, window_ms, previous);
                let success = weighted + current < tokens;
                if success && record {
                    self.set_count(bucket, current + 1);
                }
                (success, (bucket + 1) * window_ms)
            }
            UpstashLimiter::Token { interval_ms, refill_rate, max_tokens } => {
                let (at, tokens) = self.refilled(now);
                if tokens == 0 {
                    (false, at + interval_ms)
                } else {
                    if record {
                        // PEXPIRE ceil((maxTokens − remaining) / refillRate) × interval: gone after that.
                        let expire = (max_tokens - (tokens - 1)).div_ceil(refill_rate.max(1)) * interval_ms;
                        self.stored = Stored::Bucket(Some((at, tokens - 1, now + expire)));
                    }
                    (true, at + interval_ms)
                }
            }
        };
        if !success && record {
            self.blocked_until = Some(reset);
        }
        (success, reset)
    }

    /// Requests `limit()` would admit back to back at `now` ms, the cache not blocking.
    fn room(&self, now: u64) -> u64 {
        match self.limiter {
            UpstashLimiter::Fixed { tokens, window_ms } => tokens.saturating_sub(self.count(now / window_ms)),
            UpstashLimiter::Sliding { tokens, window_ms } => {
                let bucket = now / window_ms;
                let previous = bucket.checked_sub(1).map_or(0, |b| self.count(b));
                tokens.saturating_sub(weighted(now, window_ms, previous) + self.count(bucket))
            }
            UpstashLimiter::Token { .. } => self.refilled(now).1,
        }
    }

    fn window(&self) -> u64 {
        match self.limiter {
            UpstashLimiter::Fixed { window_ms, .. } | UpstashLimiter::Sliding { window_ms, .. } => window_ms,
            UpstashLimiter::Token { interval_ms, .. } => interval_ms,
        }
    }
}

crate::sim::limiter::model!(Upstash);

impl Limiter for Upstash {
    fn acquire(&mut self, now: SimTime) -> bool {
        self.limit(now.as_nanos() / NS_PER_MS, true).0
    }

    fn consume(&mut self, now: SimTime) {
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let ms = now.as_nanos() / NS_PER_MS;
        let mut probe = self.clone();
        let (admits, reset) = probe.limit(ms, false);
        let remaining = if !admits { 0 } else { self.room(ms) };
        let until_reset = Nanos(((reset + 1) * NS_PER_MS).saturating_sub(now.as_nanos()));
        let wait = if remaining > 0 {
            Nanos::ZERO
        } else {
            // The first millisecond, up to two windows on, at which limit() would succeed.
            let to = ms + self.window().saturating_mul(2).max(1) + 1;
            crate::sim::products::probe::first(ms, to, |t| probe.clone().limit(t, false).0)
                .map_or(until_reset, |t| Nanos((t * NS_PER_MS).saturating_sub(now.as_nanos())))
        };
        Status { remaining, reset: until_reset, wait }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let ms = now.as_nanos() / NS_PER_MS;
        match self.limiter {
            UpstashLimiter::Token { .. } => Gauge { level: self.refilled(ms).1 as f64, current: 0, previous: 0 },
            UpstashLimiter::Fixed { window_ms, .. } => {
                let c = self.count(ms / window_ms);
                Gauge { level: c as f64, current: c, previous: 0 }
            }
            UpstashLimiter::Sliding { window_ms, .. } => {
                let bucket = ms / window_ms;
                let (c, p) = (self.count(bucket), bucket.checked_sub(1).map_or(0, |b| self.count(b)));
                Gauge { level: (weighted(ms, window_ms, p) + c) as f64, current: c, previous: p }
            }
        }
    }

    fn quota(&self) -> Quota {
        match self.limiter {
            UpstashLimiter::Fixed { tokens, window_ms } | UpstashLimiter::Sliding { tokens, window_ms } => {
                Quota { limit: tokens, window: Nanos::from_millis(window_ms) }
            }
            UpstashLimiter::Token { refill_rate, interval_ms, max_tokens } => Quota {
                limit: max_tokens,
                window: Nanos::from_millis(max_tokens.div_ceil(refill_rate.max(1)) * interval_ms),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * NS_PER_MS)
    }

    #[test]
    fn the_ephemeral_cache_still_refuses_at_the_reset_millisecond() {
        let mut u = Upstash::new(&UpstashLimiter::Fixed { tokens: 1, window_ms: 1_000 });
        assert!(u.acquire(at_ms(10)));
        assert!(!u.acquire(at_ms(20)));
        // A new window starts at 1 000 ms, but the cache blocks until 1 000 inclusive.
        assert!(!u.acquire(at_ms(1_000)));
        assert!(u.acquire(at_ms(1_001)));
    }

    #[test]
    fn the_sliding_window_floors_the_weighted_previous_count() {
        let mut u = Upstash::new(&UpstashLimiter::Sliding { tokens: 3, window_ms: 1_000 });
        assert_eq!((0..5).filter(|_| u.acquire(at_ms(100))).count(), 3);
        // (Refused at 100 ms: the cache blocks until 1 000 ms inclusive.)
        // At 1 500 ms: floor(0.5 × 3) = 1 from the previous window, so two more pass.
        assert_eq!((0..5).filter(|_| u.acquire(at_ms(1_500))).count(), 2);
    }

    #[test]
    fn the_token_bucket_refills_whole_intervals_only() {
        let mut u = Upstash::new(&UpstashLimiter::Token { refill_rate: 2, interval_ms: 1_000, max_tokens: 2 });
        assert!(u.acquire(at_ms(0)) && u.acquire(at_ms(0)));
        assert!(!u.acquire(at_ms(999)));
        assert!(u.acquire(at_ms(1_001)) && u.acquire(at_ms(1_001)));
    }

    #[test]
    fn a_bucket_whose_key_expired_starts_its_refill_grid_at_its_next_request() {
        let mut u = Upstash::new(&UpstashLimiter::Token { refill_rate: 1, interval_ms: 1_000, max_tokens: 1 });
        assert!(u.acquire(at_ms(0)));
        // Full again at 1 000 ms, so the key expires after 1 000 ms: a new bucket at 1 500 ms...
        assert!(u.acquire(at_ms(1_500)));
        // ... whose next refill is at 2 500 ms, not at 2 000 ms as the old grid would have it.
        assert!(!u.acquire(at_ms(2_400)));
        assert!(!u.acquire(at_ms(2_500)), "the ephemeral cache blocks the reset millisecond too");
        assert!(u.acquire(at_ms(2_501)));
    }

    #[test]
    fn the_wait_of_a_day_long_sliding_window_lands_on_its_first_admitting_millisecond() {
        let mut u = Upstash::new(&UpstashLimiter::Sliding { tokens: 10, window_ms: 86_400_000 });
        assert_eq!((0..11).filter(|_| u.acquire(at_ms(5))).count(), 10);
        let wait = u.status(at_ms(5)).wait;
        let at = SimTime(at_ms(5).as_nanos() + wait.as_nanos());
        assert!(!u.clone().acquire(SimTime(at.as_nanos() - NS_PER_MS)), "one ms earlier is refused");
        assert!(u.acquire(at), "{wait:?}");
    }

    #[test]
    fn exported_buckets_are_whole_tokens_per_whole_milliseconds() {
        let p = |rate_milli| Policy { shape: Shape::Bucket, burst: 4, rate_milli, limit: 4, window_ns: 1 };
        assert_eq!(
            UpstashLimiter::of(&p(2_500)),
            UpstashLimiter::Token { refill_rate: 1, interval_ms: 400, max_tokens: 4 }
        );
        assert_eq!(UpstashLimiter::duration(1_500), "1500 ms");
        assert_eq!(UpstashLimiter::duration(60_000), "60 s");
    }
}
