//! The limiting algorithms, one file each, behind one trait: [`Limiter`].
//!
//! Every limiter is *given* the time (`now`), never reads a clock, and counts in exact integers.

mod fixed_window;
mod gcra;
mod sliding_log;
mod sliding_window;
mod state;
mod token_bucket;

pub use fixed_window::FixedWindow;
pub use gcra::Gcra;
pub use sliding_log::SlidingLog;
pub use sliding_window::SlidingWindow;
pub use state::LimiterState;
pub use token_bucket::TokenBucket;

use super::decision::{Decision, Quota, Status, Verdict};
use super::time::SimTime;

/// A rate-limiting algorithm's state machine.
///
/// Times passed in are expected in non-decreasing order; an earlier time is tolerated (treated as
/// "no time has passed") and never panics.
pub trait Limiter {
    /// Admits the request arriving at `now` if the quota allows, and records it. The hot path.
    fn acquire(&mut self, now: SimTime) -> bool;

    /// Records one unit of use at `now` without checking: a rejected request that still counts,
    /// or an increment another node already admitted. Buckets may go into debt.
    fn consume(&mut self, now: SimTime);

    /// The state as seen from outside at `now`.
    fn status(&self, now: SimTime) -> Status;

    /// The internal state at `now` for charts: tokens, window counters, the weighted estimate.
    fn gauge(&self, now: SimTime) -> Gauge;

    /// The quota, for the `RateLimit-Policy` header.
    fn quota(&self) -> Quota;

    /// The time until a request would be admitted at `now` (zero if one would be now).
    fn wait(&self, now: SimTime) -> super::time::Nanos {
        self.status(now).wait
    }

    /// Decides one request: [`acquire`](Limiter::acquire), then the full [`Decision`].
    fn decide(&mut self, now: SimTime) -> Decision {
        let allowed = self.acquire(now);
        Decision::new(allowed, self.status(now))
    }

    /// Decides one request, computing only what the engine needs: the hot path of a run.
    #[inline]
    fn check(&mut self, now: SimTime) -> Verdict {
        let allowed = self.acquire(now);
        Verdict { allowed, retry_after: (!allowed).then(|| self.wait(now)) }
    }
}

/// A limiter's inner state at one instant, for drawing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Gauge {
    /// The headline level: tokens in the bucket, requests in the window, or the weighted estimate.
    pub level: f64,
    /// Requests counted in the current window (windows and log), else 0.
    pub current: u64,
    /// Requests counted in the previous window (sliding window counter), else 0.
    pub previous: u64,
}

/// Any of the five algorithms, dispatched statically, plus whether rejected requests count.
#[derive(Clone, Debug)]
pub struct AnyLimiter {
    kind: Kind,
    count_rejected: bool,
}

#[derive(Clone, Debug)]
enum Kind {
    TokenBucket(TokenBucket),
    FixedWindow(FixedWindow),
    SlidingWindow(SlidingWindow),
    SlidingLog(SlidingLog),
    Gcra(Gcra),
}

macro_rules! dispatch {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            Kind::TokenBucket($l) => $e,
            Kind::FixedWindow($l) => $e,
            Kind::SlidingWindow($l) => $e,
            Kind::SlidingLog($l) => $e,
            Kind::Gcra($l) => $e,
        }
    };
}

impl AnyLimiter {
    /// Wraps a token bucket.
    pub fn token_bucket(l: TokenBucket) -> Self {
        Self::of(Kind::TokenBucket(l))
    }
    /// Wraps a fixed window.
    pub fn fixed_window(l: FixedWindow) -> Self {
        Self::of(Kind::FixedWindow(l))
    }
    /// Wraps a sliding window counter.
    pub fn sliding_window(l: SlidingWindow) -> Self {
        Self::of(Kind::SlidingWindow(l))
    }
    /// Wraps a sliding log.
    pub fn sliding_log(l: SlidingLog) -> Self {
        Self::of(Kind::SlidingLog(l))
    }
    /// Wraps a GCRA limiter.
    pub fn gcra(l: Gcra) -> Self {
        Self::of(Kind::Gcra(l))
    }

    fn of(kind: Kind) -> Self {
        AnyLimiter { kind, count_rejected: false }
    }

    /// The changing part of the state (not the policy), to keep elsewhere.
    pub fn state(&self) -> LimiterState {
        dispatch!(&self.kind, l => l.state())
    }

    /// Puts back a state taken from a limiter of the same algorithm; false (and unchanged) for
    /// another algorithm's state.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        dispatch!(&mut self.kind, l => l.restore(s))
    }

    /// Makes rejected requests consume quota too (as an `INCR`-first Redis limiter does).
    pub fn counting_rejected(mut self, yes: bool) -> Self {
        self.count_rejected = yes;
        self
    }
}

impl Limiter for AnyLimiter {
    #[inline(always)]
    fn acquire(&mut self, now: SimTime) -> bool {
        let allowed = dispatch!(&mut self.kind, l => l.acquire(now));
        if !allowed && self.count_rejected {
            self.consume(now);
        }
        allowed
    }
    fn consume(&mut self, now: SimTime) {
        dispatch!(&mut self.kind, l => l.consume(now))
    }
    fn status(&self, now: SimTime) -> Status {
        dispatch!(&self.kind, l => l.status(now))
    }
    fn wait(&self, now: SimTime) -> super::time::Nanos {
        dispatch!(&self.kind, l => l.wait(now))
    }
    fn gauge(&self, now: SimTime) -> Gauge {
        dispatch!(&self.kind, l => l.gauge(now))
    }
    fn quota(&self) -> Quota {
        dispatch!(&self.kind, l => l.quota())
    }
}

/// `ceil(a / b)` for a positive divisor, saturating into `u64` nanoseconds.
#[inline]
pub(crate) fn div_ceil_nanos(a: u128, b: u128) -> super::time::Nanos {
    if let (Ok(a), Ok(b)) = (u64::try_from(a), u64::try_from(b)) {
        // 64-bit division is several times faster than 128-bit: the usual case.
        return super::time::Nanos(if b == 0 { u64::MAX } else { a.div_ceil(b) });
    }
    let q = if b == 0 { u128::from(u64::MAX) } else { a.div_ceil(b) };
    super::time::Nanos(u64::try_from(q).unwrap_or(u64::MAX))
}
