//! Building a product model for the engine: [`build`], which
//! [`Capabilities::with_models`](crate::sim::engine::capabilities::Capabilities::with_models) hands to an
//! engine. A module whose capabilities leave it out (the page's first module) links no model's
//! code and refuses a product or the leaky bucket's queue instead of running it.

use super::options::ProductOptions;
use super::policy::Policy;
use crate::sim::limiter::Model;

/// [`build`]'s index for the leaky bucket's queue: one past the registry's products.
pub const QUEUE: usize = super::REGISTRY.len();

/// The registry's product `index` running the configuration its tab exports for `p`, or for
/// [`QUEUE`] the leaky bucket's queue.
pub fn build(index: usize, p: &Policy, o: &ProductOptions) -> Box<dyn Model> {
    match index {
        QUEUE => {
            Box::new(crate::sim::limiter::LeakyQueue::new(p.burst, crate::sim::rate::Rate::from_milli(p.rate_milli)))
        }
        _ => super::MODELS[index](p, o),
    }
}
