//! [`Policy`]: what a scenario's limiter allows, in the terms every target is configured in.

use crate::sim::algorithm::Algorithm;

/// The kind of limiter the policy is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Token bucket or GCRA: a burst of `burst`, refilled continuously at `rate_milli`/1000 per s.
    Bucket,
    /// A counter per fixed window.
    FixedWindow,
    /// The weighted two-window counter.
    SlidingWindow,
    /// An exact log of the last window.
    SlidingLog,
}

impl Shape {
    /// The shape of a textbook algorithm.
    pub fn of(algo: Algorithm) -> Shape {
        match algo {
            Algorithm::FixedWindow => Shape::FixedWindow,
            Algorithm::SlidingWindow => Shape::SlidingWindow,
            Algorithm::SlidingLog => Shape::SlidingLog,
            _ => Shape::Bucket,
        }
    }

    /// The textbook algorithm of this shape (GCRA's shape is the token bucket's).
    pub fn algorithm(self) -> Algorithm {
        match self {
            Shape::Bucket => Algorithm::TokenBucket,
            Shape::FixedWindow => Algorithm::FixedWindow,
            Shape::SlidingWindow => Algorithm::SlidingWindow,
            Shape::SlidingLog => Algorithm::SlidingLog,
        }
    }
}

/// A limiter policy: burst and sustained rate, and the window form of the same quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// The kind of limiter.
    pub shape: Shape,
    /// Most requests admitted at once from idle: the bucket's capacity, or the window's limit.
    pub burst: u64,
    /// Sustained rate in milli-requests per second (exact).
    pub rate_milli: u64,
    /// Requests per window (window algorithms; for a bucket, its capacity).
    pub limit: u64,
    /// Window length in nanoseconds (for a bucket, the time to refill from empty).
    pub window_ns: u64,
}

impl Policy {
    /// Whether the sustained rate is a window's quota rounded to 0.001/s rather than exact.
    pub fn rate_is_rounded(&self) -> bool {
        self.shape != Shape::Bucket
            && (u128::from(self.limit) * 1_000_000_000_000) % u128::from(self.window_ns.max(1)) != 0
    }

    /// The sustained rate per second, for prose.
    pub fn per_sec(&self) -> String {
        crate::sim::support::decimal::format_fixed(self.rate_milli, 3)
    }
}

/// Whole milliseconds of `ns`, rounded to the nearest and at least 1: how the exports write a
/// window (`windowMs`, an Upstash duration, the Lua scripts' window argument).
pub fn round_ms(ns: u64) -> u64 {
    (ns.saturating_add(500_000) / 1_000_000).max(1)
}

/// A duration in nanoseconds as the shortest exact decimal number of seconds ("0.4", "2").
pub(crate) fn secs(ns: u64) -> String {
    crate::sim::support::decimal::format_fixed(ns, 9)
}

/// Greatest common divisor.
pub(crate) fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// The period among `periods` (whole seconds) nearest `p`'s window in ratio, with the limit per
/// that period that keeps the policy's long-run rate (rounded, at least 1): for the products
/// whose windows come in fixed sizes (Kong's second … day, Cloudflare's counting periods). A
/// window that is one of them keeps its limit exactly: 100 per 60 s is 100 per minute.
pub fn nearest_period(p: &Policy, periods: &[u64]) -> (u64, u64) {
    let window = p.window_ns.max(1);
    let ratio = |s: u64| {
        let (a, b) = (s as f64 * 1e9, window as f64);
        if a > b {
            a / b
        } else {
            b / a
        }
    };
    let period = periods.iter().copied().min_by(|&a, &b| ratio(a).total_cmp(&ratio(b))).unwrap_or(1);
    let scaled = u128::from(p.limit) * u128::from(period) * 1_000_000_000;
    let limit = ((scaled + u128::from(window) / 2) / u128::from(window)).max(1) as u64;
    (period, limit)
}
