//! Kong Gateway's `rate-limiting` plugin: its model ([`model`]), the declarative configuration
//! the production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;
pub mod redis_policy;

pub use model::*;

use super::key::{KeyKind, ProductKey};
use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// Kong's `rate-limiting` plugin, `policy: local`, with the exported limit.
pub const PRODUCT: Product = Product {
    key: "kong",
    label: "Kong rate-limiting",
    name: "Kong",
    export: "kong",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: None,
    keys: &[SYNC_RATE],
    model: |p, _| Box::new(Kong::new(KongLimit::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its windows are calendar seconds, minutes, hours or days on a whole-second clock".into(),
    explanation: Explanation {
        title: "How Kong's rate-limiting plugin behaves",
        sentences: &[
            "Kong counts fixed windows aligned to the calendar in UTC — a minute from :00 — on a clock in whole seconds, and refuses once the window's count has reached the limit; refused requests are not counted.",
            "So a client can send the limit at the end of one minute and again at the start of the next: twice the limit within a second.",
            "Not run here: Kong has no package this machine can install, so the model is read from its source (3.x, policy local), not checked against it.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "whole s",
        starts: "the calendar: the UTC minute, hour, day",
        refused: "no",
        retry_after: "Retry-After: the period's rest, whole s",
        state: "local: each node's memory; redis: Redis",
    },
};

/// `sync_rate`, seconds to the millisecond: how often a node of the multi-node view's Kong
/// (`store=sync`, `policy: redis`) sends its counts to Redis. 0 stands for Kong's `-1` (its
/// default): every request increments Redis and waits for it.
pub const SYNC_RATE: ProductKey = ProductKey {
    key: "sync_rate",
    kind: KeyKind::Num { unit: "s (0 for Kong's -1: every request)", digits: 3, min: 0, max: 3_600_000 },
    default: 0,
};
