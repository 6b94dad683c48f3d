//! Laravel's `RateLimiter` 8.83 from Debian (`php-illuminate-cache`, installed by
//! `scripts/bootstrap.sh --test` with `php-cli`), driven under Carbon's test clock by
//! `tests/real/php/replay.php` as the `throttle` middleware drives it, against `algo=laravel`:
//! every decision, `Retry-After` and `X-RateLimit-Remaining` alike. The exported program runs as
//! printed.

use super::model;
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::laravel::Attempts;
use ratelimit_playground::sim::products::{config, ProductOptions};
use ratelimit_playground::sim::time::{SimTime, EPOCH_S};
use ratelimit_playground::sim::{Limiter, Scenario};
use serde_json::{json, Value};

/// `php` with `args`, `input` on stdin: its stdout.
fn php(args: &[&str], input: &[u8]) -> Vec<u8> {
    model::run("php", args, &[], input)
}

/// One answer as both sides give it: admitted, `Retry-After`, `X-RateLimit-Remaining`.
type Answer = (bool, Option<u64>, u64);

/// The model's answers for requests at `times` (ns), one client.
fn ours(query: &str, times: &[u64]) -> Vec<Answer> {
    let mut limiter = Scenario::from_query(query).unwrap().limiter();
    times
        .iter()
        .map(|&t| {
            let d = limiter.decide(SimTime(t));
            let headers = limiter.headers(&d);
            let header = |name: &str| headers.iter().find(|(n, _)| *n == name).map(|(_, v)| v.parse::<u64>().unwrap());
            (d.allowed, header("Retry-After"), header("X-RateLimit-Remaining").unwrap())
        })
        .collect()
}

/// Checks one scenario: Laravel on the model's arrival times answers as the model.
fn check(query: &str) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let Attempts { max_attempts, decay_s } = Attempts::of(&Policy::of(&sc));
    let times: Vec<u64> = model::decisions(query).iter().map(|d| d.at.as_nanos()).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/php/replay.php");
    let input = json!({ "max_attempts": max_attempts, "decay_s": decay_s, "times_ns": times, "epoch_s": EPOCH_S });
    let out: Value = serde_json::from_slice(&php(&[script], input.to_string().as_bytes())).unwrap();
    let real: Vec<Answer> = out["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["allowed"].as_bool().unwrap(), d["retry_after"].as_u64(), d["remaining"].as_u64().unwrap()))
        .collect();
    let ours = ours(query, &times);
    model::assert_alike(&format!("{query} (max {max_attempts}, decay {decay_s} s)"), &times, &ours, &real, |a| a.0);
    assert!(out["versions"]["php-illuminate-cache"].as_str().unwrap().starts_with("8.83."), "{}", out["versions"]);
    ours.len()
}

#[test]
fn laravel_8_rate_limiter_decides_as_the_model() {
    // No server, but seconds of PHP on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    let n = model::every_shape("laravel", &["limit=5&window=1", "limit=30&window=11", "limit=7&window=2.5"], check);
    println!("Laravel 8.83 RateLimiter: {n} decisions and headers, 100 % alike");
}

#[test]
fn the_exported_php_program_runs_as_printed() {
    for (query, served, retry_s) in [
        ("algo=laravel&limit=100&window=60", "100 of 101 served at once", 60),
        ("algo=laravel&limit=7&window=11", "7 of 8 served at once", 11),
        ("capacity=10&refill=5", "10 of 11 served at once", 2),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("laravel", &Policy::of(&sc), &ProductOptions::default()).unwrap().snippet;
        let out = String::from_utf8(php(&[], program.as_bytes())).unwrap();
        assert!(out.starts_with(served), "{query}: {out}\n{program}");
        // Laravel counts whole wall-clock seconds: when a second ticks between the first attempt
        // and `availableIn`, the wait reads one less. Anything else is a wrong export.
        let said: u64 = out
            .trim_end()
            .strip_suffix(" s")
            .and_then(|s| s.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0);
        assert!(said == retry_s || said + 1 == retry_s, "{query}: retry after {said} s, not {retry_s} s\n{out}");
    }
}
