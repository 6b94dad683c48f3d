//! [`PassHistory`]: the cumulative pass ratio since t = 0, for the steady-state chart, in bounded
//! memory. Points are kept at least `every` apart; when the buffer is full every other point is
//! dropped and `every` doubles, so any run length fits in [`MAX_POINTS`] while the curve keeps
//! its shape from the first second on.

use crate::sim::{Nanos, SimTime};

/// Most points kept.
pub const MAX_POINTS: usize = 512;

/// Cumulative `(instant, admitted, decided)` points from the start of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct PassHistory {
    every: u64,
    points: Vec<(SimTime, u64, u64)>,
    latest: Option<(SimTime, u64, u64)>,
}

impl Default for PassHistory {
    fn default() -> Self {
        PassHistory::new(Nanos::from_millis(50))
    }
}

impl PassHistory {
    /// An empty history keeping points at least `every` apart at first.
    pub fn new(every: Nanos) -> Self {
        PassHistory { every: every.as_nanos().max(1), points: Vec::new(), latest: None }
    }

    /// Records the totals at `at` (instants in non-decreasing order). The newest point is always
    /// kept, so the curve ends at the present.
    ///
    /// ```
    /// use ratelimit_playground::chart::history::PassHistory;
    /// use ratelimit_playground::sim::{Nanos, SimTime};
    /// let mut h = PassHistory::new(Nanos::from_secs(1));
    /// for ms in (0..=3_000).step_by(100) { h.record(SimTime::from_nanos(ms * 1_000_000), ms, ms * 2 + 1); }
    /// let times: Vec<f64> = h.points().map(|(t, _)| t).collect();
    /// assert_eq!(times, vec![0.0, 1.0, 2.0, 3.0]);
    /// ```
    pub fn record(&mut self, at: SimTime, admitted: u64, decided: u64) {
        let due = self.points.last().is_none_or(|(t, ..)| at.as_nanos() >= t.as_nanos().saturating_add(self.every));
        if due {
            self.points.push((at, admitted, decided));
            self.latest = None;
            if self.points.len() > MAX_POINTS {
                let mut i = 0;
                self.points.retain(|_| {
                    i += 1;
                    i % 2 == 1
                });
                self.every = self.every.saturating_mul(2);
            }
        } else {
            self.latest = Some((at, admitted, decided));
        }
    }

    /// `(seconds, pass ratio)` in time order, leaving out instants before any decision.
    pub fn points(&self) -> impl Iterator<Item = (f64, f64)> + '_ {
        self.points
            .iter()
            .chain(self.latest.iter())
            .filter(|(_, _, decided)| *decided > 0)
            .map(|(t, admitted, decided)| (t.as_secs_f64(), *admitted as f64 / *decided as f64))
    }

    /// The latest instant recorded.
    pub fn end(&self) -> SimTime {
        self.latest.or(self.points.last().copied()).map_or(SimTime::ZERO, |(t, ..)| t)
    }

    /// How many points are held (bounded by [`MAX_POINTS`] + 1).
    pub fn len(&self) -> usize {
        self.points.len() + usize::from(self.latest.is_some())
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_of_frames_stays_bounded_and_starts_at_zero() {
        let mut h = PassHistory::new(Nanos::from_millis(50));
        for frame in 0..216_000u64 {
            h.record(SimTime::from_nanos(frame * 16_666_667), frame, frame + 1);
        }
        assert!(h.len() <= MAX_POINTS + 1, "{}", h.len());
        assert_eq!(h.points().next().map(|(t, _)| t), Some(0.0));
        assert!(h.end().as_secs_f64() > 3_599.0);
    }
}
