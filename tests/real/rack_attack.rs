//! Rack::Attack 6.6.1 from Debian (`ruby-rack-attack`, installed by `scripts/bootstrap.sh
//! --test` with `ruby-timecop` and `ruby-activesupport`), driven under Timecop's frozen clock by
//! `tests/real/ruby/replay.rb`, against `algo=rack_attack`: every decision and every
//! `Retry-After` alike. The throttle it sets is the one the production panel exports, and the
//! exported initializer runs as printed.

use super::model;
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::rack_attack::Throttle;
use ratelimit_playground::sim::products::{config, ProductOptions};
use ratelimit_playground::sim::time::{SimTime, EPOCH_S};
use ratelimit_playground::sim::{Limiter, Scenario};
use serde_json::{json, Value};

/// `ruby` with `args`, `input` on stdin: its stdout.
fn ruby(args: &[&str], input: &[u8]) -> Vec<u8> {
    model::run("ruby", args, &[], input)
}

/// The model's decision and `Retry-After` for each of `times` (ns), one client.
fn ours(query: &str, times: &[u64]) -> Vec<(bool, Option<u64>)> {
    let mut limiter = Scenario::from_query(query).unwrap().limiter();
    times
        .iter()
        .map(|&t| {
            let d = limiter.decide(SimTime(t));
            let retry = limiter.headers(&d).into_iter().find(|(name, _)| *name == "Retry-After");
            (d.allowed, retry.map(|(_, v)| v.parse().unwrap()))
        })
        .collect()
}

/// Checks one scenario: Rack::Attack on the model's arrival times decides as the model.
fn check(query: &str) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let Throttle { limit, period } = Throttle::of(&Policy::of(&sc));
    let times: Vec<u64> = model::decisions(query).iter().map(|d| d.at.as_nanos()).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/ruby/replay.rb");
    let input = json!({ "limit": limit, "period": period, "times_ns": times, "epoch_s": EPOCH_S });
    let out: Value = serde_json::from_slice(&ruby(&[script], input.to_string().as_bytes())).unwrap();
    let real: Vec<(bool, Option<u64>)> = out["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["allowed"].as_bool().unwrap(), d["retry_after"].as_u64()))
        .collect();
    let ours = ours(query, &times);
    model::assert_alike(&format!("{query} (limit {limit}, period {period})"), &times, &ours, &real, |a| a.0);
    assert_eq!(out["versions"]["rack-attack"], "6.6.1", "the version the bootstrap pins");
    ours.len()
}

#[test]
fn rack_attack_6_decides_as_the_model() {
    // No server, but seconds of Ruby on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    // Periods of one second, of eleven (the Unix epoch's alignment differs from simulated 0's:
    // 1 767 225 600 % 11 = 8), and 2.5 s rounded to 3.
    let n = model::every_shape("rack_attack", &["limit=5&window=1", "limit=30&window=11", "limit=7&window=2.5"], check);
    println!("Rack::Attack 6.6.1: {n} decisions and Retry-After headers, 100 % alike");
}

#[test]
fn the_exported_initializer_runs_as_printed() {
    for (query, printed) in [
        ("algo=rack_attack&limit=100&window=60", "100 of 101 served at once; retry after "),
        ("algo=rack_attack&limit=7&window=11", "7 of 8 served at once; retry after "),
        ("capacity=10&refill=5", "10 of 11 served at once; retry after "),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("rack-attack", &Policy::of(&sc), &ProductOptions::default()).unwrap().snippet;
        let out = String::from_utf8(ruby(&["-"], program.as_bytes())).unwrap();
        assert!(out.starts_with(printed) && out.trim_end().ends_with(" s"), "{query}: {out}\n{program}");
    }
}
