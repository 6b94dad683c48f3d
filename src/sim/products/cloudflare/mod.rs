//! Cloudflare's rate limiting rules: the model ([`model`]), the rule the production panel exports
//! ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// A Cloudflare rate limiting rule with the exported characteristics and `cf_timeout`.
pub const PRODUCT: Product = Product {
    key: "cloudflare",
    label: "Cloudflare rate limiting rule",
    name: "Cloudflare",
    export: "cloudflare",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::SlidingWindow),
    checked: None,
    keys: &[TIMEOUT],
    model: |p, o| Box::new(Cloudflare::new(CfRule::of(p, o))),
    config: export::config,
    reason: |p, o| {
        let rule = CfRule::of(p, o);
        if rule.timeout_s == 0 {
            "its counting periods come in fixed sizes, and it throttles only what is over the rate".into()
        } else {
            format!("once triggered it blocks the client for {} s regardless of rate", rule.timeout_s)
        }
    },
    explanation: Explanation {
        title: "How a Cloudflare rate limiting rule behaves",
        sentences: &[
            "A rule counts a client's requests per counting period, in each data center on its own; the request that takes the count above the limit triggers it.",
            "Then it blocks that client for the mitigation timeout, whatever the client sends meanwhile; with a timeout of 0 (Enterprise) it only refuses what is over the rate.",
            "Not run here: a managed service, so the model follows Cloudflare's documentation and its 2017 description of its counters (the previous period weighed by what is left of this one).",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "managed",
        starts: "fixed counting periods, the previous weighed",
        refused: "no (blocked for the timeout)",
        retry_after: "nothing",
        state: "each Cloudflare data center",
    },
};
