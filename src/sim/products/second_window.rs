//! [`SecondWindow`]: a count per fixed window of whole seconds on a whole-second clock, windows
//! aligned to simulated time 0 (a UTC midnight, so to the Unix epoch and the calendar's days) or,
//! for periods that do not divide a day, to the Unix epoch itself ([`SecondWindow::unix`]): what
//! Kong's local policy, envoyproxy/ratelimit and Rack::Attack keep, which differ only in what they
//! count and when they refuse.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::Gauge;
use crate::sim::products::policy::{nearest_period, Policy};
use crate::sim::time::{Nanos, EPOCH_S};

const SEC: u64 = 1_000_000_000;

/// The calendar periods both take, by their configuration names, with their lengths in seconds
/// (Kong's month and year and the service's week, month and year left out).
pub const PERIODS: [(&str, u64); 4] = [("second", 1), ("minute", 60), ("hour", 3_600), ("day", 86_400)];

/// A limit per calendar period, as the production panel exports it: Kong's `minute: 100`,
/// envoyproxy/ratelimit's `unit: minute, requests_per_unit: 100`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeriodLimit {
    /// The period's length, seconds (one of [`PERIODS`]).
    pub period_s: u64,
    /// Requests per period.
    pub limit: u64,
}

impl PeriodLimit {
    /// The period nearest the policy's window, with the limit that keeps its rate.
    pub fn of(p: &Policy) -> PeriodLimit {
        let (period_s, limit) = nearest_period(p, &PERIODS.map(|(_, s)| s));
        PeriodLimit { period_s, limit }
    }

    /// The period's name in the configuration: `minute`.
    pub fn name(&self) -> &'static str {
        PERIODS.iter().find(|(_, s)| *s == self.period_s).map_or("second", |(n, _)| n)
    }
}

/// One key's count in the current window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SecondWindow {
    /// The window's length, whole seconds.
    pub period_s: u64,
    /// The clock's reading at simulated time 0, s: windows are aligned to its zero.
    origin_s: u64,
    /// The current window's start (s on that clock) and its count; `u64::MAX` before the first
    /// request.
    window: (u64, u64),
}

impl SecondWindow {
    /// A key with no count yet.
    pub fn new(period_s: u64) -> Self {
        SecondWindow { period_s: period_s.max(1), origin_s: 0, window: (u64::MAX, 0) }
    }

    /// A key with no count yet, on the Unix clock (simulated 0 is [`EPOCH_S`]): windows of any
    /// length start at multiples of it since 1970, as `Time.now.to_i / period` puts them.
    pub fn unix(period_s: u64) -> Self {
        Self::unix_from(period_s, EPOCH_S)
    }

    /// [`SecondWindow::unix`] with simulated 0 at the Unix second `origin_s` (shadow mode's log).
    pub fn unix_from(period_s: u64, origin_s: u64) -> Self {
        SecondWindow { origin_s, ..Self::new(period_s) }
    }

    /// A key whose window starting at `start` (s) holds `count`: a store's counter, to read.
    pub fn holding(period_s: u64, start: u64, count: u64) -> Self {
        SecondWindow { period_s: period_s.max(1), origin_s: 0, window: (start, count) }
    }

    /// The clock's reading at `t` (ns): whole seconds.
    fn clock(&self, t: u64) -> u64 {
        t / SEC + self.origin_s
    }

    /// The count at `t` (ns) and the start of its window (s on the window's clock).
    pub fn count_at(&self, t: u64) -> (u64, u64) {
        let start = self.clock(t) / self.period_s * self.period_s;
        (if self.window.0 == start { self.window.1 } else { 0 }, start)
    }

    /// Counts one request at `t` (ns).
    pub fn add(&mut self, t: u64) {
        let (count, start) = self.count_at(t);
        self.window = (start, count + 1);
    }

    /// Whole seconds from `t` to the end of its window, at least 1 (`reset`).
    pub fn reset_s(&self, t: u64) -> u64 {
        let start = self.count_at(t).1;
        self.period_s.saturating_sub(self.clock(t) - start).max(1)
    }

    /// The status under `limit`: what is left of it, the window's end, and the wait until a
    /// request is admitted once it is used up.
    pub fn status(&self, limit: u64, t: u64) -> Status {
        let (count, start) = self.count_at(t);
        let end = (start + self.period_s - self.origin_s) * SEC;
        let remaining = limit.saturating_sub(count);
        Status { remaining, reset: Nanos(end - t), wait: Nanos(if remaining > 0 { 0 } else { end - t }) }
    }

    /// The count as the state chart draws it.
    pub fn gauge(&self, t: u64) -> Gauge {
        let count = self.count_at(t).0;
        Gauge { level: count as f64, current: count, previous: 0 }
    }

    /// The quota `limit` per window.
    pub fn quota(&self, limit: u64) -> Quota {
        Quota { limit, window: Nanos(self.period_s * SEC) }
    }
}
