//! [`LimiterState`]: a limiter's changing part as plain integers, so it can be kept somewhere else
//! (a real Redis, by the CLI's `redis` runner) and put back into a limiter of the same policy.
//!
//! The policy (capacity, refill, limit, window) is not part of it: both sides know it.

/// The mutable state of one of the five algorithms, in the engine's own units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LimiterState {
    /// Token bucket: the level in fixed-point units ([`crate::sim::rate::TOKEN`] per token) as of
    /// `last` (nanoseconds), the time of the last refill.
    Bucket {
        /// Tokens × `TOKEN`; negative in debt.
        level: i64,
        /// When the level was computed, ns.
        last: u64,
    },
    /// GCRA: the theoretical arrival time, in time × refill units.
    Gcra {
        /// The TAT, scaled.
        tat: i128,
    },
    /// Fixed window: the current window's start (ns) and its count.
    FixedWindow {
        /// Window start, ns.
        start: u64,
        /// Requests counted in it.
        count: u64,
    },
    /// Sliding window counter: the current window's start (ns) and both counts.
    SlidingWindow {
        /// Current window start, ns.
        start: u64,
        /// Requests counted in the current window.
        current: u64,
        /// Requests counted in the window before it.
        previous: u64,
    },
    /// Sliding log: the admitted timestamps it holds (ns, oldest first).
    SlidingLog {
        /// Timestamps, oldest first.
        log: Vec<u64>,
    },
}
