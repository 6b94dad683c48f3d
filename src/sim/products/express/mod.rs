//! express-rate-limit: its model ([`model`]), the middleware the production panel exports
//! ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// express-rate-limit 8's default MemoryStore with the exported `windowMs` and `limit`.
pub const PRODUCT: Product = Product {
    key: "express",
    label: "express-rate-limit",
    name: "express-rate-limit",
    export: "express",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: Some("express-rate-limit 8.7.4"),
    keys: &[],
    model: |p, _| Box::new(Express::new(&ExpressOptions::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its windows start at the client's first request and count refused requests too".into(),
    explanation: Explanation {
        title: "How express-rate-limit behaves",
        sentences: &[
            "Its MemoryStore starts a client's window at the client's first request, not at a clock boundary, and resets it windowMs later.",
            "Every request counts, refused ones too, so a client that keeps knocking stays refused until its window ends.",
            "Checked decision by decision against express-rate-limit 8 under fake timers.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ms",
        starts: "the client's first request",
        refused: "yes",
        retry_after: "Retry-After: the window's rest, whole s rounded up",
        state: "MemoryStore: process memory (Redis and others as stores)",
    },
};
