//! Python's `limits` 5.8 with its `MemoryStorage` — the engine under Flask-Limiter and SlowAPI —
//! as `limits/strategies.py`, `limits/storage/memory.py` and `limits/storage/base.py` of the
//! PyPI package compute it (read from the wheel):
//!
//! - time is `time.time()`: float seconds since the epoch. Simulated time 0 is a UTC midnight
//!   ([`EPOCH_S`]), so the epoch-aligned windows of the sliding-window counter fall where they
//!   would in production, and every sum below is the same `double` Python computes;
//! - the item is `RateLimitItemPerSecond(limit, window)`: `amount` and `expiry` whole seconds;
//! - **fixed window** (`FixedWindowRateLimiter.hit` → `incr`): one counter per key, which
//!   expires `expiry` seconds after the hit that created it (`get` forgets it once
//!   `expiration <= now`); every hit increments it, refused ones too, and a hit is admitted when
//!   the count is `<= amount`. So the window starts at the client's first hit, not on the clock;
//! - **moving window** (`acquire_entry`): a list of hit times, newest first; a hit is refused
//!   when the `amount`-th newest is `>= now − expiry`, and only admitted hits are recorded;
//! - **sliding-window counter** (`acquire_sliding_window_entry`): counters keyed by
//!   `int(now / expiry)`, so windows are aligned to the epoch; the previous window weighs
//!   `count × ttl / expiry` with `ttl = (1 − ((now − expiry) / expiry) % 1) × expiry`, a hit is
//!   refused when `floor(weighted) + 1 > amount`, and an admitted one increments the current
//!   counter (made to expire `2 × expiry` after its first hit), then checks again and takes the
//!   increment back if `floor(weighted) > amount`.
//!
//! With `storage=redis` the fixed window and the sliding-window counter count in Redis instead
//! ([`super::redis`]).
//!
//! The storage's timer thread, which every 10 ms of real time drops hit times past their
//! expiry, is left out: it can change a decision only when a hit time is exactly `expiry` old at
//! the instant the timer runs, which depends on the thread's timing, not on the requests.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{Policy, Shape};
use crate::sim::products::redis_key;
use crate::sim::time::{Nanos, SimTime};
use std::collections::VecDeque;

use super::redis::RedisCounts;

pub use crate::sim::time::EPOCH_S;

/// `time.time()` at `now`, simulated 0 being the Unix second `origin_s`: the seconds added as
/// Python adds them.
pub fn time_at(origin_s: u64, now: SimTime) -> f64 {
    origin_s as f64 + now.as_nanos() as f64 / 1e9
}

/// The exported `RateLimitItemPerSecond(amount, expiry)` and strategy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitsItem {
    /// The strategy: [`Shape::FixedWindow`] (`fixed-window`), [`Shape::SlidingLog`]
    /// (`moving-window`) or [`Shape::SlidingWindow`] (`sliding-window-counter`).
    pub strategy: Shape,
    /// `amount`: hits allowed per window.
    pub amount: u64,
    /// `multiples`: the window in whole seconds.
    pub expiry: u64,
    /// Counted in a `RedisStorage` (`storage=redis`), not a `MemoryStorage`.
    pub redis: bool,
}

impl LimitsItem {
    /// What the production panel exports for `p` with the product's keys in `o`: the window in
    /// whole seconds, rounded to the nearest and at least 1 (a bucket's policy is counted as a
    /// fixed window).
    pub fn of(p: &Policy, o: &ProductOptions) -> LimitsItem {
        let strategy = match p.shape {
            Shape::SlidingLog | Shape::SlidingWindow => p.shape,
            _ => Shape::FixedWindow,
        };
        LimitsItem {
            strategy,
            amount: p.limit,
            expiry: (p.window_ns.saturating_add(500_000_000) / 1_000_000_000).max(1),
            redis: o.get(&crate::sim::products::key::STORAGE) == 1,
        }
    }

    /// The strategy's name in Flask-Limiter's `RATELIMIT_STRATEGY` and `limits.strategies.STRATEGIES`.
    pub fn strategy_name(&self) -> &'static str {
        match self.strategy {
            Shape::SlidingLog => "moving-window",
            Shape::SlidingWindow => "sliding-window-counter",
            _ => "fixed-window",
        }
    }
}

/// What the storage holds for one key.
#[derive(Clone, Debug)]
enum Store {
    /// The fixed window's counter and its expiration time.
    Fixed { count: u64, expires: f64 },
    /// The moving window's admitted hit times, newest first (only the newest `amount` matter).
    Moving(VecDeque<f64>),
    /// The sliding-window counter's counters: `(int(now / expiry), count, expiration)`, the
    /// current window's and the one before it.
    Sliding(Vec<(i64, u64, f64)>),
    /// The fixed window's or the sliding counter's keys in a `RedisStorage`.
    Redis(RedisCounts),
}

/// One client's key in a `MemoryStorage`, under one strategy.
#[derive(Clone, Debug)]
pub struct PythonLimits {
    item: LimitsItem,
    store: Store,
    /// The Unix second of simulated 0 ([`EPOCH_S`]; a log's first midnight in shadow mode).
    origin_s: u64,
}

impl PythonLimits {
    /// A storage that has not seen the client.
    pub fn new(item: LimitsItem) -> Self {
        let store = match item.strategy {
            Shape::SlidingLog => Store::Moving(VecDeque::new()),
            _ if item.redis => Store::Redis(RedisCounts::default()),
            Shape::SlidingWindow => Store::Sliding(Vec::new()),
            _ => Store::Fixed { count: 0, expires: 0.0 },
        };
        PythonLimits { item: LimitsItem { amount: item.amount.max(1), ..item }, store, origin_s: EPOCH_S }
    }

    /// `(count, expiration)` of the sliding window `index` as `MemoryStorage.get` reads it at `t`.
    fn sliding_get(windows: &[(i64, u64, f64)], index: i64, t: f64) -> u64 {
        windows.iter().find(|w| w.0 == index && w.2 > t).map_or(0, |w| w.1)
    }

    /// The sliding-window counter's `(previous_count, previous_ttl, current_count)` at `t`.
    fn sliding_info(&self, windows: &[(i64, u64, f64)], t: f64) -> (u64, f64, u64) {
        let e = self.item.expiry as f64;
        let (previous, current) = (((t - e) / e) as i64, (t / e) as i64);
        let previous_count = Self::sliding_get(windows, previous, t);
        let previous_ttl = if previous_count == 0 { 0.0 } else { (1.0 - ((t - e) / e) % 1.0) * e };
        (previous_count, previous_ttl, Self::sliding_get(windows, current, t))
    }

    /// `previous_count * previous_ttl / expiry + current_count`, as Python evaluates it.
    fn weighted(&self, previous_count: u64, previous_ttl: f64, current_count: u64) -> f64 {
        previous_count as f64 * previous_ttl / self.item.expiry as f64 + current_count as f64
    }

    /// Whether a hit at `now` would be admitted, without recording it.
    fn admits(&self, now: SimTime) -> bool {
        let (t, e, amount) = (time_at(self.origin_s, now), self.item.expiry as f64, self.item.amount);
        match &self.store {
            Store::Fixed { count, expires } => (if *expires <= t { 0 } else { *count }) < amount,
            Store::Moving(hits) => hits.get(amount as usize - 1).is_none_or(|&oldest| oldest < t - e),
            Store::Sliding(windows) => {
                let (pc, pttl, cc) = self.sliding_info(windows, t);
                (self.weighted(pc, pttl, cc).floor() as u64) < amount
                    && self.weighted(pc, pttl, cc + 1).floor() as u64 <= amount
            }
            Store::Redis(_) => (self.used(now) as u64) < amount,
        }
    }

    /// The hits the key counts against the limit at `now`: the fixed window's counter, the
    /// moving window's hits younger than `expiry`, or the sliding counter's weighted estimate.
    fn used(&self, now: SimTime) -> f64 {
        let (t, e) = (time_at(self.origin_s, now), self.item.expiry as f64);
        match &self.store {
            Store::Fixed { count, expires } => (if *expires <= t { 0 } else { *count }) as f64,
            Store::Moving(hits) => hits.iter().take_while(|&&h| h >= t - e).count() as f64,
            Store::Sliding(windows) => {
                let (pc, pttl, cc) = self.sliding_info(windows, t);
                self.weighted(pc, pttl, cc)
            }
            Store::Redis(keys) => match self.item.strategy {
                Shape::SlidingWindow => keys.sliding_weighted(redis_key::ms(now), self.item.expiry * 1_000) as f64,
                _ => keys.fixed_count(redis_key::ms(now)) as f64,
            },
        }
    }
}

crate::sim::limiter::model!(PythonLimits);

impl Limiter for PythonLimits {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = time_at(self.origin_s, now);
        let (e, amount) = (self.item.expiry as f64, self.item.amount);
        let admitted = self.admits(now);
        match &mut self.store {
            Store::Fixed { count, expires } => {
                if *expires <= t {
                    *count = 0;
                }
                *count += 1;
                if *count == 1 {
                    *expires = t + e;
                }
                *count <= amount
            }
            Store::Moving(hits) => {
                if admitted {
                    hits.push_front(t);
                    hits.truncate(amount as usize);
                }
                admitted
            }
            Store::Sliding(windows) => {
                if admitted {
                    let current = (t / e) as i64;
                    windows.retain(|w| w.0 >= current - 1 && w.2 > t);
                    match windows.iter_mut().find(|w| w.0 == current) {
                        Some(w) => w.1 += 1,
                        None => windows.push((current, 1, t + 2.0 * e)),
                    }
                }
                admitted
            }
            Store::Redis(keys) => {
                let (ms, expiry_ms) = (redis_key::ms(now), self.item.expiry * 1_000);
                match self.item.strategy {
                    Shape::SlidingWindow => keys.sliding_hit(ms, expiry_ms, amount),
                    _ => keys.fixed_hit(ms, expiry_ms) <= amount,
                }
            }
        }
    }

    fn consume(&mut self, now: SimTime) {
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let used = self.used(now).floor() as u64;
        let remaining = self.item.amount.saturating_sub(used);
        let wait = if self.admits(now) { Nanos::ZERO } else { self.next_admission(now) };
        let reset = if used == 0 { Nanos::ZERO } else { Nanos::from_secs(self.item.expiry) };
        Status { remaining, reset, wait }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let used = self.used(now);
        Gauge { level: used, current: used.floor() as u64, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.item.amount, window: Nanos::from_secs(self.item.expiry) }
    }

    /// `time.time()` on the log's own days: simulated 0 is its first midnight, `origin_s`.
    fn for_sender(&mut self, _key: &str, origin_s: u64) {
        self.origin_s = origin_s;
    }
}

impl PythonLimits {
    /// The time from `now` to the first nanosecond at which a hit would be admitted, the key
    /// left alone: found by binary search, since the float clock has no closed form for it.
    fn next_admission(&self, now: SimTime) -> Nanos {
        let from = now.as_nanos();
        let to = from + 2 * self.item.expiry * 1_000_000_000 + 1_000_000_000;
        let at = crate::sim::products::probe::first(from, to, |ns| self.admits(SimTime(ns))).unwrap_or(to);
        Nanos(at - from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(strategy: Shape, amount: u64, expiry: u64) -> PythonLimits {
        PythonLimits::new(LimitsItem { strategy, amount, expiry, redis: false })
    }

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn the_fixed_window_starts_at_the_first_hit_and_counts_refused_hits() {
        let mut l = limits(Shape::FixedWindow, 2, 1);
        assert!(l.acquire(at_ms(700)));
        assert!(l.acquire(at_ms(1_200)));
        assert!(!l.acquire(at_ms(1_300)));
        assert!(!l.acquire(at_ms(1_699)));
        // Expires one second after the first hit, not at a clock second.
        assert!(l.acquire(at_ms(1_700)));
        assert_eq!(l.status(at_ms(1_700)).remaining, 1);
    }

    #[test]
    fn the_moving_window_does_not_record_refusals() {
        let mut l = limits(Shape::SlidingLog, 2, 1);
        assert!(l.acquire(at_ms(0)));
        assert!(l.acquire(at_ms(500)));
        assert!(!l.acquire(at_ms(900)));
        // The hit at 0 is exactly one second old at 1 000: still in the window (>=).
        assert!(!l.acquire(at_ms(1_000)));
        assert!(l.acquire(at_ms(1_001)));
        // Admitted again once the hit at 500 ms is more than a second old, to the float clock's
        // grain (a quarter of a microsecond at today's epoch seconds).
        let wait = l.status(at_ms(1_001)).wait;
        assert!(wait > Nanos::from_millis(499) && wait <= Nanos::from_millis(499) + Nanos(1_000), "{wait:?}");
    }

    #[test]
    fn the_sliding_counter_weighs_the_previous_epoch_aligned_window() {
        let mut l = limits(Shape::SlidingWindow, 4, 10);
        for s in 0..4 {
            assert!(l.acquire(at_ms(1_000 * s)), "hit {s}");
        }
        assert!(!l.acquire(at_ms(9_000)));
        // 2.5 s into the next window, 75 % of the previous 4 still weigh: floor(3.0) + 1 = 4.
        assert!(l.acquire(at_ms(12_500)));
        assert!(!l.acquire(at_ms(12_500)));
        // 0.1 s later the previous window weighs 2.96: floor(3.96) + 1 = 4 again.
        assert!(l.acquire(at_ms(12_600)));
    }
}
