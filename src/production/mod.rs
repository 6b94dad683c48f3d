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

use crate::sim::product_runs::{export_options, run_config};
use crate::sim::products;
use crate::sim::{Algorithm, Scenario};

/// The policy of `sc` for every tab, in [`EXPORT_NAMES`]' order.
pub fn configs(sc: &Scenario) -> Vec<Config> {
    let all = products::configs(&Policy::of(sc), &export_options(sc));
    all.into_iter().zip(EXPORT_NAMES).map(|(c, tab)| held_or_not(sc, tab, c)).collect()
}

/// For the leaky bucket's queue, says on a tab whose limiter cannot hold a request what it does
/// instead (nginx's, without `nodelay`, is the queue itself and says so).
fn held_or_not(sc: &Scenario, tab: &str, mut c: Config) -> Config {
    let holds = || run_config(sc, tab).is_some_and(|run| crate::sim::Limiter::may_delay(&run.limiter()));
    if sc.algo == Algorithm::LeakyBucket && !holds() {
        c.notes.push(format!(
            "It cannot hold a request as the leaky bucket's queue does: it admits the same requests (a bucket \
             of {}) and answers each at once, where the queue would serve the k-th waiting k ÷ rate later.",
            sc.capacity.saturating_add(1)
        ));
    }
    c
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
    let c = products::config(name, &Policy::of(sc), &export_options(sc))?;
    Some(held_or_not(sc, name, c))
}
