//! The limiter a scenario describes, as an engine with given [`Capabilities`] builds it: a
//! textbook algorithm always, a product's model or the leaky bucket's queue only where the
//! capabilities hold the products' models.

use super::capabilities::{Capabilities, Lacking};
use crate::sim::algorithm::Algorithm;
use crate::sim::limiter::{AnyLimiter, FixedWindow, Gcra, SlidingLog, SlidingWindow, TokenBucket};
use crate::sim::products::models::QUEUE;
use crate::sim::products::policy::{Policy, Shape};
use crate::sim::scenario::Scenario;

impl Scenario {
    /// The limiter this scenario describes, fresh at t = 0, with the products' models at hand:
    /// for native callers and the log worker, which build limiters outside an engine.
    pub fn limiter(&self) -> AnyLimiter {
        limiter(self, &Capabilities::ONE_LIMITER.with_models()).expect("the products' models are given")
    }
}

/// The limiter `sc` describes, fresh at t = 0, as an engine with `caps` builds it; refused for a
/// product or the leaky bucket's queue where `caps` have no models.
pub fn limiter(sc: &Scenario, caps: &Capabilities) -> Result<AnyLimiter, Lacking> {
    let (limit, window) = (sc.effective_limit(), sc.effective_window());
    let l = match sc.algo {
        Algorithm::Product(id) => AnyLimiter::product(caps.models()?(id.index(), &Policy::of(sc), &sc.product)),
        Algorithm::LeakyBucket => AnyLimiter::product(caps.models()?(QUEUE, &queue_policy(sc), &sc.product)),
        Algorithm::TokenBucket => AnyLimiter::token_bucket(TokenBucket::new(sc.capacity, sc.refill)),
        Algorithm::Gcra => AnyLimiter::gcra(Gcra::new(sc.capacity, sc.refill)),
        Algorithm::FixedWindow => AnyLimiter::fixed_window(FixedWindow::new(limit, window)),
        Algorithm::SlidingWindow => AnyLimiter::sliding_window(SlidingWindow::new(limit, window)),
        Algorithm::SlidingLog => AnyLimiter::sliding_log(SlidingLog::new(limit, window)),
    };
    // A product counts what it counts (express-rate-limit and Upstash's fixed window count
    // refused requests already), and a refused request never joins the leaky bucket's queue:
    // `count_rejected` is the textbook meters' knob.
    Ok(l.counting_rejected(sc.count_rejected && sc.algo.in_first_modules()))
}

/// The leaky bucket's queue as a policy: `capacity` requests may wait, drained at `refill`.
fn queue_policy(sc: &Scenario) -> Policy {
    let size = sc.capacity;
    Policy { shape: Shape::Bucket, burst: size, rate_milli: sc.refill.milli(), limit: size, window_ns: 0 }
}
