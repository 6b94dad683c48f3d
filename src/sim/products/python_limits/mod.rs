//! Python's `limits`, the engine under Flask-Limiter and SlowAPI: its model ([`model`]), the code
//! the production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::key::{KeyKind, ProductKey};
use super::product::{Choice, Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// `limits` 5.8 with its `MemoryStorage`, under the strategy `limits_strategy=` names.
pub const PRODUCT: Product = Product {
    key: "python_limits",
    label: "Python limits (Flask-Limiter, SlowAPI)",
    name: "Python limits",
    export: "python-limits",
    runs: EVERY_SHAPE,
    textbook: Textbook::ChosenBy(&STRATEGY),
    run_here: true,
    keys: &[STRATEGY],
    model: |p, _| Box::new(PythonLimits::new(LimitsItem::of(p))),
    config: |p, _| export::config(p),
    reason: |p, _| match LimitsItem::of(p).strategy {
        crate::sim::products::Shape::SlidingLog => "it counts whole-second windows on a float clock".into(),
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
            "Checked decision by decision against limits 5.8 (MemoryStorage) under a fake clock.",
        ],
    },
    toggles: &[],
    choice: Some(Choice {
        id: "limits-strategy",
        label: "Strategy",
        key: &STRATEGY,
        labels: &["Fixed window", "Moving window", "Sliding window counter"],
    }),    traits: Traits {
        clock: "float s (time.time)",
        starts: "fixed window: the first hit; sliding counter: the Unix epoch",
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
        ("fixed_window", Algorithm::FixedWindow as u64),
        ("moving_window", Algorithm::SlidingLog as u64),
        ("sliding_window_counter", Algorithm::SlidingWindow as u64),
    ]),
    default: Algorithm::FixedWindow as u64,
};
