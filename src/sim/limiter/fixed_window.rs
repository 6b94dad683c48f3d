//! The fixed window counter: at most `limit` requests per window, windows aligned to t = 0.

use super::state::LimiterState;
use super::{Gauge, Limiter};
use crate::sim::decision::{Quota, Status};
use crate::sim::time::{Nanos, SimTime};

/// Counts requests in `[k·window, (k+1)·window)` and admits iff `count + 1 ≤ limit`.
///
/// Cheap and easy to explain, and it admits up to `2 × limit` in one window's length across a
/// boundary (the "seam").
///
/// ```
/// use ratelimit_playground::sim::{FixedWindow, Limiter, Nanos, SimTime};
/// let mut w = FixedWindow::new(1, Nanos::from_secs(1));
/// assert!(w.acquire(SimTime::from_nanos(999_999_999)));
/// assert!(w.acquire(SimTime::from_secs(1))); // a new window: two requests 1 ns apart
/// ```
#[derive(Clone, Debug)]
pub struct FixedWindow {
    limit: u64,
    window: u64,
    start: u64,
    count: u64,
}

impl FixedWindow {
    /// `limit` requests per `window` (which must be at least 1 ns).
    pub fn new(limit: u64, window: Nanos) -> Self {
        FixedWindow { limit, window: window.as_nanos().max(1), start: 0, count: 0 }
    }

    /// The current window's start and count.
    pub fn state(&self) -> LimiterState {
        LimiterState::FixedWindow { start: self.start, count: self.count }
    }

    /// Puts back a state from [`state`](Self::state); false (and unchanged) for another kind.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        let &LimiterState::FixedWindow { start, count } = s else { return false };
        (self.start, self.count) = (start - start % self.window, count);
        true
    }

    #[inline]
    fn roll(&mut self, now: SimTime) {
        let now = now.as_nanos();
        if now >= self.start + self.window {
            self.start = now - now % self.window;
            self.count = 0;
        }
    }

    /// The count the window holding `now` has, without changing anything.
    fn count_at(&self, now: SimTime) -> (u64, u64) {
        let now = now.as_nanos();
        if now >= self.start + self.window {
            (now - now % self.window, 0)
        } else {
            (self.start, self.count)
        }
    }
}

impl Limiter for FixedWindow {
    #[inline]
    fn acquire(&mut self, now: SimTime) -> bool {
        self.roll(now);
        if self.count < self.limit {
            self.count += 1;
            true
        } else {
            false
        }
    }

    fn consume(&mut self, now: SimTime) {
        self.roll(now);
        self.count += 1;
    }

    fn status(&self, now: SimTime) -> Status {
        let (start, count) = self.count_at(now);
        let reset = Nanos((start + self.window).saturating_sub(now.as_nanos()));
        Status {
            remaining: self.limit.saturating_sub(count),
            reset,
            wait: if count < self.limit { Nanos::ZERO } else { reset },
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let (_, count) = self.count_at(now);
        Gauge { level: count as f64, current: count, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.limit, window: Nanos(self.window) }
    }
}
