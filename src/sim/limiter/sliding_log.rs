//! The sliding log: exact — fewer than `limit` admitted in the last `window`, at every instant.

use super::state::LimiterState;
use super::{Gauge, Limiter};
use crate::sim::decision::{Quota, Status};
use crate::sim::time::{Nanos, SimTime};
use std::collections::VecDeque;

/// Admits iff fewer than `limit` requests were recorded in `(now − window, now]`.
///
/// Only the newest `limit` timestamps can ever decide, so the log keeps at most `limit` of them:
/// memory is bounded by the quota, not by the traffic.
///
/// ```
/// use ratelimit_playground::sim::{Limiter, Nanos, SimTime, SlidingLog};
/// let mut log = SlidingLog::new(1, Nanos::from_secs(1));
/// assert!(log.acquire(SimTime::from_secs(5)));
/// assert!(!log.acquire(SimTime::from_nanos(5_999_999_999)));
/// assert!(log.acquire(SimTime::from_secs(6))); // the first left the interval (5 s, 6 s]
/// ```
#[derive(Clone, Debug)]
pub struct SlidingLog {
    limit: u64,
    window: u64,
    log: VecDeque<u64>,
}

impl SlidingLog {
    /// `limit` requests per sliding `window` (at least 1 ns).
    pub fn new(limit: u64, window: Nanos) -> Self {
        SlidingLog { limit, window: window.as_nanos().max(1), log: VecDeque::new() }
    }

    /// The timestamps held, oldest first.
    pub fn state(&self) -> LimiterState {
        LimiterState::SlidingLog { log: self.log.iter().copied().collect() }
    }

    /// Puts back a state from [`state`](Self::state) (its newest `limit` timestamps, sorted);
    /// false (and unchanged) for another kind.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        let LimiterState::SlidingLog { log } = s else { return false };
        let mut log = log.clone();
        log.sort_unstable();
        let keep = log.len().min(self.limit as usize);
        self.log = log[log.len() - keep..].iter().copied().collect();
        true
    }

    /// Timestamps still inside `(now − window, now]`: a suffix of the log.
    fn in_window(&self, now: SimTime) -> usize {
        let cutoff = now.as_nanos().saturating_sub(self.window);
        let expired = if now.as_nanos() < self.window { 0 } else { self.log.partition_point(|&t| t <= cutoff) };
        self.log.len() - expired
    }

    fn record(&mut self, now: SimTime) {
        if self.log.len() as u64 >= self.limit {
            self.log.pop_front();
        }
        if self.limit > 0 {
            self.log.push_back(now.as_nanos());
        }
    }
}

impl Limiter for SlidingLog {
    #[inline]
    fn acquire(&mut self, now: SimTime) -> bool {
        // The oldest of the newest `limit` must have left: oldest + window ≤ now.
        let full = self.log.len() as u64 >= self.limit;
        let admit = !full || self.log.front().is_some_and(|&t| t.saturating_add(self.window) <= now.as_nanos());
        if admit {
            self.record(now);
        }
        admit
    }

    fn consume(&mut self, now: SimTime) {
        self.record(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let n = now.as_nanos();
        let count = self.in_window(now) as u64;
        let expiry = |t: Option<&u64>| Nanos(t.map_or(0, |&t| t.saturating_add(self.window).saturating_sub(n)));
        let wait = if count < self.limit { Nanos::ZERO } else { expiry(self.log.front()) };
        Status { remaining: self.limit.saturating_sub(count), reset: expiry(self.log.back()), wait }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let count = self.in_window(now) as u64;
        Gauge { level: count as f64, current: count, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.limit, window: Nanos(self.window) }
    }
}
