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
    let all = products::configs(&Policy::exported(sc), &export_options(sc));
    all.into_iter().zip(EXPORT_NAMES).map(|(c, tab)| held_or_not(sc, tab, c)).collect()
}

/// For the leaky bucket's queue, says on each tab but nginx's (without `nodelay`, the queue
/// itself, as its own notes say) what its limiter does instead of holding requests as the queue
/// does.
fn held_or_not(sc: &Scenario, tab: &str, mut c: Config) -> Config {
    if sc.algo != Algorithm::LeakyBucket || tab == "nginx" {
        return c;
    }
    let p = Policy::exported(sc);
    let instead = match run_config(sc, tab) {
        Some(run) if run.algo.is_window(&run.product) => format!(
            "it counts in windows, up to {} per {}, and answers each request at once",
            p.limit,
            products::duration_text(p.window_ns)
        ),
        Some(run) if crate::sim::Limiter::may_delay(&run.limiter()) => {
            "it may hold a request too, but by its own rule (above), not in the queue's order and drain".to_string()
        }
        _ => format!("it admits the same requests (a bucket of {}) and answers each at once", p.burst),
    };
    c.notes.push(format!(
        "It cannot hold requests as the leaky bucket's queue does, which serves the k-th waiting k ÷ rate later: {instead}."
    ));
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
    let c = products::config(name, &Policy::exported(sc), &export_options(sc))?;
    Some(held_or_not(sc, name, c))
}
