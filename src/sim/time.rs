//! Simulated time: integer nanoseconds since the start of a run, never a wall clock.
//!
//! [`SimTime`] is an instant, [`Nanos`] a duration. Both are plain `u64` nanoseconds, so every
//! computation on time is exact and identical natively and in WebAssembly.

use std::fmt;
use std::ops::{Add, AddAssign, Sub};

/// Nanoseconds in one second.
pub const NANOS_PER_SEC: u64 = 1_000_000_000;

/// The Unix time, in seconds, that the product models' clocks read at simulated time 0:
/// 2026-01-01T00:00:00Z, a UTC midnight, so windows a product aligns to the epoch (Rack::Attack's
/// periods, Python limits' sliding counter) fall where they would in production.
pub const EPOCH_S: u64 = 1_767_225_600;

/// A duration in simulated nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Nanos(pub u64);

/// An instant: nanoseconds since the simulation started at t = 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SimTime(pub u64);

impl Nanos {
    /// Zero length.
    pub const ZERO: Nanos = Nanos(0);

    /// A duration of `n` nanoseconds.
    pub const fn from_nanos(n: u64) -> Self {
        Nanos(n)
    }

    /// A duration of whole milliseconds.
    pub const fn from_millis(ms: u64) -> Self {
        Nanos(ms * 1_000_000)
    }

    /// A duration of whole seconds.
    pub const fn from_secs(s: u64) -> Self {
        Nanos(s * NANOS_PER_SEC)
    }

    /// The nearest whole nanosecond to `s` seconds (negative and NaN give zero).
    pub fn from_secs_f64(s: f64) -> Self {
        Nanos(secs_to_nanos(s))
    }

    /// The length in nanoseconds.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// The length in seconds, for display.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }

    /// Whole seconds, rounded up: what an HTTP `Retry-After` header carries.
    ///
    /// ```
    /// use ratelimit_playground::sim::Nanos;
    /// assert_eq!(Nanos::from_millis(1).ceil_secs(), 1);
    /// assert_eq!(Nanos::from_secs(2).ceil_secs(), 2);
    /// assert_eq!(Nanos::ZERO.ceil_secs(), 0);
    /// ```
    pub const fn ceil_secs(self) -> u64 {
        self.0.div_ceil(NANOS_PER_SEC)
    }
}

impl SimTime {
    /// The start of every run.
    pub const ZERO: SimTime = SimTime(0);

    /// The instant `n` nanoseconds after the start.
    pub const fn from_nanos(n: u64) -> Self {
        SimTime(n)
    }

    /// The instant `s` whole seconds after the start.
    pub const fn from_secs(s: u64) -> Self {
        SimTime(s * NANOS_PER_SEC)
    }

    /// The nearest whole nanosecond to `s` seconds after the start (negative and NaN give zero).
    pub fn from_secs_f64(s: f64) -> Self {
        SimTime(secs_to_nanos(s))
    }

    /// Nanoseconds since the start.
    pub const fn as_nanos(self) -> u64 {
        self.0
    }

    /// Seconds since the start, for display.
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / NANOS_PER_SEC as f64
    }

    /// The time from `earlier` to `self`, zero if `earlier` is later.
    pub const fn since(self, earlier: SimTime) -> Nanos {
        Nanos(self.0.saturating_sub(earlier.0))
    }
}

fn secs_to_nanos(s: f64) -> u64 {
    if s.is_nan() || s <= 0.0 {
        0
    } else {
        // `as` saturates at u64::MAX for huge values.
        (s * NANOS_PER_SEC as f64).round() as u64
    }
}

impl Add<Nanos> for SimTime {
    type Output = SimTime;
    fn add(self, d: Nanos) -> SimTime {
        SimTime(self.0.saturating_add(d.0))
    }
}

impl AddAssign<Nanos> for SimTime {
    fn add_assign(&mut self, d: Nanos) {
        self.0 = self.0.saturating_add(d.0);
    }
}

impl Sub<SimTime> for SimTime {
    type Output = Nanos;
    fn sub(self, earlier: SimTime) -> Nanos {
        self.since(earlier)
    }
}

impl Add for Nanos {
    type Output = Nanos;
    fn add(self, o: Nanos) -> Nanos {
        Nanos(self.0.saturating_add(o.0))
    }
}

impl fmt::Display for SimTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} s", crate::sim::support::decimal::format_f64(self.as_secs_f64(), 3))
    }
}

impl fmt::Display for Nanos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ms", crate::sim::support::decimal::format_f64(self.0 as f64 / 1e6, 3))
    }
}
