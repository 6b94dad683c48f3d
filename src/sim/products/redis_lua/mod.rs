//! The Redis Lua scripts the production panel exports: the scripts ([`export`]), their model in
//! Lua's floating point ([`model`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::key::{KeyKind, ProductKey};
use super::product::{Choice, Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// The exported Redis Lua script (`lua=` picks which), in Lua's floating point.
pub const PRODUCT: Product = Product {
    key: "redis_lua",
    label: "The exported Redis Lua script",
    name: "The Lua script",
    export: "redis-lua",
    runs: EVERY_SHAPE,
    textbook: Textbook::ChosenBy(&SCRIPT),
    checked: Some("Redis 7.0.15"),
    keys: &[SCRIPT],
    model: |p, _| Box::new(RedisLua::new(LuaArgs::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "it counts in floating-point milliseconds".into(),
    explanation: Explanation {
        title: "How the exported Lua script behaves",
        sentences: &[
            "This runs the production panel's Redis script (lua= picks which) in Lua's floating point, with the caller's clock in milliseconds.",
            "Redis runs each call atomically, so nodes sharing the key never over-admit; the arithmetic in doubles can differ from the exact engine by a request at a boundary.",
            "Checked decision by decision on a real redis-server.",
        ],
    },
    toggles: &[],
    choice: Some(Choice {
        id: "lua-script",
        label: "Script",
        key: &SCRIPT,
        labels: &["Token bucket", "Fixed window", "Sliding window counter", "Sliding log"],
    }),    traits: Traits {
        clock: "ms, the caller's",
        starts: "as its script: the clock's multiples, a log or a bucket",
        refused: "no",
        retry_after: "your code: the script returns the wait",
        state: "Redis",
    },
};

/// `lua=token_bucket|fixed_window|sliding_window|sliding_log` (token_bucket): which exported
/// script runs, by the textbook algorithm it implements.
pub const SCRIPT: ProductKey = ProductKey {
    key: "lua",
    kind: KeyKind::Names(&[
        ("token_bucket", Algorithm::TokenBucket.number()),
        ("fixed_window", Algorithm::FixedWindow.number()),
        ("sliding_window", Algorithm::SlidingWindow.number()),
        ("sliding_log", Algorithm::SlidingLog.number()),
    ]),
    default: Algorithm::TokenBucket.number(),
};
