//! Python's `limits` 5.8 from PyPI (installed by `scripts/bootstrap.sh --test` at a pinned
//! version), the engine under Flask-Limiter and SlowAPI, driven under a fake `time.time()` by
//! `tests/real/python/replay.py`, against `algo=python_limits` with each `limits_strategy`:
//! every decision alike. The limit the driver parses is the string the production panel
//! exports, and the exported program runs as printed.

use super::model::{self, python};
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::python_limits::{export::limit_string, LimitsItem, EPOCH_S};
use ratelimit_playground::sim::products::{config, ProductOptions};
use ratelimit_playground::sim::Scenario;
use serde_json::{json, Value};

/// Checks one scenario: the library on the model's arrival times decides as the model.
fn check(query: &str) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let item = LimitsItem::of(&Policy::of(&sc));
    let decided = model::decisions(query);
    let times: Vec<u64> = decided.iter().map(|d| d.at.as_nanos()).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/python/replay.py");
    let input = json!({ "strategy": item.strategy_name(), "limit": limit_string(&item), "times_ns": times, "epoch_s": EPOCH_S });
    let out: Value = serde_json::from_slice(&python(&[script], input.to_string().as_bytes())).unwrap();
    assert_eq!(out["item"], json!({ "amount": item.amount, "expiry": item.expiry }), "{query}: the exported string");
    let real: Vec<bool> =
        out["decisions"].as_array().unwrap().iter().map(|d| d["allowed"].as_bool().unwrap()).collect();
    let ours: Vec<bool> = decided.iter().map(|d| d.allowed).collect();
    let what = format!("{query} ({} {})", item.strategy_name(), limit_string(&item));
    model::assert_alike(&what, &times, &ours, &real, |&a| a);
    ours.len()
}

#[test]
fn python_limits_5_decides_as_the_model_with_every_strategy() {
    // No server, but seconds of Python on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    let mut n = 0;
    for strategy in ["fixed_window", "moving_window", "sliding_window_counter"] {
        // Windows of one second, of seven (not a divisor of a day: the epoch's alignment
        // shows), and 2.5 s rounded to 3.
        let policies = ["limit=5&window=1", "limit=30&window=7", "limit=7&window=2.5"]
            .map(|p| format!("limits_strategy={strategy}&{p}"));
        n += model::every_shape("python_limits", &policies.each_ref().map(|p| p.as_str()), check);
    }
    println!("limits 5.8.0: {n} decisions, 100 % alike");
}

#[test]
fn the_exported_python_program_runs_as_printed() {
    for (query, served) in [
        ("algo=python_limits&limit=100&window=60", "100 of 101 served at once"),
        ("algo=python_limits&limits_strategy=moving_window&limit=7&window=3", "7 of 8 served at once"),
        ("algo=python_limits&limits_strategy=sliding_window_counter&limit=5&window=1", "5 of 6 served at once"),
        ("capacity=10&refill=5", "10 of 11 served at once"),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("python-limits", &Policy::of(&sc), &ProductOptions::default()).unwrap().snippet;
        let printed = String::from_utf8(python(&["-"], program.as_bytes())).unwrap();
        assert!(printed.starts_with(served), "{query}: {printed}\n{program}");
        assert!(printed.trim_end().ends_with(" s"), "{query}: {printed}");
    }
}
