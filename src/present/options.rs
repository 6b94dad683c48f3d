//! The choices the controls offer, with their labels: algorithms, traffic shapes, retry policies
//! and speeds. One table per choice, so the `<select>`s, the radio group and the tests agree.

use crate::sim::products::{PRODUCTS, REGISTRY};
use crate::sim::{Algorithm, RetryPolicy, TrafficShape};

/// What the page shows: one algorithm, or all of them side by side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// One algorithm with its inner state and request strip.
    Single(Algorithm),
    /// Every algorithm on the same arrivals.
    Compare,
}

/// One option of a choice: the value used in the DOM (ids, `<option value>`), and its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled<T: 'static> {
    /// The choice itself.
    pub value: T,
    /// Stable machine name (the query key's value where there is one).
    pub key: &'static str,
    /// What the user reads.
    pub label: &'static str,
}

const fn item<T>(value: T, key: &'static str, label: &'static str) -> Labelled<T> {
    Labelled { value, key, label }
}

/// The algorithm picker, Compare last.
pub const VIEWS: [Labelled<View>; 7] = [
    item(View::Single(Algorithm::TokenBucket), "token_bucket", "Token bucket"),
    item(View::Single(Algorithm::Gcra), "gcra", "GCRA"),
    item(View::Single(Algorithm::FixedWindow), "fixed_window", "Fixed window"),
    item(View::Single(Algorithm::SlidingWindow), "sliding_window", "Sliding window counter"),
    item(View::Single(Algorithm::SlidingLog), "sliding_log", "Sliding log"),
    item(View::Single(Algorithm::LeakyBucket), "leaky_bucket", "Leaky bucket (queue)"),
    item(View::Compare, "compare", "Compare all"),
];

/// The product models whose real software `make test` runs against them.
pub const PRODUCTS_RUN_HERE: usize = {
    let (mut n, mut i) = (0, 0);
    while i < REGISTRY.len() {
        n += REGISTRY[i].checked.is_some() as usize;
        i += 1;
    }
    n
};

/// The product models: the [`PRODUCTS_RUN_HERE`] run here first, then those read from source or
/// documentation, each group in the registry's order (the production panel's).
pub const PRODUCT_VIEWS: [Labelled<View>; PRODUCTS.len()] = {
    let mut out = [item(View::Compare, "", ""); PRODUCTS.len()];
    let (mut here, mut read, mut i) = (0, PRODUCTS_RUN_HERE, 0);
    while i < PRODUCTS.len() {
        let slot = if REGISTRY[i].checked.is_some() { &mut here } else { &mut read };
        out[*slot] = item(View::Single(PRODUCTS[i]), REGISTRY[i].key, REGISTRY[i].label);
        *slot += 1;
        i += 1;
    }
    out
};

/// Arrival processes.
pub const TRAFFIC: [Labelled<TrafficShape>; 6] = [
    item(TrafficShape::Constant, "constant", "Constant"),
    item(TrafficShape::Poisson, "poisson", "Poisson (random)"),
    item(TrafficShape::Bursts, "bursts", "Bursts"),
    item(TrafficShape::Seam, "seam", "Seam attack"),
    item(TrafficShape::Clients, "clients", "Many clients"),
    item(TrafficShape::Trace, "trace", "Replay my traffic"),
];

/// What a client does after a 429.
pub const RETRIES: [Labelled<RetryPolicy>; 4] = [
    item(RetryPolicy::GiveUp, "none", "Give up"),
    item(RetryPolicy::Exact, "exact", "Retry exactly at Retry-After"),
    item(RetryPolicy::Jitter, "jitter", "Retry-After + headroom + jitter"),
    item(RetryPolicy::Backoff, "backoff", "Exponential backoff"),
];

/// Playback speeds, simulated seconds per real second.
pub const SPEEDS: [f64; 9] = [0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0];

/// A speed's `<option value>`: `0.25`, `1`, `100` (read back with `sim::nearest::nearest_f64`).
///
/// ```
/// use ratelimit_playground::present::options::{speed_value, SPEEDS};
/// use ratelimit_playground::sim::support::nearest::nearest_f64;
/// assert_eq!(SPEEDS.map(speed_value)[..3], ["0.25", "0.5", "1"]);
/// assert!(SPEEDS.iter().all(|&s| nearest_f64(&speed_value(s)) == Some(s)));
/// ```
pub fn speed_value(speed: f64) -> String {
    crate::sim::support::decimal::format_f64_trimmed(speed, 2)
}

/// Fast-forward jumps offered, in simulated seconds.
pub const JUMPS: [(u64, &str); 3] = [(10, "+10 s"), (60, "+1 min"), (600, "+10 min")];

/// The label of `algo`.
///
/// ```
/// use ratelimit_playground::present::options::algorithm_label;
/// use ratelimit_playground::sim::Algorithm;
/// assert_eq!(algorithm_label(Algorithm::SlidingWindow), "Sliding window counter");
/// ```
pub fn algorithm_label(algo: Algorithm) -> &'static str {
    VIEWS.iter().chain(PRODUCT_VIEWS.iter()).find(|v| v.value == View::Single(algo)).map_or("", |v| v.label)
}

/// The entry of `table` whose value is `value`.
pub fn entry<T: PartialEq + Copy>(table: &'static [Labelled<T>], value: T) -> Option<&'static Labelled<T>> {
    table.iter().find(|e| e.value == value)
}

/// The entry of `table` whose key is `key`.
pub fn by_key<T>(table: &'static [Labelled<T>], key: &str) -> Option<&'static Labelled<T>> {
    table.iter().find(|e| e.key == key)
}

/// Whether `algo` is configured by limit and window (rather than capacity and refill).
pub fn is_windowed(algo: Algorithm) -> bool {
    algo.is_window(&crate::sim::products::ProductOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::compare::ALGORITHMS;

    #[test]
    fn every_algorithm_has_a_label_and_keys_are_unique() {
        for algo in ALGORITHMS {
            assert!(!algorithm_label(algo).is_empty(), "{algo:?}");
        }
        let keys: Vec<_> = VIEWS.iter().map(|v| v.key).chain(TRAFFIC.iter().map(|t| t.key)).collect();
        let mut unique = keys.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), keys.len(), "duplicate keys: {keys:?}");
    }

    #[test]
    fn products_run_here_come_first_each_group_in_the_registry_order() {
        let run_here = |v: &Labelled<View>| match v.value {
            View::Single(algo) => crate::sim::products::run_here(algo),
            View::Compare => panic!("not a product"),
        };
        let (here, read) = PRODUCT_VIEWS.split_at(PRODUCTS_RUN_HERE);
        assert!(here.iter().all(run_here) && !read.iter().any(run_here));
        assert!(here.len() >= 8 && read.len() >= 6, "{} run here, {} not", here.len(), read.len());
        let registry = |v: &Labelled<View>| REGISTRY.iter().position(|p| p.key == v.key).unwrap();
        for group in [here, read] {
            assert!(group.windows(2).all(|w| registry(&w[0]) < registry(&w[1])), "registry order");
        }
        assert_eq!(here.len() + read.len(), REGISTRY.len());
    }

    #[test]
    fn keys_are_the_query_format_values() {
        for t in TRAFFIC {
            let sc = crate::sim::Scenario::from_query(&format!("traffic={}", t.key));
            // `trace` parses but needs a trace to validate; every other key parses as given.
            assert!(sc.is_ok() || t.key == "trace", "{}", t.key);
        }
        for r in RETRIES {
            let sc = crate::sim::Scenario::from_query(&format!("retry={}", r.key)).unwrap();
            assert_eq!(sc.retry, r.value);
        }
    }
}
