//! "Use this in production": the current policy as configuration for the limiters people run,
//! with the units and burst semantics of each spelled out — that is where translations go wrong.
//!
//! Every mapping is pure and exact where the target can express the policy exactly; where it
//! cannot (nginx only takes whole requests per second or minute, Envoy whole milliseconds, a
//! fixed window is not a bucket), the config says what was rounded or approximated and by how
//! much. The numbers in each snippet come from the product's model in [`crate::sim::products`],
//! so `algo=nginx` (and the others) runs exactly what is exported.

mod envoy;
mod express;
mod governor;
mod nginx;
pub mod redis_lua;
mod upstash;

pub use crate::sim::products::{Policy, Shape};

use crate::sim::Scenario;

/// One target's configuration for a policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The product, e.g. "nginx limit_req".
    pub target: &'static str,
    /// The snippet's language, for highlighting: "nginx", "yaml", "rust", "js", "lua".
    pub language: &'static str,
    /// The configuration to paste.
    pub snippet: String,
    /// Units, burst semantics, and anything rounded or approximated.
    pub notes: Vec<String>,
}

/// The policy of `sc` for every supported target, in a fixed order.
pub fn configs(sc: &Scenario) -> Vec<Config> {
    let p = Policy::of(sc);
    vec![
        nginx::config(&p, &sc.product),
        envoy::config(&p),
        governor::config(&p),
        express::config(&p),
        upstash::config(&p),
        redis_lua::config(&p),
    ]
}

/// The CLI's names for the targets (`ratelimit-sim --export NAME`), in the order of [`configs`].
pub const EXPORT_NAMES: [&str; 6] = ["nginx", "envoy", "governor", "express", "upstash", "redis-lua"];

/// The configuration for the target the CLI calls `name`: the same [`Config`] as the panel's
/// tab, whose snippet its Copy button copies.
///
/// ```
/// use ratelimit_playground::production::export;
/// use ratelimit_playground::sim::Scenario;
/// let sc = Scenario::from_query("capacity=10&refill=5").unwrap();
/// assert_eq!(export(&sc, "nginx").unwrap().target, "nginx limit_req");
/// assert!(export(&sc, "haproxy").is_none());
/// ```
pub fn export(sc: &Scenario, name: &str) -> Option<Config> {
    let i = EXPORT_NAMES.iter().position(|&n| n == name)?;
    configs(sc).into_iter().nth(i)
}

/// A duration in nanoseconds as the shortest exact decimal number of seconds ("0.4", "2").
pub(crate) fn secs(ns: u64) -> String {
    crate::sim::decimal::format_fixed(ns, 9)
}
