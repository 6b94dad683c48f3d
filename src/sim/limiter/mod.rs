//! The limiting algorithms, one file each, behind one trait: [`Limiter`].
//!
//! Every limiter is *given* the time (`now`), never reads a clock, and counts in exact integers.

mod fixed_window;
mod gcra;
mod leaky_queue;
mod sliding_log;
mod sliding_window;
mod state;
mod token_bucket;

pub use fixed_window::FixedWindow;
pub use gcra::Gcra;
pub use leaky_queue::LeakyQueue;
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

    /// How long the request just admitted is held before it is served: nginx without `nodelay`
    /// delays rather than refuses. Zero for every other limiter.
    fn admitted_delay(&self) -> super::time::Nanos {
        super::time::Nanos::ZERO
    }

    /// The HTTP status of a rejection: 429, or the product's own (nginx answers 503 without
    /// `limit_req_status`).
    fn reject_status(&self) -> u16 {
        429
    }

    /// The headers an answer carries: the IETF `RateLimit` headers and `Retry-After` (as the
    /// playground sends them for a textbook algorithm, and for a library that leaves headers to
    /// your code), or what the product sets itself.
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        d.headers(self.quota())
    }

    /// Whether this limiter may ever hold an admitted request ([`Limiter::admitted_delay`] above
    /// zero): nginx without `nodelay`. The engine then keeps each request's added latency.
    fn may_delay(&self) -> bool {
        false
    }

    /// Tells a fresh limiter where its requests come from in a log (shadow mode does): the
    /// client's `key`, as the log names it, and `origin_s`, the Unix second simulated 0 stands
    /// for (the UTC midnight before the log's first request; [`crate::sim::time::EPOCH_S`]
    /// elsewhere). For the products whose windows depend on them: django-ratelimit shifts them by
    /// the key's `crc32`, and Rack::Attack, django-ratelimit and Python limits' sliding-window
    /// counter align them to the Unix clock, which for a period that does not divide a day falls
    /// differently on each day. Nothing for the rest.
    fn for_sender(&mut self, _key: &str, _origin_s: u64) {}

    /// Decides one request: [`acquire`](Limiter::acquire), then the full [`Decision`].
    fn decide(&mut self, now: SimTime) -> Decision {
        let allowed = self.acquire(now);
        Decision::new(allowed, self.status(now))
    }

    /// Decides one request, computing only what the engine needs: the hot path of a run.
    #[inline]
    fn check(&mut self, now: SimTime) -> Verdict {
        let allowed = self.acquire(now);
        let delay = if allowed { self.admitted_delay() } else { super::time::Nanos::ZERO };
        Verdict::held(allowed, (!allowed).then(|| self.wait(now)), delay)
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
    /// A product model, behind a pointer: kept small (every store operation clones or moves an
    /// `AnyLimiter`, and a larger one slowed the cluster runs by 8 %, `make bench`), and called
    /// through its vtable, so a module that never builds one carries none of their code
    /// ([`crate::sim::products::models`]).
    Product(Box<dyn Model>),
}

/// A product model as the engine keeps it: the [`Limiter`] calls the engine makes, behind a
/// pointer that can be cloned. Only these are in a model's vtable: with `Limiter` as its
/// supertrait, every provided method (`decide`, `check`) would be compiled once more per product;
/// with `Debug`, each product's derived `Debug` would be kept, and with their `f64` fields core's
/// float printing, in each module with the models (see docs/size.md).
pub trait Model: Send + Sync {
    /// [`Limiter::acquire`].
    fn acquire(&mut self, now: SimTime) -> bool;
    /// [`Limiter::consume`].
    fn consume(&mut self, now: SimTime);
    /// [`Limiter::status`].
    fn status(&self, now: SimTime) -> Status;
    /// [`Limiter::wait`].
    fn wait(&self, now: SimTime) -> super::time::Nanos;
    /// [`Limiter::gauge`].
    fn gauge(&self, now: SimTime) -> Gauge;
    /// [`Limiter::quota`].
    fn quota(&self) -> Quota;
    /// [`Limiter::admitted_delay`].
    fn admitted_delay(&self) -> super::time::Nanos;
    /// [`Limiter::may_delay`].
    fn may_delay(&self) -> bool;
    /// [`Limiter::reject_status`].
    fn reject_status(&self) -> u16;
    /// [`Limiter::headers`].
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)>;
    /// [`Limiter::for_sender`].
    fn for_sender(&mut self, key: &str, origin_s: u64);
    /// A copy, state and all.
    fn boxed_clone(&self) -> Box<dyn Model>;
}

/// Implements [`Model`] for a product model type by forwarding to its [`Limiter`] methods (not a
/// blanket impl: the textbook algorithms, dispatched statically, must not be models too). Each
/// product's model file invokes it for its own type.
macro_rules! model {
    ($t:ty) => {
        impl $crate::sim::limiter::Model for $t {
            fn acquire(&mut self, now: $crate::sim::time::SimTime) -> bool {
                $crate::sim::limiter::Limiter::acquire(self, now)
            }
            fn consume(&mut self, now: $crate::sim::time::SimTime) {
                $crate::sim::limiter::Limiter::consume(self, now)
            }
            fn status(&self, now: $crate::sim::time::SimTime) -> $crate::sim::decision::Status {
                $crate::sim::limiter::Limiter::status(self, now)
            }
            fn wait(&self, now: $crate::sim::time::SimTime) -> $crate::sim::time::Nanos {
                $crate::sim::limiter::Limiter::wait(self, now)
            }
            fn gauge(&self, now: $crate::sim::time::SimTime) -> $crate::sim::limiter::Gauge {
                $crate::sim::limiter::Limiter::gauge(self, now)
            }
            fn quota(&self) -> $crate::sim::decision::Quota {
                $crate::sim::limiter::Limiter::quota(self)
            }
            fn admitted_delay(&self) -> $crate::sim::time::Nanos {
                $crate::sim::limiter::Limiter::admitted_delay(self)
            }
            fn may_delay(&self) -> bool {
                $crate::sim::limiter::Limiter::may_delay(self)
            }
            fn reject_status(&self) -> u16 {
                $crate::sim::limiter::Limiter::reject_status(self)
            }
            fn headers(&self, d: &$crate::sim::decision::Decision) -> Vec<(&'static str, String)> {
                $crate::sim::limiter::Limiter::headers(self, d)
            }
            fn for_sender(&mut self, key: &str, origin_s: u64) {
                $crate::sim::limiter::Limiter::for_sender(self, key, origin_s)
            }
            fn boxed_clone(&self) -> Box<dyn $crate::sim::limiter::Model> {
                Box::new(self.clone())
            }
        }
    };
}
pub(crate) use model;

impl std::fmt::Debug for dyn Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a product model")
    }
}

impl Clone for Box<dyn Model> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

macro_rules! dispatch {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            Kind::TokenBucket($l) => $e,
            Kind::FixedWindow($l) => $e,
            Kind::SlidingWindow($l) => $e,
            Kind::SlidingLog($l) => $e,
            Kind::Gcra($l) => $e,
            Kind::Product($l) => $e,
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

    /// Wraps a model behind a pointer: a product's (built by [`crate::sim::products`]) or the
    /// leaky bucket's queue ([`LeakyQueue`], built by `sim::products::models` too).
    pub fn product(model: Box<dyn Model>) -> Self {
        Self::of(Kind::Product(model))
    }

    fn of(kind: Kind) -> Self {
        AnyLimiter { kind, count_rejected: false }
    }

    /// The changing part of the state (not the policy), to keep elsewhere; `None` for a product
    /// model, whose state only the engine keeps.
    pub fn state(&self) -> Option<LimiterState> {
        Some(match &self.kind {
            Kind::TokenBucket(l) => l.state(),
            Kind::FixedWindow(l) => l.state(),
            Kind::SlidingWindow(l) => l.state(),
            Kind::SlidingLog(l) => l.state(),
            Kind::Gcra(l) => l.state(),
            _ => return None,
        })
    }

    /// Puts back a state taken from a limiter of the same algorithm; false (and unchanged) for
    /// another algorithm's state or a product model.
    pub fn restore(&mut self, s: &LimiterState) -> bool {
        match &mut self.kind {
            Kind::TokenBucket(l) => l.restore(s),
            Kind::FixedWindow(l) => l.restore(s),
            Kind::SlidingWindow(l) => l.restore(s),
            Kind::SlidingLog(l) => l.restore(s),
            Kind::Gcra(l) => l.restore(s),
            _ => false,
        }
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
    fn admitted_delay(&self) -> super::time::Nanos {
        match &self.kind {
            Kind::Product(l) => l.admitted_delay(),
            _ => super::time::Nanos::ZERO,
        }
    }
    fn may_delay(&self) -> bool {
        match &self.kind {
            Kind::Product(l) => l.may_delay(),
            _ => false,
        }
    }
    fn reject_status(&self) -> u16 {
        match &self.kind {
            Kind::Product(l) => l.reject_status(),
            _ => 429,
        }
    }
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        match &self.kind {
            Kind::Product(l) => l.headers(d),
            _ => d.headers(self.quota()),
        }
    }
    fn for_sender(&mut self, key: &str, origin_s: u64) {
        if let Kind::Product(l) = &mut self.kind {
            l.for_sender(key, origin_s);
        }
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

#[cfg(test)]
mod tests {
    #[test]
    fn a_limiter_is_no_larger_with_the_product_models_than_the_textbook_ones_make_it() {
        // The sliding log and GCRA (48 bytes, GCRA's i128 aligned to 16) set the size, 80 with
        // the tag and `count_rejected`; products beyond 48 bytes are boxed (unboxed: 112).
        assert!(std::mem::size_of::<super::AnyLimiter>() <= 80, "{}", std::mem::size_of::<super::AnyLimiter>());
    }
}
