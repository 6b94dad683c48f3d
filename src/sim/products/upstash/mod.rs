//! Upstash Ratelimit: its three limiters' model ([`model`]), the code the production panel
//! exports ([`export`]), and the registry's three entries ([`FIXED`], [`SLIDING`], [`TOKEN`]),
//! which share one tab: the policy's shape picks the limiter.

pub mod export;
pub mod model;

pub use model::*;

use super::options::ProductOptions;
use super::policy::{Policy, Shape};
use super::product::{Explanation, Product, Textbook, Traits};
use crate::sim::algorithm::Algorithm;

/// Upstash Ratelimit 2's `fixedWindow`.
pub const FIXED: Product = Product {
    key: "upstash_fixed",
    label: "Upstash fixedWindow",
    runs: &[Shape::FixedWindow],
    textbook: Textbook::Is(Algorithm::FixedWindow),
    keys: &[],
    reason: |_, _| WINDOW_REASON.into(),
    traits: Traits {
        clock: "ms, the caller's",
        starts: "the clock: multiples of the window",
        refused: "no",
        retry_after: "your code: reset, ms",
        state: "Redis; its ephemeral cache in process memory",
    },
    ..TOKEN
};

/// Upstash Ratelimit 2's `slidingWindow` (also what the tab exports for a sliding log).
pub const SLIDING: Product = Product {
    key: "upstash_sliding",
    label: "Upstash slidingWindow",
    runs: &[Shape::SlidingWindow, Shape::SlidingLog],
    textbook: Textbook::Is(Algorithm::SlidingWindow),
    keys: &[],
    reason: |_, _| WINDOW_REASON.into(),
    traits: Traits {
        clock: "ms, the caller's",
        starts: "the clock, the previous window weighed",
        refused: "no",
        retry_after: "your code: reset, ms",
        state: "Redis; its ephemeral cache in process memory",
    },
    ..TOKEN
};

/// Upstash Ratelimit 2's `tokenBucket`.
pub const TOKEN: Product = Product {
    key: "upstash_token",
    label: "Upstash tokenBucket",
    name: "Upstash",
    export: "upstash",
    runs: &[Shape::Bucket],
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: Some("@upstash/ratelimit 2.2.0"),
    keys: &[],
    model,
    config: |p, _| export::config(p),
    reason: |_, _| "it refills whole intervals only, and its cache refuses until the next refill, inclusive".into(),
    explanation: Explanation {
        title: "How Upstash Ratelimit behaves",
        sentences: &[
            "Upstash's scripts count in whole milliseconds, with windows aligned to multiples of the window; its token bucket adds refillRate tokens only at whole intervals.",
            "After a refusal, its ephemeral cache (on by default) refuses the identifier in memory until reset, that millisecond included, without asking Redis.",
            "Checked decision by decision against @upstash/ratelimit 2 on a real redis-server.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ms, the caller's",
        starts: "no window: a token bucket",
        refused: "no",
        retry_after: "your code: reset, ms",
        state: "Redis; its ephemeral cache in process memory",
    },
};

const WINDOW_REASON: &str = "its ephemeral cache refuses in memory until the window's end, that millisecond included";

/// The model of the limiter the policy's shape picks (one function for the three entries).
fn model(p: &Policy, _: &ProductOptions) -> Box<dyn crate::sim::limiter::Model> {
    Box::new(Upstash::new(&UpstashLimiter::of(p)))
}
