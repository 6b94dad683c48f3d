//! AWS API Gateway's throttling: its model ([`model`]), the stage settings the production panel
//! exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// API Gateway's stage (or usage plan) throttling with the exported rate and burst.
pub const PRODUCT: Product = Product {
    key: "aws",
    label: "AWS API Gateway",
    name: "AWS API Gateway",
    export: "aws",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: None,
    keys: &[],
    model: |p, _| Box::new(Aws::new(AwsThrottle::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "the model is its documented token bucket; the real service is best effort across AWS's fleet".into(),
    explanation: Explanation {
        title: "How AWS API Gateway throttles",
        sentences: &[
            "API Gateway documents its throttling as a token bucket: the rate adds tokens, the burst is the bucket's size, and a request without a token gets 429 Too Many Requests — with no Retry-After.",
            "AWS calls it best effort: limits are targets, not guaranteed ceilings, and the account's regional limit (10 000/s, burst 5 000 by default) applies on top.",
            "Not run here: a managed service outside this machine, so the model is the documented bucket, not AWS's implementation.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "managed",
        starts: "no window: a token bucket",
        refused: "no",
        retry_after: "nothing: 429 only",
        state: "AWS, best effort",
    },
};
