//! [`Rate`]: an exact events-per-second quantity, and the fixed-point scale limiters count in.

use super::time::NANOS_PER_SEC;
use crate::sim::support::decimal::{format_fixed, parse_fixed, DecimalError};
use std::fmt;

/// Milli-units in one unit: rates are exact to 0.001 per second.
pub const MILLI: u64 = 1_000;

/// One token (or one request) in the fixed-point units limiters count in.
///
/// A rate of `m` milli-tokens per second adds exactly `m` units per nanosecond elapsed, because
/// one token is `MILLI * NANOS_PER_SEC` units. Refill is therefore exact integer arithmetic: no
/// drift, no truncation, however the arrivals fall.
pub const TOKEN: u128 = (MILLI as u128) * (NANOS_PER_SEC as u128);

/// A rate in events per second, held exactly as milli-events per second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rate(u64);

impl Rate {
    /// A rate of `milli` thousandths of an event per second.
    pub const fn from_milli(milli: u64) -> Self {
        Rate(milli)
    }

    /// A rate of whole events per second.
    pub const fn per_sec(n: u64) -> Self {
        Rate(n * MILLI)
    }

    /// The nearest representable rate to `r` events per second (negative and NaN give zero).
    pub fn from_per_sec(r: f64) -> Self {
        if r.is_nan() || r <= 0.0 {
            Rate(0)
        } else {
            Rate((r * MILLI as f64).round() as u64)
        }
    }

    /// Parses a decimal like `2.5` (at most three fractional digits).
    pub fn parse(s: &str) -> Result<Self, DecimalError> {
        parse_fixed(s, 3).map(Rate)
    }

    /// Milli-events per second.
    pub const fn milli(self) -> u64 {
        self.0
    }

    /// Events per second, for display and analytic formulas.
    pub fn as_per_sec(self) -> f64 {
        self.0 as f64 / MILLI as f64
    }

    /// Whether the rate is zero.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_fixed(self.0, 3))
    }
}
