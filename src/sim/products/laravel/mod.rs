//! Laravel's `RateLimiter` and its `throttle` middleware: the model ([`model`]), the code the
//! production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// Laravel 8's `RateLimiter` over the array cache, with the exported attempts and decay.
pub const PRODUCT: Product = Product {
    key: "laravel",
    label: "Laravel RateLimiter",
    name: "Laravel",
    export: "laravel",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: Some("illuminate/cache 8.83.26"),
    keys: &[],
    model: |p, _| Box::new(Laravel::new(Attempts::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| {
        "its window starts at the first admitted request and lasts one whole second more than its decay".into()
    },
    explanation: Explanation {
        title: "How Laravel's RateLimiter behaves",
        sentences: &[
            "Laravel counts attempts in the cache under the client's key, with a timer set by the first admitted request to now + decay, on a clock in whole seconds.",
            "It checks the count before counting, so refused requests are not counted; the cache forgets the window only once the clock has passed the timer, so a window of decay seconds lasts one more, and in that last second the 429 says Retry-After: 0.",
            "Checked decision by decision against Laravel 8.83 (Debian's php-illuminate-cache) with Carbon's test clock.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "whole s",
        starts: "the first admitted request; lasts decay + 1 s",
        refused: "no",
        retry_after: "Retry-After: the timer's rest, 0 in its last second",
        state: "the cache driver",
    },
};
