//! HAProxy's stick-table request rate: its model ([`model`]), the frontend lines the production
//! panel exports ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// HAProxy 2.6 with the exported `http_req_rate` stick table and deny rule.
pub const PRODUCT: Product = Product {
    key: "haproxy",
    label: "HAProxy stick table",
    name: "HAProxy",
    export: "haproxy",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::SlidingWindow),
    checked: Some("HAProxy 2.6.12"),
    keys: &[],
    model: |p, _| Box::new(Haproxy::new(HaproxyRate::of(p))),
    config: |p, _| export::config(p),
    reason: |_, _| {
        "it counts refused requests too, on a millisecond clock whose periods start on even milliseconds, and weighs the previous period in integer division"
            .into()
    },
    explanation: Explanation {
        title: "How HAProxy's request rate behaves",
        sentences: &[
            "A stick table's http_req_rate is the sliding window counter: this period's count plus the previous period's, weighed by what is left of this one, in integer division on a millisecond clock.",
            "The request is counted when it is tracked, before the deny rule reads the rate: refused requests count, so a client that keeps sending above the limit stays refused.",
            "Checked against HAProxy 2.6 (Debian's), replaying traces in real time: every decision and every rate it read, on its own millisecond stamps.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ms",
        starts: "periods on even ms, the previous weighed",
        refused: "yes",
        retry_after: "nothing: no header",
        state: "a stick table (peers can share it)",
    },
};
