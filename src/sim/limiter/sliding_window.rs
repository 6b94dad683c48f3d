//! The sliding window counter: the current window plus a linearly decaying share of the last one.

use super::state::LimiterState;
use super::{Gauge, Limiter};
use crate::sim::decision::{Quota, Status};
use crate::sim::time::{Nanos, SimTime};

/// Estimates the requests in the last `window` as
/// `previous × (1 − elapsed / window) + current` (windows aligned to t = 0) and admits iff
/// `estimate + 1 ≤ limit`.
///
/// The comparison is done exactly, multiplied through by `window`:
/// `previous × (window − elapsed) + (current + 1) × window ≤ limit × window`.
///
/// ```
/// use ratelimit_playground::sim::{Limiter, Nanos, SimTime, SlidingWindow};
/// // Limit 50/min, 42 in the last minute, 17 so far this minute, 15 s in:
/// // 42 × 45/60 + 17 + 1 = 49.5 ≤ 50, so the request is admitted.
/// let mut w = SlidingWindow::with_counts(50, Nanos::from_secs(60), SimTime::from_secs(60), 42, 17);
/// assert!(w.acquire(SimTime::from_secs(75)));
/// // Now 18 this minute: 31.5 + 18 + 1 = 50.5 > 50, rejected.
/// assert!(!w.acquire(SimTime::from_secs(75)));
/// ```
#[derive(Clone, Debug)]
pub struct SlidingWindow {
    limit: u64,
    window: u64,
    start: u64,
    current: u64,
    previous: u64,
}

/// The counters as they stand at some instant: `(window start, current, previous)`.
type Counts = (u64, u64, u64);

impl SlidingWindow {
    /// `limit` requests per sliding `window` (at least 1 ns).
    pub fn new(limit: u64, window: Nanos) -> Self {
        SlidingWindow { limit, window: window.as_nanos().max(1), start: 0, current: 0, previous: 0 }
    }

    /// The current window's start and both counts.
    pub fn state(&self) -> LimiterState {
        LimiterState::SlidingWindow { start: self.start, current: self.current, previous: self.previous }
    }

    /// Puts back a state from [`state`](Self::state); false (and unchanged) for another kind.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        let &LimiterState::SlidingWindow { start, current, previous } = s else { return false };
        (self.start, self.current, self.previous) = (start - start % self.window, current, previous);
        true
    }

    /// A limiter whose window starting at `start` already holds `current` requests, after a
    /// window that held `previous`. For worked examples and tests.
    pub fn with_counts(limit: u64, window: Nanos, start: SimTime, previous: u64, current: u64) -> Self {
        let w = window.as_nanos().max(1);
        let start = start.as_nanos() - start.as_nanos() % w;
        SlidingWindow { limit, window: w, start, current, previous }
    }

    fn counts_at(&self, now: SimTime) -> Counts {
        let now = now.as_nanos();
        if now < self.start + self.window {
            (self.start, self.current, self.previous)
        } else {
            let start = now - now % self.window;
            let previous = if start == self.start + self.window { self.current } else { 0 };
            (start, 0, previous)
        }
    }

    #[inline]
    fn roll(&mut self, now: SimTime) {
        if now.as_nanos() >= self.start + self.window {
            (self.start, self.current, self.previous) = self.counts_at(now);
        }
    }

    /// `estimate × window` for counts `(start, current, previous)` at `now`, exact.
    fn weighted(&self, (start, current, previous): Counts, now: u64) -> u128 {
        let elapsed = now.saturating_sub(start).min(self.window);
        u128::from(previous) * u128::from(self.window - elapsed) + u128::from(current) * u128::from(self.window)
    }

    fn admits(&self, counts: Counts, now: u64) -> bool {
        self.weighted(counts, now) + u128::from(self.window) <= u128::from(self.limit) * u128::from(self.window)
    }

    /// The earliest elapsed time into a window with `previous` and `current` counts at which one
    /// more request fits, if any does before the window ends.
    fn earliest_in_window(&self, previous: u64, current: u64) -> Option<u64> {
        let w = u128::from(self.window);
        let room = u128::from(self.limit).checked_sub(u128::from(current) + 1)? * w;
        if previous == 0 {
            return Some(0);
        }
        // previous × (w − e) ≤ room  ⟺  e ≥ w − floor(room / previous)
        let e = w.saturating_sub(room / u128::from(previous));
        (e < w).then_some(e as u64)
    }

    /// The estimate at `now`, fractional: what the chart shows.
    pub fn estimate(&self, now: SimTime) -> f64 {
        self.weighted(self.counts_at(now), now.as_nanos()) as f64 / self.window as f64
    }
}

impl Limiter for SlidingWindow {
    #[inline]
    fn acquire(&mut self, now: SimTime) -> bool {
        self.roll(now);
        let counts = (self.start, self.current, self.previous);
        if self.admits(counts, now.as_nanos()) {
            self.current += 1;
            true
        } else {
            false
        }
    }

    fn consume(&mut self, now: SimTime) {
        self.roll(now);
        self.current += 1;
    }

    fn status(&self, now: SimTime) -> Status {
        let counts @ (start, current, previous) = self.counts_at(now);
        let n = now.as_nanos();
        let w = u128::from(self.window);
        let used = self.weighted(counts, n);
        let remaining = (u128::from(self.limit) * w).saturating_sub(used) / w;
        let end = start + self.window;
        let elapsed = n.saturating_sub(start);
        let wait = match self.earliest_in_window(previous, current) {
            Some(e) => e.saturating_sub(elapsed),
            // Next window: previous becomes `current`, current 0; if even that is too much,
            // the window after it starts empty.
            None => (end - n) + self.earliest_in_window(current, 0).unwrap_or(self.window),
        };
        // The estimate reaches zero once the current window's requests have decayed away.
        let reset = if current > 0 {
            end + self.window - n
        } else if previous > 0 {
            end - n
        } else {
            0
        };
        Status { remaining: u64::try_from(remaining).unwrap_or(u64::MAX), reset: Nanos(reset), wait: Nanos(wait) }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let (_, current, previous) = self.counts_at(now);
        Gauge { level: self.estimate(now), current, previous }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.limit, window: Nanos(self.window) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn worked_example_450_per_minute_has_82_left() {
        // Limit 450/min, 400 last minute, 100 this minute, 20 s in: estimate ≈ 366.7 → allowed.
        let mut w = SlidingWindow::with_counts(450, Nanos::from_secs(60), SimTime::from_secs(60), 400, 100);
        let now = SimTime::from_secs(80);
        assert!((w.estimate(now) - 366.666_666).abs() < 1e-3);
        let d = w.decide(now);
        assert!(d.allowed);
        assert_eq!(d.remaining, 82);
    }

    #[test]
    fn worked_example_50_per_minute_admits_at_49_5_and_rejects_at_50_5() {
        let mut w = SlidingWindow::with_counts(50, Nanos::from_secs(60), SimTime::from_secs(60), 42, 17);
        assert!(w.acquire(SimTime::from_secs(75)));
        assert!(!w.acquire(SimTime::from_secs(75)));
    }

    #[test]
    fn retry_after_is_the_first_instant_the_decayed_estimate_fits() {
        let mut w = SlidingWindow::with_counts(10, Nanos::from_secs(10), SimTime::from_secs(10), 10, 0);
        // At 10 s: 10 × 1 + 0 + 1 > 10. Needs previous weight ≤ 0.9: elapsed ≥ 1 s.
        let d = w.decide(SimTime::from_secs(10));
        assert!(!d.allowed);
        assert_eq!(d.retry_after, Some(Nanos::from_secs(1)));
        assert!(!w.acquire(SimTime::from_nanos(10_999_999_999)));
        assert!(w.acquire(SimTime::from_secs(11)));
    }

    #[test]
    fn a_full_current_window_waits_into_the_next_one() {
        let mut w = SlidingWindow::new(4, Nanos::from_secs(4));
        for _ in 0..4 {
            assert!(w.acquire(SimTime::ZERO));
        }
        let d = w.decide(SimTime::ZERO);
        // Next window starts at 4 s with previous = 4: needs 4 × (4 − e)/4 + 1 ≤ 4 → e ≥ 1 s.
        assert_eq!(d.retry_after, Some(Nanos::from_secs(5)));
        assert!(!w.acquire(SimTime::from_nanos(4_999_999_999)));
        assert!(w.acquire(SimTime::from_secs(5)));
    }
}
