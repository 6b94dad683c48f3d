//! [`WindowPeak`]: the most requests admitted in any interval of one window's length — how the
//! fixed window's 2 × limit at the seam is caught the moment it happens — and how that interval
//! splits at the window boundary inside it ([`Seam`]): the two fixed windows it spans.

use super::time::{Nanos, SimTime};
use std::collections::VecDeque;

/// Tracks admissions in a sliding interval `(t − window, t]` and the largest count seen.
///
/// Memory is bounded by what the limiter itself lets through in one window (at most
/// 2 × limit for a fixed window), not by the traffic offered.
///
/// ```
/// use ratelimit_playground::sim::peak::WindowPeak;
/// use ratelimit_playground::sim::{Nanos, SimTime};
/// let mut p = WindowPeak::new(Nanos::from_secs(10));
/// for t in [1, 2, 9, 11, 12] { p.admitted(SimTime::from_secs(t)); }
/// // (−1 s, 9 s] holds 1, 2, 9; (1 s, 11 s] holds 2, 9, 11; (2 s, 12 s] holds 9, 11, 12.
/// assert_eq!(p.peak(), 3);
/// assert_eq!(p.peak_at(), SimTime::from_secs(9));
/// ```
#[derive(Clone, Debug)]
pub struct WindowPeak {
    window: u64,
    times: VecDeque<u64>,
    peak: u64,
    peak_at: SimTime,
    /// Of the peak interval's admissions, those at or after the boundary inside it.
    peak_after: u64,
}

/// The peak interval `(t − window, t]` cut at the one window boundary `b` inside it (boundaries
/// at whole multiples of the window from t = 0, where a fixed window's windows start): the
/// admissions of the window ending at `b`, and of the one starting there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seam {
    /// The boundary.
    pub boundary: SimTime,
    /// Admitted in the interval before the boundary (the end of the earlier window).
    pub before: u64,
    /// Admitted from the boundary on (the start of the later window).
    pub after: u64,
}

impl WindowPeak {
    /// A tracker over intervals of length `window` (at least 1 ns).
    pub fn new(window: Nanos) -> Self {
        let window = window.as_nanos().max(1);
        WindowPeak { window, times: VecDeque::new(), peak: 0, peak_at: SimTime::ZERO, peak_after: 0 }
    }

    /// Records an admission at `t` (times in non-decreasing order).
    #[inline]
    pub fn admitted(&mut self, t: SimTime) {
        let t = t.as_nanos();
        while self.times.front().is_some_and(|&s| s.saturating_add(self.window) <= t) {
            self.times.pop_front();
        }
        self.times.push_back(t);
        if self.times.len() as u64 > self.peak {
            self.peak = self.times.len() as u64;
            self.peak_at = SimTime(t);
            let boundary = t - t % self.window;
            self.peak_after = (self.times.len() - self.times.partition_point(|&s| s < boundary)) as u64;
        }
    }

    /// The most admissions seen in any interval `(t − window, t]`.
    pub fn peak(&self) -> u64 {
        self.peak
    }

    /// The end of the first interval that held [`peak`](Self::peak) admissions.
    pub fn peak_at(&self) -> SimTime {
        self.peak_at
    }

    /// The peak interval cut at the window boundary inside it.
    ///
    /// ```
    /// use ratelimit_playground::sim::peak::{Seam, WindowPeak};
    /// use ratelimit_playground::sim::{Nanos, SimTime};
    /// let mut p = WindowPeak::new(Nanos::from_secs(10));
    /// for t in [1, 8, 9, 11, 12, 25] { p.admitted(SimTime::from_secs(t)); }
    /// // (2 s, 12 s] holds 8, 9 | 11, 12: two before the boundary at 10 s, two after.
    /// assert_eq!(p.seam(), Seam { boundary: SimTime::from_secs(10), before: 2, after: 2 });
    /// ```
    pub fn seam(&self) -> Seam {
        let t = self.peak_at.as_nanos();
        Seam { boundary: SimTime(t - t % self.window), before: self.peak - self.peak_after, after: self.peak_after }
    }
}
