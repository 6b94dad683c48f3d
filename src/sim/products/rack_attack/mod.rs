//! Rack::Attack, the Rack middleware most Rails apps limit with: its model ([`model`]), the
//! initializer the production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// Rack::Attack 6.6 with one `throttle` per client IP, with the exported limit and period.
pub const PRODUCT: Product = Product {
    key: "rack_attack",
    label: "Rack::Attack (Rails)",
    name: "Rack::Attack",
    export: "rack-attack",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: Some("Rack::Attack 6.6.1"),
    keys: &[],
    model: |p, _| Box::new(RackAttack::new(Throttle::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its periods are whole seconds aligned to the Unix epoch, and refused requests count too".into(),
    explanation: Explanation {
        title: "How Rack::Attack behaves",
        sentences: &[
            "Rack::Attack counts each period in a cache key named after Time.now.to_i / period: whole seconds, periods aligned to the Unix epoch (not to the client's first request).",
            "Every request the throttle matches is counted, refused ones too, so a client that keeps retrying stays refused until the period ends; at a period's edge it can send twice the limit within a second.",
            "Checked decision by decision against Rack::Attack 6.6.1 (Debian's ruby-rack-attack) under Timecop.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "whole s",
        starts: "the Unix epoch",
        refused: "yes",
        retry_after: "Retry-After: the period's rest (opt-in)",
        state: "the cache store (Rails.cache)",
    },
};
