//! "Use this in production": the current policy as configuration for the limiters people run,
//! with the units and burst semantics of each spelled out — that is where translations go wrong.
//!
//! Every mapping is pure and exact where the target can express the policy exactly; where it
//! cannot (nginx only takes whole requests per second or minute, Envoy whole milliseconds, a
//! fixed window is not a bucket), the config says what was rounded or approximated and by how
//! much. Each product's module in [`crate::sim::products`] writes its own (`export.rs`), with
//! the numbers its model runs, so `algo=nginx` (and the others) runs exactly what is exported;
//! this module lists the production panel's tabs.

pub use crate::sim::products::redis_lua::export as redis_lua;
pub use crate::sim::products::{Config, Policy, Shape, EXPORT_NAMES};

use crate::sim::products;
use crate::sim::Scenario;

/// The policy of `sc` for every tab, in [`EXPORT_NAMES`]' order.
pub fn configs(sc: &Scenario) -> Vec<Config> {
    products::configs(&Policy::of(sc), &sc.product)
}

/// The configuration for the target the CLI calls `name`: the same [`Config`] as the panel's
/// tab, whose snippet its Copy button copies.
///
/// ```
/// use ratelimit_playground::production::export;
/// use ratelimit_playground::sim::Scenario;
/// let sc = Scenario::from_query("capacity=10&refill=5").unwrap();
/// assert_eq!(export(&sc, "nginx").unwrap().target, "nginx limit_req");
/// assert!(export(&sc, "squid").is_none());
/// ```
pub fn export(sc: &Scenario, name: &str) -> Option<Config> {
    products::config(name, &Policy::of(sc), &sc.product)
}
