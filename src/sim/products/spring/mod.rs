//! Spring Cloud Gateway's `RedisRateLimiter`: its model ([`model`]), the route configuration the
//! production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// Spring Cloud Gateway's `RequestRateLimiter` filter with `RedisRateLimiter`.
pub const PRODUCT: Product = Product {
    key: "spring",
    label: "Spring Cloud Gateway",
    name: "Spring Cloud Gateway",
    export: "spring",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: None,
    keys: &[],
    model: |p, _| Box::new(Spring::new(SpringLimit::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its bucket refills at each turn of Redis's clock, in whole seconds, at a whole rate".into(),
    explanation: Explanation {
        title: "How Spring Cloud Gateway's RedisRateLimiter behaves",
        sentences: &[
            "A token bucket in a Lua script on Redis, on Redis's clock in whole seconds: the tokens of a second arrive all at once when the second turns, replenishRate of them.",
            "Its rate and burst are whole numbers, and it lets every request through when Redis fails.",
            "Not run here: Spring Cloud Gateway comes from Maven Central, which this machine cannot reach, so the model is read from its source (4.x), not checked against it.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "Redis TIME, whole s",
        starts: "no window: a token bucket",
        refused: "no",
        retry_after: "nothing: X-RateLimit-Remaining and the bucket's sizes",
        state: "Redis",
    },
};
