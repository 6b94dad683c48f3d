//! express-rate-limit 8 with its default MemoryStore, as `source/memory-store.ts` and
//! `source/rate-limit.ts` of express-rate-limit 8.7.4 compute it (read from the npm package):
//!
//! - time is `Date.now()`: whole milliseconds;
//! - a client's window starts at its first hit, not at a clock boundary: `resetTime = now +
//!   windowMs`, and a hit at `now ≥ resetTime` starts a new one (`resetTime <= now`);
//! - every hit increments `totalHits`, refused ones too, and a hit is refused when
//!   `totalHits > limit`;
//! - `Retry-After` is `ceil((resetTime − now) / 1000)` seconds.
//!
//! The store's `clearExpired` timer only forgets clients whose window is already over, so it
//! changes no decision.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::{round_ms, Policy};
use crate::sim::time::{Nanos, SimTime};

const NS_PER_MS: u64 = 1_000_000;

/// The exported `rateLimit({ windowMs, limit })`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpressOptions {
    /// `windowMs`.
    pub window_ms: u64,
    /// `limit`.
    pub limit: u64,
}

impl ExpressOptions {
    /// What the production panel exports for `p`: the window in whole milliseconds.
    pub fn of(p: &Policy) -> ExpressOptions {
        ExpressOptions { window_ms: round_ms(p.window_ns), limit: p.limit }
    }
}

/// One client's entry in the MemoryStore.
#[derive(Clone, Debug)]
pub struct Express {
    window_ms: u64,
    limit: u64,
    /// `resetTime` (ms) and `totalHits`, once the client has been seen.
    client: Option<(u64, u64)>,
}

impl Express {
    /// A store that has not seen the client.
    pub fn new(o: &ExpressOptions) -> Self {
        Express { window_ms: o.window_ms.max(1), limit: o.limit, client: None }
    }

    /// `(resetTime, totalHits)` as `increment` leaves them for a hit at `now_ms`.
    fn hit(&self, now_ms: u64) -> (u64, u64) {
        match self.client {
            Some((reset, hits)) if reset > now_ms => (reset, hits + 1),
            _ => (now_ms + self.window_ms, 1),
        }
    }

    /// The hits counted in the window still open at `now_ms`.
    fn hits_at(&self, now_ms: u64) -> u64 {
        self.client.filter(|&(reset, _)| reset > now_ms).map_or(0, |(_, hits)| hits)
    }
}

crate::sim::limiter::model!(Express);

impl Limiter for Express {
    fn acquire(&mut self, now: SimTime) -> bool {
        let (reset, hits) = self.hit(now.as_nanos() / NS_PER_MS);
        self.client = Some((reset, hits));
        hits <= self.limit
    }

    fn consume(&mut self, now: SimTime) {
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let now_ms = now.as_nanos() / NS_PER_MS;
        let hits = self.hits_at(now_ms);
        let reset = self
            .client
            .filter(|_| hits > 0)
            .map_or(Nanos::ZERO, |(r, _)| Nanos((r * NS_PER_MS).saturating_sub(now.as_nanos())));
        let remaining = self.limit.saturating_sub(hits);
        Status { remaining, reset, wait: if remaining > 0 { Nanos::ZERO } else { reset } }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let hits = self.hits_at(now.as_nanos() / NS_PER_MS);
        Gauge { level: hits as f64, current: hits, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.limit, window: Nanos::from_millis(self.window_ms) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * NS_PER_MS)
    }

    #[test]
    fn the_window_starts_at_the_clients_first_hit() {
        let mut e = Express::new(&ExpressOptions { window_ms: 1_000, limit: 2 });
        assert!(e.acquire(at_ms(700)));
        assert!(e.acquire(at_ms(1_200)));
        assert!(!e.acquire(at_ms(1_699)));
        // A clock-aligned window would have reset at 1 000 ms; this one resets at 1 700 ms.
        assert!(e.acquire(at_ms(1_700)));
    }

    #[test]
    fn refused_hits_count_but_do_not_extend_the_window() {
        let mut e = Express::new(&ExpressOptions { window_ms: 100, limit: 1 });
        assert!(e.acquire(at_ms(0)));
        assert!(!e.acquire(at_ms(50)));
        assert_eq!(e.status(at_ms(50)).wait, Nanos::from_millis(50));
        assert!(e.acquire(at_ms(100)));
    }
}
