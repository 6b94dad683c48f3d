//! Python's `limits`, the engine under Flask-Limiter and SlowAPI: its model ([`model`]), the code
//! the production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;
pub mod redis;

pub use model::*;

use super::key::{KeyKind, ProductKey, STORAGE};
use super::product::{Choice, Explanation, Product, Textbook, Toggle, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// `limits` 5.8 with its `MemoryStorage` (or `RedisStorage`, `storage=redis`), under the strategy
/// `limits_strategy=` names.
pub const PRODUCT: Product = Product {
    key: "python_limits",
    label: "Python limits (Flask-Limiter, SlowAPI)",
    name: "Python limits",
    export: "python-limits",
    runs: EVERY_SHAPE,
    textbook: Textbook::ChosenBy(&STRATEGY),
    checked: Some("limits 5.8.0"),
    keys: &[STRATEGY, STORAGE],
    model: |p, o| Box::new(PythonLimits::new(LimitsItem::of(p, o))),
    config: export::config,
    reason: |p, o| match LimitsItem::of(p, o).strategy {
        crate::sim::products::Shape::SlidingLog => "it counts whole-second windows on a float clock".into(),
        crate::sim::products::Shape::SlidingWindow if LimitsItem::of(p, o).redis => {
            "in Redis its windows are whole seconds from the client's first hit and the previous one's weight is floored".into()
        }
        crate::sim::products::Shape::SlidingWindow => {
            "its windows are whole seconds aligned to the epoch and its estimate is floored".into()
        }
        _ => "its window starts at the client's first hit, lasts whole seconds and counts refused hits too".into(),
    },
    explanation: Explanation {
        title: "How Python's limits behaves",
        sentences: &[
            "Flask-Limiter and SlowAPI decide with the limits library: a string like \"100/minute\" is a number of hits per whole seconds, counted on time.time(), a float clock.",
            "Its fixed window starts at the client's first hit (not on the clock) and counts refused hits too; the moving window keeps the time of each admitted hit; the sliding-window counter weighs the previous epoch-aligned window and floors the estimate.",
            "With RedisStorage the counts live in Redis and its clock times them: the sliding-window counter's windows then start at the client's first hit, not on the epoch.",
            "Checked decision by decision against limits 5.8, with MemoryStorage under a fake clock and with RedisStorage on a real redis-server whose clock the test sets.",
        ],
    },
    toggles: &[Toggle { id: "limits-redis", label: "RedisStorage (counts in Redis, on its clock)", key: &STORAGE, on: 1, off: 0 }],
    choice: Some(Choice {
        id: "limits-strategy",
        label: "Strategy",
        key: &STRATEGY,
        labels: &["Fixed window", "Moving window", "Sliding window counter"],
    }),    traits: Traits {
        clock: "float s (time.time); in Redis: its ms",
        starts: "fixed window: the first hit; sliding counter: the Unix epoch (in Redis: the first hit)",
        refused: "fixed window: yes; the others: no",
        retry_after: "your code: get_window_stats (Flask-Limiter sends Retry-After)",
        state: "MemoryStorage: process memory; redis:// shares it",
    },
};

/// `limits_strategy=fixed_window|moving_window|sliding_window_counter` (fixed_window, as
/// Flask-Limiter's default): the strategy, by the textbook algorithm it implements.
pub const STRATEGY: ProductKey = ProductKey {
    key: "limits_strategy",
    kind: KeyKind::Names(&[
        ("fixed_window", Algorithm::FixedWindow.number()),
        ("moving_window", Algorithm::SlidingLog.number()),
        ("sliding_window_counter", Algorithm::SlidingWindow.number()),
    ]),
    default: Algorithm::FixedWindow.number(),
};
