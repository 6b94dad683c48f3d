//! Entering and leaving multi-node mode, the edge design's preset, and the scales of the
//! cluster's sliders (shared with the browser tests, which set sliders by value).

use crate::present::options::{algorithm_label, entry, is_windowed, TRAFFIC};
use crate::present::units::{format_number, format_secs, SliderScale};
use crate::sim::sweep::EDGE_PRESET;
use crate::sim::{Balancer, Nanos, Rate, Scenario, StoreMode};

/// Nodes behind the load balancer: 1–16.
pub const NODES: SliderScale = SliderScale::Linear { min: 1, max: 16 };
/// Node ↔ store round trip: 0.05–200 ms, logarithmic.
pub const RTT_MS: SliderScale = SliderScale::Log { min: 0.05, max: 200.0, steps: 800 };
/// How long a node waits for the store: 0.1 ms – 10 s, logarithmic.
pub const TIMEOUT_MS: SliderScale = SliderScale::Log { min: 0.1, max: 10_000.0, steps: 500 };
/// Kong's `sync_rate`: 0.02 s (its least) to 60 s, logarithmic.
pub const SYNC_RATE_S: SliderScale = SliderScale::Log { min: 0.02, max: 60.0, steps: 400 };
/// The `sync_rate` a node syncs at once it no longer waits for Redis on every request: 1 s.
pub const FIRST_SYNC_RATE_MS: u64 = 1_000;
/// When the outage starts: 0–120 s of simulated time.
pub const OUTAGE_START_S: SliderScale = SliderScale::Linear { min: 0, max: 120 };
/// How long the store stays down: 1–60 s.
pub const OUTAGE_LENGTH_S: SliderScale = SliderScale::Linear { min: 1, max: 60 };

/// When the store's primary dies: 1–120 s of simulated time.
pub const FAILOVER_AT_S: SliderScale = SliderScale::Linear { min: 1, max: 120 };
/// How far the replica lags behind: 0.1 ms – 10 s, logarithmic.
pub const REPLICA_LAG_MS: SliderScale = SliderScale::Log { min: 0.1, max: 10_000.0, steps: 500 };

/// How far apart the nodes' clocks are: 0–2 000 ms, linear.
pub const SKEW_MS: SliderScale = SliderScale::Linear { min: 0, max: 2_000 };

/// How many keys the limiter is split over: 1–16.
pub const SHARD_KEYS: SliderScale = SliderScale::Linear { min: 1, max: 16 };

/// Nodes a fresh multi-node view starts with.
pub const FIRST_NODES: u32 = 4;
/// The round trip a fresh multi-node view starts with: long enough that requests overlap it.
pub const FIRST_RTT: Nanos = Nanos::from_millis(20);
/// The least arrival rate a fresh multi-node view starts with: even constant arrivals then come
/// every 10 ms, inside the 20 ms round trip, so GET-then-SET visibly races ([`cannot_race`]).
pub const FIRST_RATE: Rate = Rate::per_sec(100);

/// Whether `sc` describes more than one limiter on one server: several nodes, or a store.
///
/// ```
/// use ratelimit_playground::present::cluster::presets::is_cluster;
/// use ratelimit_playground::sim::Scenario;
/// assert!(!is_cluster(&Scenario::default()));
/// assert!(is_cluster(&Scenario::from_query("nodes=2").unwrap()));
/// assert!(is_cluster(&Scenario::from_query("store=atomic").unwrap()));
/// ```
pub fn is_cluster(sc: &Scenario) -> bool {
    sc.nodes > 1 || sc.store != StoreMode::Local
}

/// Turns a single-node scenario into the multi-node view's opening one: four nodes sharing the
/// store with GET then SET over a 20 ms round trip, at least 40 requests/s. A scenario that is
/// already a cluster is left as it is.
pub fn enter(sc: &mut Scenario) {
    if is_cluster(sc) {
        return;
    }
    sc.nodes = FIRST_NODES;
    sc.store = StoreMode::Race;
    sc.rtt = FIRST_RTT;
    sc.rate = sc.rate.max(FIRST_RATE);
}

/// Why GET-then-SET cannot race on `sc`, when it cannot: constant arrivals no closer together than
/// the round trip (and no retries to add any), so every read comes after the previous request's
/// write and over-admission stays 0 — said with the numbers and what would make them overlap.
///
/// A request's GET reads the count at `t + up` and its SET writes it back at `t + rtt + up`; the
/// next request reads stale only if it arrives within `rtt` of it.
///
/// ```
/// use ratelimit_playground::present::cluster::presets::cannot_race;
/// use ratelimit_playground::sim::Scenario;
/// let sc = |q| Scenario::from_query(q).unwrap();
/// assert!(cannot_race(&sc("nodes=4&store=race&rtt=5&rate=200")).unwrap().starts_with("These arrivals cannot race"));
/// assert!(cannot_race(&sc("nodes=4&store=race&rtt=5&rate=200&traffic=poisson")).is_none());
/// assert!(cannot_race(&sc("nodes=4&store=race&rtt=5.001&rate=200")).is_none());
/// assert!(cannot_race(&sc("nodes=4&store=atomic&rtt=5&rate=200")).is_none());
/// ```
pub fn cannot_race(sc: &Scenario) -> Option<String> {
    use crate::sim::{RetryPolicy, TrafficShape};
    let spacing = 1_000_000_000_000 / sc.rate.milli().max(1);
    let racing = sc.nodes > 1 && sc.store == StoreMode::Race;
    let steady = sc.traffic == TrafficShape::Constant && sc.retry == RetryPolicy::GiveUp;
    if !(racing && steady && spacing >= sc.rtt.as_nanos()) {
        return None;
    }
    let ms = |ns: u64| format_number(ns as f64 / 1e6);
    let overlap = 1e9 / sc.rtt.as_nanos().max(1) as f64;
    Some(format!(
        "These arrivals cannot race: they come every {} ms and a GET-then-SET holds the count for one round trip \
         ({} ms), so each read comes after the previous write and nothing is over-admitted. Overlap them — a longer \
         round trip, more than {} requests/s, or Poisson or bursty traffic — and the race shows.",
        ms(spacing),
        ms(sc.rtt.as_nanos()),
        format_number(overlap)
    ))
}

/// Back to one server with its own limiter: one node, nothing shared, no outage.
pub fn leave(sc: &mut Scenario) {
    sc.nodes = 1;
    sc.store = StoreMode::Local;
    sc.outage = None;
}

/// The edge design in the 10–15 % overshoot band production accepts ([`EDGE_PRESET`]).
pub fn edge_preset() -> Scenario {
    Scenario::from_query(EDGE_PRESET).expect("the edge preset is a valid query")
}

/// The parameters of a cluster scenario in words, e.g. for the edge preset: "Sliding window
/// counter, 100 per 1 s · 200 requests/s, Poisson (random) · 8 nodes, random balancer · 50 ms
/// round trip".
pub fn describe(sc: &Scenario) -> String {
    let policy = if is_windowed(sc.algo) {
        format!("{} per {} s", sc.effective_limit(), format_number(sc.effective_window().as_secs_f64()))
    } else {
        format!("capacity {}, refill {}/s", sc.capacity, format_number(sc.refill.as_per_sec()))
    };
    let traffic = entry(&TRAFFIC, sc.traffic).map_or("", |t| t.label);
    let lb = if sc.lb == Balancer::Random { "random" } else { "round-robin" };
    format!(
        "{}, {policy} · {} requests/s, {traffic} · {} nodes, {lb} balancer · {} round trip",
        algorithm_label(sc.algo),
        format_number(sc.rate.as_per_sec()),
        sc.nodes,
        format_secs(sc.rtt.as_secs_f64()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entering_makes_a_racing_cluster_and_leaving_restores_one_server() {
        let mut sc = Scenario::default();
        enter(&mut sc);
        assert!(is_cluster(&sc) && sc.validate().is_ok());
        assert_eq!((sc.nodes, sc.store, sc.rate), (4, StoreMode::Race, FIRST_RATE));
        leave(&mut sc);
        assert!(!is_cluster(&sc));
    }

    #[test]
    fn the_opening_cluster_races_even_with_constant_arrivals() {
        let mut sc = Scenario::default();
        enter(&mut sc);
        assert_eq!(cannot_race(&sc), None);
        let natural = Scenario::from_query("nodes=4&store=race&rtt=5&rate=200").unwrap();
        assert_eq!(
            cannot_race(&natural).unwrap(),
            "These arrivals cannot race: they come every 5 ms and a GET-then-SET holds the count for one round trip \
             (5 ms), so each read comes after the previous write and nothing is over-admitted. Overlap them — a longer \
             round trip, more than 200 requests/s, or Poisson or bursty traffic — and the race shows."
        );
        // And the engine agrees: no lost update, nothing over-admitted.
        let run = crate::sim::report::run(&Scenario { duration: crate::sim::Nanos::from_secs(30), ..natural }).unwrap();
        assert_eq!((run.lost_updates, run.over_admitted), (0, 0));
        let run = crate::sim::report::run(&Scenario { duration: crate::sim::Nanos::from_secs(30), ..sc }).unwrap();
        assert!(run.lost_updates > 0 && run.over_admitted > 0, "{run:?}");
    }

    #[test]
    fn entering_keeps_a_cluster_the_link_already_described() {
        let mut sc = Scenario::from_query("nodes=9&store=atomic&rtt=3").unwrap();
        let before = sc.clone();
        enter(&mut sc);
        assert_eq!(sc, before);
    }

    #[test]
    fn slider_scales_reach_the_ends_of_the_issue_ranges() {
        assert_eq!(RTT_MS.value_at(0), 0.05);
        assert_eq!(RTT_MS.value_at(800), 200.0);
        assert_eq!(RTT_MS.value_at(RTT_MS.position_of(50.0)), 50.0);
        assert_eq!(RTT_MS.value_at(RTT_MS.position_of(1.0)), 1.0);
        assert_eq!(NODES.positions(), (1, 16));
        assert!(edge_preset().validate().is_ok());
    }

    #[test]
    fn the_edge_preset_is_described_by_its_own_numbers() {
        assert_eq!(
            describe(&edge_preset()),
            "Sliding window counter, 100 per 1 s · 200 requests/s, Poisson (random) · 8 nodes, random balancer · 50 ms round trip"
        );
    }
}
