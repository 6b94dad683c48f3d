//! @nestjs/throttler, NestJS's limiter: its model ([`model`]), the module the production panel
//! exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use super::rlflex::BLOCK;
use crate::sim::algorithm::Algorithm;

/// @nestjs/throttler 6.7's guard and in-memory storage, one throttler with the exported `ttl`,
/// `limit` and `blockDuration` (`block=`; 0 leaves it out: the `ttl`).
pub const PRODUCT: Product = Product {
    key: "nestjs",
    label: "NestJS @nestjs/throttler",
    name: "NestJS",
    export: "nestjs",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::SlidingLog),
    checked: Some("@nestjs/throttler 6.7.1"),
    keys: &[BLOCK],
    model: |p, o| Box::new(Nest::new(Throttler::of(p, o))),
    config: export::config,
    reason: |p, o| {
        format!(
            "the request over the limit blocks the client for {} s, and the block's end clears its count",
            crate::sim::products::policy::secs(Throttler::of(p, o).block() * 1_000_000)
        )
    },
    explanation: Explanation {
        title: "How NestJS's throttler behaves",
        sentences: &[
            "@nestjs/throttler keeps each admitted hit for ttl ms (a sliding log on Date.now()), and the hit that takes the count above the limit blocks the client for blockDuration — the ttl unless set.",
            "Requests during the block are refused and not counted; the first one after it starts a fresh count, even if hits from before the block would still be in the window.",
            "Checked decision by decision against @nestjs/throttler 6.7.1 (its ThrottlerGuard and in-memory storage) under fake timers.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ms",
        starts: "each hit, for the ttl (a sliding log)",
        refused: "no (the one over does, and blocks)",
        retry_after: "Retry-After: the block's rest, whole s rounded up",
        state: "process memory (a storage of your choice)",
    },
};
