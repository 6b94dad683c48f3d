//! redis-cell, the Redis module with the `CL.THROTTLE` command: its model ([`model`]), the
//! command the production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// redis-cell 0.2.2's `CL.THROTTLE key max_burst count period` with the exported arguments.
pub const PRODUCT: Product = Product {
    key: "redis_cell",
    label: "redis-cell CL.THROTTLE",
    name: "redis-cell",
    export: "redis-cell",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::Gcra),
    checked: Some("redis-cell 0.2.2"),
    keys: &[],
    model: |p, _| Box::new(RedisCell::new(CellQuota::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| {
        "its interval is period ÷ count truncated to the nanosecond, and a key whose TTL truncates to the millisecond before its TAT starts afresh"
            .into()
    },
    explanation: Explanation {
        title: "How redis-cell behaves",
        sentences: &[
            "CL.THROTTLE is GCRA in whole nanoseconds inside Redis: one request every period ÷ count, and max_burst + 1 at once from idle — max_burst 9 admits 10.",
            "Its reply says retry_after and reset_after in whole seconds, truncated: a wait of 0.9 s reads 0.",
            "Checked against redis-cell 0.2.2 (crates.io) loaded into the test's redis-server, its clock set for every request: every field of every reply alike.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ns",
        starts: "no window: GCRA",
        refused: "no",
        retry_after: "the reply's retry_after, whole s; your code sends it",
        state: "Redis",
    },
};
