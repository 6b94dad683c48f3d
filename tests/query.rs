//! The query-string contract: round trips, clear messages naming the parameter, lenient clamping,
//! and no panic, hang or runaway run for any input.

use proptest::prelude::*;
use ratelimit_playground::sim::query::known_keys;
use ratelimit_playground::sim::{report, Scenario};

#[test]
fn every_problem_names_its_parameter_and_the_allowed_range() {
    for (query, expected) in [
        ("refill=0", "refill: 0 is out of range; allowed: from 0.001 to 1000000 tokens/s"),
        ("capacity=2.5", "capacity: '2.5' must be a whole number; allowed: from 1 to 1000000 tokens"),
        ("rtt=abc", "rtt: 'abc' is not a number; allowed: from 0 to 1000 ms"),
        ("capacity=-5", "capacity: -5 is out of range; allowed: from 1 to 1000000 tokens"),
        ("store=redis", "store: 'redis' is not one of local | race | atomic | async | sync | replica_read"),
        ("store=sync&nodes=2", "store: 'sync' is Kong's policy: redis and runs with algo=kong only"),
        (
            "algo=kong&sync_rate=-1",
            "sync_rate: -1 is out of range; allowed: from 0 to 3600 s (0 for Kong's -1: every request)",
        ),
        ("outage=9-3", "outage: '9-3' is not START-END in seconds with START < END ≤ 86400 (e.g. 10-20), or none"),
        ("rate=1&rate=2", "rate: is given more than once; the last value is used"),
        ("backoff_base=500&backoff_cap=100", "backoff_cap: must be at least backoff_base"),
    ] {
        assert_eq!(Scenario::from_query(query).unwrap_err().to_string(), expected, "{query}");
    }
    let unknown = Scenario::from_query("frobnicate=1").unwrap_err();
    assert_eq!(unknown.param, "frobnicate");
    assert!(unknown.message.starts_with("is not a known parameter; known: algo, capacity"));
}

#[test]
fn lenient_parsing_clamps_ignores_and_says_so() {
    let (sc, notices) = Scenario::read("nodes=99&rate=abc&bogus=1&capacity=5");
    assert_eq!((sc.nodes, sc.capacity), (16, 5));
    assert_eq!(sc.rate, Scenario::default().rate);
    let named: Vec<&str> = notices.iter().map(|n| n.key.as_str()).collect();
    assert_eq!(named, ["nodes", "rate", "bogus"]);
    assert!(notices[0].notice().message.ends_with("; using 16"), "{:?}", notices[0]);
    let (sc, notices) = Scenario::read("store=sync&nodes=3");
    assert_eq!(
        sc.store,
        ratelimit_playground::sim::StoreMode::Async,
        "the nearest to Kong's sync for another algorithm"
    );
    assert_eq!(notices[0].notice().message, "'sync' is Kong's policy: redis and runs with algo=kong only; using async");
    let (sc, notices) = Scenario::read("capacity=-5&refill=-0.5");
    assert_eq!((sc.capacity, sc.refill.milli()), (1, 1), "a negative number is clamped to the minimum");
    assert!(notices[0].notice().message.ends_with("out of range; allowed: from 1 to 1000000 tokens; using 1"));
}

#[test]
fn percent_encoded_and_question_mark_prefixed_queries_parse() {
    let sc = Scenario::from_query("?algo=sliding%5Fwindow&outage=1%2D2").unwrap();
    assert_eq!(sc.to_query(), "algo=sliding_window&outage=1-2");
}

#[test]
fn the_short_query_of_the_default_scenario_is_empty() {
    assert_eq!(Scenario::default().to_query(), "");
    assert_eq!(Scenario::from_query("").unwrap(), Scenario::default());
}

/// A random query from the real keys with values that are sometimes valid, sometimes not.
fn query() -> impl Strategy<Value = String> {
    let value = prop_oneof![
        "[0-9]{1,6}",
        "[0-9]{1,3}\\.[0-9]{1,4}",
        "-?[0-9]{1,25}",
        "(token_bucket|fixed_window|sliding_window|sliding_log|gcra|constant|poisson|bursts|seam|clients|trace)",
        "(local|race|atomic|async|rr|random|none|exact|jitter|backoff|open|closed|0|1)",
        "[0-9]{1,3}-[0-9]{1,3}",
        ".{0,12}",
    ];
    let pair = (prop::sample::select(known_keys().split(", ").map(String::from).collect::<Vec<_>>()), value)
        .prop_map(|(k, v)| format!("{k}={v}"));
    prop::collection::vec(pair, 0..10).prop_map(|p| p.join("&"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parsing_never_panics_and_lenient_results_always_validate(q in query()) {
        let _ = Scenario::from_query(&q);
        let (sc, _) = Scenario::read(&q);
        if sc.traffic != ratelimit_playground::sim::TrafficShape::Trace {
            prop_assert!(sc.validate().is_ok(), "{}: {:?}", q, sc.validate());
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic(q in ".{0,200}") {
        let _ = Scenario::from_query(&q);
        let _ = Scenario::read(&q);
    }

    #[test]
    fn every_valid_query_round_trips_through_both_printed_forms(q in query()) {
        if let Ok(sc) = Scenario::from_query(&q) {
            prop_assert_eq!(Scenario::from_query(&sc.to_query()), Ok(sc.clone()));
            if sc.traffic != ratelimit_playground::sim::TrafficShape::Trace {
                prop_assert_eq!(Scenario::from_query(&sc.to_query_full()), Ok(sc.clone()));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_parsed_query_runs_without_panicking_or_is_refused_as_too_large(q in query()) {
        let (mut sc, _) = Scenario::read(&q);
        // Keep each case quick; the size guard itself is tested in the CLI tests.
        sc.duration = sc.duration.min(ratelimit_playground::sim::Nanos::from_secs(3));
        sc.rate = sc.rate.min(ratelimit_playground::sim::Rate::per_sec(20_000));
        let _ = report::run(&sc);
    }
}
