//! Traefik's `RateLimit` middleware: its model ([`model`]), the dynamic configuration the
//! production panel exports ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::product::{Explanation, Product, Textbook, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// Traefik's in-memory `rateLimit` middleware with the exported `average`, `period`, `burst`.
pub const PRODUCT: Product = Product {
    key: "traefik",
    label: "Traefik RateLimit",
    name: "Traefik",
    export: "traefik",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: None,
    keys: &[],
    model: |p, _| Box::new(Traefik::new(TraefikLimit::of(p))),
    config: |p, _| export::config(p),
    reason: |p, _| {
        let l = TraefikLimit::of(p);
        format!(
            "it holds a request up to {} for a token instead of refusing it, and drops a source idle for {} s, which comes back full",
            model::go_duration(l.max_delay()),
            l.ttl_s()
        )
    },
    explanation: Explanation {
        title: "How Traefik's RateLimit behaves",
        sentences: &[
            "Traefik reserves a token from Go's x/time/rate for every request and holds the request until its token is due — up to maxDelay (half the time between tokens at the rate's whole part, 500 ms below 1/s); a longer wait is refused with 429 and Retry-After.",
            "So at a steady overload it admits a little more than the rate, late, rather than exactly the rate at once.",
            "It forgets a source idle for a couple of seconds (its TTL, in whole seconds), so an idle client gets its whole burst back sooner than the rate refills it.",
            "Not run here: Traefik cannot be installed on this machine, so its glue is modelled from its source (v3.7) and checked, on the real x/time/rate it calls, decision by decision.",
        ],
    },
    toggles: &[],
    choice: None,    traits: Traits {
        clock: "ns; idle sources dropped on whole Unix s",
        starts: "no window: a token bucket",
        refused: "no (held up to maxDelay)",
        retry_after: "Retry-After, whole s rounded up, and X-Retry-In",
        state: "each Traefik's memory",
    },
};
