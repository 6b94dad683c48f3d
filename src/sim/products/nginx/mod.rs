//! nginx `limit_req`: its model ([`model`]), the configuration the production panel exports
//! ([`export`]), and the registry's entry for it ([`PRODUCT`]).

pub mod export;
pub mod model;

pub use model::*;

use super::options::ProductOptions;
use super::policy::Policy;
use super::product::{Explanation, Product, Textbook, Toggle, Traits, EVERY_SHAPE};
use crate::sim::algorithm::Algorithm;

/// nginx `limit_req` with the exported `rate`, `burst` and `nodelay` (or `delay=`).
pub const PRODUCT: Product = Product {
    key: "nginx",
    label: "nginx limit_req",
    name: "nginx",
    export: "nginx",
    runs: EVERY_SHAPE,
    textbook: Textbook::Is(Algorithm::TokenBucket),
    checked: Some("nginx 1.22.1"),
    keys: &[NODELAY, DELAY, STATUS],
    model: |p, o| Box::new(Nginx::new(&NginxConfig::of(p, o))),
    config: export::config,
    reason,
    explanation: Explanation {
        title: "How nginx limit_req behaves",
        sentences: &[
            "This is nginx 1.22's own arithmetic: the rate in whole milli-requests per second (r/m truncated), a clock in whole milliseconds, and an excess that only passed requests update.",
            "With nodelay up to burst + 1 requests pass at once from idle; without it nginx holds each request beyond the rate for excess ÷ rate and serves it late, so the latency figures grow instead of the 429s: the leaky bucket as a queue, burst requests long, drained at the rate (as a meter, the leaky bucket is GCRA).",
            "Checked decision by decision against a real nginx on this machine's traces (tests/real/nginx.rs).",
        ],
    },
    toggles: &[
        Toggle { id: "nginx-nodelay", label: "nodelay (without it, nginx delays the burst)", key: &NODELAY, on: 1, off: 0 },
        Toggle { id: "nginx-503", label: "no limit_req_status (503)", key: &STATUS, on: 503, off: 429 },
    ],
    choice: None,    traits: Traits {
        clock: "ms",
        starts: "no window: a leaky bucket (GCRA)",
        refused: "no",
        retry_after: "nothing: no header",
        state: "a shared-memory zone: a restart empties it, a reload keeps it",
    },
};

fn reason(p: &Policy, o: &ProductOptions) -> String {
    let c = NginxConfig::of(p, o);
    if c.rate.milli() != p.rate_milli {
        format!(
            "its {} rate truncates to {} milli-requests/s (the policy is {})",
            c.rate.to_config(),
            c.rate.milli(),
            p.rate_milli
        )
    } else {
        "it counts whole milliseconds and truncates each refill to whole milli-requests".into()
    }
}
