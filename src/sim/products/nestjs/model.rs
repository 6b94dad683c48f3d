//! @nestjs/throttler 6.7's `ThrottlerGuard` over its in-memory `ThrottlerStorageService`, one
//! throttler, as `dist/throttler.guard.js` and `dist/throttler.service.js` of the npm package
//! compute it (read from the package):
//!
//! - the clock is `Date.now()`, whole ms (simulated time 0 is [`crate::sim::time::EPOCH_S`]);
//! - each admitted hit is kept as its expiry (`now + ttl`) and dropped once `expiry <= now`: the
//!   count is a sliding log of `ttl` ms;
//! - `blockDuration` defaults to the `ttl` (the guard's `?? ttl`): the hit that takes the count
//!   above `limit` is counted and blocks the key for `blockDuration` ms from then; hits while
//!   blocked are refused and not counted; the first request at or after the block's end clears
//!   every stored hit and is admitted as the first of a fresh count;
//! - a 429 carries only `Retry-After` (whole seconds to the block's end, rounded up); an
//!   admitted request `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset`, the
//!   last from a fixed window of `ttl` re-armed by the first request after it ends;
//! - the storage's minute timer that deletes idle keys changes no answer (a deleted key and an
//!   idle one answer alike), so it is left out.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{round_ms, Policy};
use crate::sim::time::{Nanos, SimTime, EPOCH_S};
use std::collections::VecDeque;

const NS_PER_MS: u64 = 1_000_000;
const EPOCH_MS: i64 = EPOCH_S as i64 * 1000;

/// The exported `ThrottlerModule.forRoot([{ ttl, limit, blockDuration }])`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throttler {
    /// `limit` per `ttl`.
    pub limit: u64,
    /// `ttl`, ms.
    pub ttl_ms: u64,
    /// `blockDuration`, ms; 0 to leave it out (the guard then blocks for the `ttl`).
    pub block_ms: u64,
}

impl Throttler {
    /// What the production panel exports for `p` with the product's keys in `o` (`block`): the
    /// window rounded to the ms (a bucket's policy is counted as a window of its burst).
    pub fn of(p: &Policy, o: &ProductOptions) -> Throttler {
        Throttler { limit: p.limit.max(1), ttl_ms: round_ms(p.window_ns), block_ms: o.get(&super::BLOCK) }
    }

    /// The block the guard applies: `blockDuration ?? ttl`.
    pub fn block(&self) -> u64 {
        if self.block_ms == 0 {
            self.ttl_ms
        } else {
            self.block_ms
        }
    }
}

/// `Math.ceil(ms / 1000)` for a whole number of ms.
fn ceil_s(ms: i64) -> i64 {
    ms.div_euclid(1000) + i64::from(ms.rem_euclid(1000) > 0)
}

/// One key's record in the storage.
#[derive(Clone, Debug)]
pub struct Nest {
    t: Throttler,
    /// The admitted hits' expiries (ms since the epoch), oldest first.
    hits: VecDeque<i64>,
    /// The fixed window behind `X-RateLimit-Reset`; `None` before the first request.
    expires_at: Option<i64>,
    /// The block's end while blocked.
    blocked_until: Option<i64>,
    /// The last answer's `(totalHits, timeToExpire, timeToBlockExpire)`.
    last: (u64, i64, i64),
}

impl Nest {
    /// A key the storage has not seen.
    pub fn new(t: Throttler) -> Self {
        Nest { t, hits: VecDeque::new(), expires_at: None, blocked_until: None, last: (0, 0, 0) }
    }

    /// `Date.now()` at `now`.
    fn clock(now: SimTime) -> i64 {
        EPOCH_MS + (now.as_nanos() / NS_PER_MS) as i64
    }

    /// The simulated instant of `ms`.
    fn at(ms: i64) -> u64 {
        (ms - EPOCH_MS) as u64 * NS_PER_MS
    }

    /// The hits still counted at `ms`.
    fn live(&self, ms: i64) -> usize {
        self.hits.iter().filter(|&&e| e > ms).count()
    }
}

crate::sim::limiter::model!(Nest);

impl Limiter for Nest {
    fn acquire(&mut self, now: SimTime) -> bool {
        let ms = Self::clock(now);
        let ttl = self.t.ttl_ms as i64;
        while self.hits.front().is_some_and(|&e| e <= ms) {
            self.hits.pop_front();
        }
        let mut tte = self.expires_at.map_or(0, |e| ceil_s(e - ms));
        if tte <= 0 {
            self.expires_at = Some(ms + ttl);
            tte = ceil_s(ttl);
        }
        if self.blocked_until.is_none() {
            self.hits.push_back(ms + ttl);
            if self.hits.len() as u64 > self.t.limit {
                self.blocked_until = Some(ms + self.t.block() as i64);
            }
        }
        let tbe = self.blocked_until.map_or(0, |b| ceil_s(b - ms));
        if self.blocked_until.is_some() && tbe <= 0 {
            self.blocked_until = None;
            self.hits.clear();
            self.hits.push_back(ms + ttl);
        }
        self.last = (self.hits.len() as u64, tte, tbe);
        self.blocked_until.is_none()
    }

    fn consume(&mut self, now: SimTime) {
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let ms = Self::clock(now);
        let count = self.live(ms) as u64;
        let remaining = self.t.limit.saturating_sub(count);
        let wait_until = match self.blocked_until {
            Some(b) => b.max(ms),
            // A request now would be the one over: admitted once enough hits have expired.
            None if count >= self.t.limit => {
                let live: Vec<i64> = self.hits.iter().copied().filter(|&e| e > ms).collect();
                live[(count - self.t.limit) as usize]
            }
            None => ms,
        };
        let reset = self.hits.back().filter(|&&e| e > ms).map_or(Nanos::ZERO, |&e| Nanos(Self::at(e) - now.as_nanos()));
        Status { remaining, reset, wait: Nanos(Self::at(wait_until).saturating_sub(now.as_nanos())) }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let count = self.live(Self::clock(now)) as u64;
        Gauge { level: count as f64, current: count, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.t.limit, window: Nanos::from_millis(self.t.ttl_ms) }
    }

    /// The guard's headers (throttler `default`: no name suffix).
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        let (hits, tte, tbe) = self.last;
        match d.allowed {
            false => vec![("Retry-After", tbe.to_string())],
            true => vec![
                ("X-RateLimit-Limit", self.t.limit.to_string()),
                ("X-RateLimit-Remaining", self.t.limit.saturating_sub(hits).to_string()),
                ("X-RateLimit-Reset", tte.to_string()),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * NS_PER_MS)
    }

    /// `(admitted, Retry-After or X-RateLimit-Remaining)` of each request at `times` (ms).
    fn answers(t: Throttler, times: &[u64]) -> Vec<(bool, String)> {
        let mut n = Nest::new(t);
        times
            .iter()
            .map(|&ms| {
                let allowed = n.acquire(at_ms(ms));
                let d = Decision { allowed, remaining: 0, reset: Nanos::ZERO, retry_after: None };
                let h = n.headers(&d);
                (allowed, h[if allowed { 1 } else { 0 }].1.clone())
            })
            .collect()
    }

    #[test]
    fn the_hit_over_blocks_for_the_ttl_by_default_and_the_block_clears_the_count() {
        // As the library printed it: limit 2, ttl 1000 ms, blockDuration left out.
        let t = Throttler { limit: 2, ttl_ms: 1_000, block_ms: 0 };
        let got = answers(t, &[0, 400, 999, 1_000, 1_200, 2_500, 4_100]);
        let want = [(true, "1"), (true, "0"), (false, "1"), (false, "1"), (false, "1"), (true, "1"), (true, "1")];
        assert_eq!(got, want.map(|(a, h)| (a, h.to_string())));
    }

    #[test]
    fn a_longer_block_outlasts_the_ttl() {
        // blockDuration 3000 ms: refused until 3 999, Retry-After rounded up.
        let t = Throttler { limit: 2, ttl_ms: 1_000, block_ms: 3_000 };
        let got = answers(t, &[0, 400, 999, 1_000, 2_500, 4_100]);
        let want = [(true, "1"), (true, "0"), (false, "3"), (false, "3"), (false, "2"), (true, "1")];
        assert_eq!(got, want.map(|(a, h)| (a, h.to_string())));
        let mut n = Nest::new(t);
        for ms in [0, 400, 999] {
            n.acquire(at_ms(ms));
        }
        assert_eq!(n.status(at_ms(1_000)).wait, Nanos::from_millis(2_999));
    }
}
