//! django-ratelimit, the decorator Django views are limited with: its model ([`model`]), the view
//! the production panel exports ([`export`]), and the registry's entry ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// django-ratelimit 4.1 on Django's cache, `key='ip'`, with the exported rate.
pub const PRODUCT: Product = Product {
    key: "django_ratelimit",
    label: "django-ratelimit",
    name: "django-ratelimit",
    export: "django-ratelimit",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::FixedWindow),
    checked: Some("django-ratelimit 4.1.0"),
    keys: &[],
    model: |p, _| Box::new(Django::new(DjangoRate::of(p), DEFAULT_KEY)),
    config: |p, _| export::config(p),
    reason: |_, _| {
        "its windows are whole seconds aligned to the epoch but shifted per client by crc32(key), and refused requests count too"
            .into()
    },
    explanation: Explanation {
        title: "How django-ratelimit behaves",
        sentences: &[
            "django-ratelimit counts each client in a cache key named after its window: whole seconds, windows aligned to the epoch but shifted by crc32(key) % period, so each client's window turns over at its own second.",
            "Every call counts, refused ones too, and a request over the rate raises Ratelimited: Django answers 403, with no Retry-After.",
            "Checked decision by decision against django-ratelimit 4.1.0 on Django 5.2 (LocMemCache) under a fake clock, for several client keys.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "whole s",
        starts: "the Unix epoch, shifted by crc32(key)",
        refused: "yes",
        retry_after: "nothing: a 403 without Retry-After",
        state: "Django's cache",
    },
};
