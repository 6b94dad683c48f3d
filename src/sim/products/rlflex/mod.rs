//! rate-limiter-flexible, the most used Node.js limiter library: its model ([`model`]), the
//! middleware the production panel exports ([`export`]), the registry's entry ([`PRODUCT`]) and
//! its keys ([`BLOCK`], [`EXEC_EVENLY`]).

pub mod export;
pub mod model;

pub use model::*;

use super::key::{KeyKind, ProductKey, ON_OFF, STORAGE};
use super::product::{Explanation, Product, Textbook, Toggle, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// rate-limiter-flexible 11's `RateLimiterMemory` (or `RateLimiterRedis`, `storage=redis`) with
/// the exported points and duration.
pub const PRODUCT: Product = Product {
    key: "rlflex",
    label: "rate-limiter-flexible (Node.js)",
    name: "rate-limiter-flexible",
    export: "rlflex",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: Some("rate-limiter-flexible 11.4.0"),
    keys: &[BLOCK, EXEC_EVENLY, STORAGE],
    model: |p, o| Box::new(Rlflex::new(RlflexOptions::of(p, o))),
    config: export::config,
    reason: |p, o| match RlflexOptions::of(p, o) {
        RlflexOptions { block_ms, .. } if block_ms > 0 => format!(
            "its window starts at the client's first request, refused ones count, and the first refusal blocks the client for {} s",
            crate::sim::products::policy::secs(block_ms * 1_000_000)
        ),
        _ => "its window starts at the client's first request and refused requests count too".into(),
    },
    explanation: Explanation {
        title: "How rate-limiter-flexible behaves",
        sentences: &[
            "rate-limiter-flexible counts points per key in a window that starts at the key's first consume and lasts duration seconds, on Date.now() in ms.",
            "Every consume adds its point, refused ones too; with blockDuration the first refusal blocks the key for that long (replacing the window), and with execEvenly admitted requests are held to spread them over the window.",
            "RateLimiterRedis counts in Redis on Redis's clock, in whole seconds: the window is floor(duration) s and one ms, and under 1 s the key never expires.",
            "Checked decision by decision against rate-limiter-flexible 11.4: RateLimiterMemory under fake timers, RateLimiterRedis (ioredis) on a real redis-server whose clock the test sets.",
        ],
    },
    toggles: &[
        Toggle { id: "rlflex-even", label: "execEvenly (hold admitted requests to spread them)", key: &EXEC_EVENLY, on: 1, off: 0 },
        Toggle { id: "rlflex-redis", label: "RateLimiterRedis (counts in Redis, on its clock)", key: &STORAGE, on: 1, off: 0 },
    ],
    choice: None,    traits: Traits {
        clock: "ms (Redis: its clock, whole-second windows)",
        starts: "the client's first request",
        refused: "yes",
        retry_after: "your code: msBeforeNext",
        state: "RateLimiterMemory: process memory; RateLimiterRedis: Redis",
    },
};

/// `block`, seconds to the ms: `blockDuration`, how long a key that went over stays refused,
/// from the request that went over. 0 leaves it out, for the library's default: no block for
/// rate-limiter-flexible, the `ttl` for NestJS (which shares the key).
pub const BLOCK: ProductKey = ProductKey {
    key: "block",
    kind: KeyKind::Num { unit: "s (0: the library's default)", digits: 3, min: 0, max: 86_400_000 },
    default: 0,
};

/// `exec_evenly=0|1` (0, the library's default): `execEvenly`, admitted requests held so they
/// spread over the window.
pub const EXEC_EVENLY: ProductKey = ProductKey { key: "exec_evenly", kind: ON_OFF, default: 0 };
