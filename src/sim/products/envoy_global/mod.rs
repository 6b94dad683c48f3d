//! envoyproxy/ratelimit, Envoy's global rate limit service: its model ([`model`]), the service's
//! configuration and Envoy's filter the production panel exports ([`export`]), and the
//! registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// envoyproxy/ratelimit with the exported descriptor.
pub const PRODUCT: Product = Product {
    key: "envoy_global",
    label: "Envoy global (envoyproxy/ratelimit)",
    name: "envoyproxy/ratelimit",
    export: "envoy-global",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: None,
    keys: &[],
    model: |p, _| Box::new(EnvoyGlobal::new(GlobalLimit::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its windows are aligned to the Unix epoch on a whole-second clock, and refused hits count".into(),
    explanation: Explanation {
        title: "How envoyproxy/ratelimit behaves",
        sentences: &[
            "Envoy asks the global rate limit service for every request; the service increments a Redis counter for the current window — aligned to the Unix epoch, in whole seconds — and answers over the limit when the count after it is above requests_per_unit.",
            "Refused hits count, so a client that keeps sending above the limit is refused for the rest of each window.",
            "Not run here: neither the service nor Envoy can be installed on this machine, so the model is read from their source, not checked against them.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "whole s",
        starts: "the Unix epoch",
        refused: "yes",
        retry_after: "nothing: no Retry-After",
        state: "Redis (or Memcached)",
    },
};
