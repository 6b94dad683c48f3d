//! Envoy's HTTP local rate limit: its model ([`model`]), the configuration the production panel
//! exports ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::key::{KeyKind, ProductKey};
use super::options::ProductOptions;
use super::policy::Policy;
use super::product::{Explanation, Product, Textbook, Toggle, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// Envoy's HTTP local rate limit with the exported `token_bucket`.
pub const PRODUCT: Product = Product {
    key: "envoy",
    label: "Envoy local rate limit",
    name: "Envoy",
    export: "envoy",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: None,
    keys: &[BUCKET],
    model: |p, o| Box::new(Envoy::new(&EnvoyBucket::of(p), o.get(&BUCKET) == TIMER)),
    config: |p, _| export::config(p),
    reason,
    explanation: Explanation {
        title: "How Envoy's local rate limit behaves",
        sentences: &[
            "Since Envoy 1.31 the bucket refills continuously on each request, computed in floating-point seconds; envoy_bucket=timer shows the older timer that added tokens_per_fill every fill_interval in steps.",
            "fill_interval is whole milliseconds, so a rate that does not divide evenly runs slightly fast or slow.",
            "Modelled from Envoy's documentation and source; not run against Envoy, which cannot be installed here.",
        ],
    },
    toggles: &[Toggle { id: "envoy-timer", label: "Envoy ≤ 1.30: refill on a timer", key: &BUCKET, on: TIMER, off: 0 }],
    choice: None,    traits: Traits {
        clock: "double s (fill_interval in whole ms)",
        starts: "no window: a token bucket",
        refused: "no",
        retry_after: "nothing: no Retry-After",
        state: "each Envoy's memory",
    },
};

/// `envoy_bucket=atomic|timer` (atomic): today's bucket refilled on access, or the timer-driven
/// bucket of Envoy ≤ 1.30.
pub const BUCKET: ProductKey =
    ProductKey { key: "envoy_bucket", kind: KeyKind::Names(&[("atomic", 0), ("timer", TIMER)]), default: 0 };

/// [`BUCKET`]'s value for the timer-driven bucket.
const TIMER: u64 = 1;

fn reason(p: &Policy, o: &ProductOptions) -> String {
    if o.get(&BUCKET) == TIMER {
        return "Envoy's timer adds tokens in steps, once per fill_interval".into();
    }
    let b = EnvoyBucket::of(p);
    if b.exact {
        "it refills in floating-point seconds".into()
    } else {
        format!("its whole-millisecond fill_interval makes the rate {}/s", b.fill_rate_text())
    }
}
