//! The `governor` crate: its model ([`model`]), the `Quota` the production panel exports
//! ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// The `governor` crate's GCRA with the exported `Quota`.
pub const PRODUCT: Product = Product {
    key: "governor",
    label: "governor (Rust)",
    name: "governor",
    export: "governor",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::Gcra),
    checked: Some("governor 0.10.4"),
    keys: &[],
    model: |p, _| Box::new(Governor::new(&GovernorQuota::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its period is 1 ÷ rate rounded to the nanosecond".into(),
    explanation: Explanation {
        title: "How governor behaves",
        sentences: &[
            "governor is GCRA in whole nanoseconds: one cell every period, a burst of allow_burst from idle.",
            "It decides exactly like the token bucket whenever 1 ÷ rate is a whole number of nanoseconds; otherwise the period is rounded to the nearest one.",
            "Checked decision by decision against the governor crate with its fake clock.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ns",
        starts: "no window: GCRA",
        refused: "no",
        retry_after: "your code: the wait it returns, to the ns",
        state: "process memory",
    },
};
