//! Go's `golang.org/x/time/rate`: its model ([`model`]), the program the production panel
//! exports ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// `rate.NewLimiter(r, b)`, each request `AllowN(t, 1)`.
pub const PRODUCT: Product = Product {
    key: "go_rate",
    label: "Go x/time/rate",
    name: "Go x/time/rate",
    export: "go",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: Some("golang.org/x/time/rate 0.3.0"),
    keys: &[],
    model: |p, _| Box::new(GoRate::new(GoLimit::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| "its tokens are float64 and a wait under a nanosecond truncates to none".into(),
    explanation: Explanation {
        title: "How Go's x/time/rate behaves",
        sentences: &[
            "rate.Limiter is a token bucket in float64 tokens: capacity b, refilled at r per second, full when made.",
            "Allow takes a token only when it admits; a refusal leaves the limiter as it was. A request short of less than a nanosecond's worth of a token is admitted, and the bucket goes a hair below zero.",
            "Checked decision by decision, and each wait to the nanosecond, against the library (0.3.0, Debian's) compiled with Go.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ns (time.Time)",
        starts: "no window: a token bucket",
        refused: "no",
        retry_after: "your code: Reservation.Delay",
        state: "process memory",
    },
};
