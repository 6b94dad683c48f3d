//! rate-limiter-flexible 11.4 from npm (installed by `scripts/bootstrap.sh --test` at a pinned
//! version), its `RateLimiterMemory` driven under `@sinonjs/fake-timers` by
//! `tests/real/node/rlflex.mjs`, against `algo=rlflex`: every decision, every refusal's
//! `Retry-After` and every admitted request's hold (`execEvenly`) alike. The exported middleware
//! runs as printed.

use super::model;
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::decision::Decision;
use ratelimit_playground::sim::products::config;
use ratelimit_playground::sim::products::rlflex::{retry_after, RlflexOptions};
use ratelimit_playground::sim::time::{Nanos, SimTime, EPOCH_S};
use ratelimit_playground::sim::{Limiter, Scenario};
use serde_json::{json, Value};

/// One answer: admitted, and then the hold (ms), else the `Retry-After` (s).
type Answer = (bool, u64);

/// The model's answers for requests at `times` (ns), one key.
fn ours(query: &str, times: &[u64]) -> Vec<Answer> {
    let mut limiter = Scenario::from_query(query).unwrap().limiter();
    times
        .iter()
        .map(|&t| {
            let v = limiter.check(SimTime(t));
            if v.allowed {
                return (true, u64::from(v.delay_ms));
            }
            let refused = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
            let headers = limiter.headers(&refused);
            (false, headers.iter().find(|(n, _)| *n == "Retry-After").expect("a Retry-After").1.parse().unwrap())
        })
        .collect()
}

/// Checks one scenario: the library on the model's arrival times answers as the model.
fn check(query: &str) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let o = RlflexOptions::of(&Policy::of(&sc), &sc.product);
    let mut options = json!({ "points": o.points, "duration": o.duration_ms as f64 / 1000.0 });
    if o.block_ms > 0 {
        options["blockDuration"] = json!(o.block_ms as f64 / 1000.0);
    }
    if o.exec_evenly {
        options["execEvenly"] = json!(true);
    }
    let times: Vec<u64> = model::decisions(query).iter().map(|d| d.at.as_nanos()).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/node/rlflex.mjs");
    let input = json!({ "options": options, "times_ns": times, "epoch_s": EPOCH_S });
    let out = model::run(
        "node",
        &[script],
        &[("RLP_NODE_MODULES", model::cache("node-real/node_modules").as_os_str())],
        input.to_string().as_bytes(),
    );
    let out: Value = serde_json::from_slice(&out).unwrap();
    let real: Vec<Answer> = out["decisions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| match d["allowed"].as_bool().unwrap() {
            true => (true, d["hold_ms"].as_u64().unwrap()),
            false => (false, retry_after(d["ms_before_next"].as_f64().unwrap())),
        })
        .collect();
    let ours = ours(query, &times);
    model::assert_alike(&format!("{query} ({options})"), &times, &ours, &real, |a| a.0);
    assert_eq!(out["versions"]["rate-limiter-flexible"], "11.4.0", "the version the bootstrap pins");
    ours.len()
}

#[test]
fn rate_limiter_flexible_11_decides_as_the_model() {
    // No server, but seconds of Node on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    let policies = [
        "limit=5&window=1",
        "limit=30&window=11",
        "limit=7&window=2.5",
        "limit=5&window=1&block=3.5",
        "limit=10&window=2&exec_evenly=1",
    ];
    let n = model::every_shape("rlflex", &policies, check);
    println!("rate-limiter-flexible 11.4.0: {n} decisions, Retry-After headers and holds, 100 % alike");
}

#[test]
fn the_exported_middleware_runs_as_printed() {
    let dir = std::env::temp_dir().join(format!("rlp-rlflex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (query, printed) in [
        ("algo=rlflex&limit=100&window=60", "100 of 101 served at once; retry after 60 s"),
        ("algo=rlflex&limit=7&window=11&block=30", "7 of 8 served at once; retry after 30 s"),
        ("algo=rlflex&limit=5&window=1&exec_evenly=1", "5 of 6 served at once; retry after 1 s"),
        ("capacity=10&refill=5", "10 of 11 served at once; retry after 2 s"),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("rlflex", &Policy::of(&sc), &sc.product).unwrap().snippet;
        let file = dir.join("limiter.js");
        std::fs::write(&file, &program).unwrap();
        let out = model::run(
            "node",
            &[file.to_str().unwrap()],
            &[("NODE_PATH", model::cache("node-real/node_modules").as_os_str())],
            b"",
        );
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with(printed), "{query}: {out}\n{program}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
