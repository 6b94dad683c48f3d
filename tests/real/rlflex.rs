//! rate-limiter-flexible 11.4 from npm (installed by `scripts/bootstrap.sh --test` at a pinned
//! version), its `RateLimiterMemory` driven under `@sinonjs/fake-timers` by
//! `tests/real/node/rlflex.mjs`, against `algo=rlflex`: every decision, every refusal's
//! `Retry-After` and every admitted request's hold (`execEvenly`) alike; and its
//! `RateLimiterRedis` (ioredis) on a redis-server whose clock the test sets, the same way. The
//! exported middleware runs as printed with either.

use super::clocked_redis::ClockedRedis;
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

/// Checks one scenario: the library on the model's arrival times answers as the model, with
/// `redis`'s RateLimiterRedis when the scenario says `storage=redis`.
fn check(query: &str, redis: Option<&ClockedRedis>) -> usize {
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
    let mut input = json!({ "options": options, "times_ns": times, "epoch_s": EPOCH_S });
    assert_eq!(o.redis, redis.is_some(), "{query}: the storage");
    if let Some(r) = redis {
        input["redis"] = json!({ "url": r.server.url().to_string(), "clock": r.clock_file() });
    }
    let out = model::run(
        "node",
        &[script],
        &[("RLP_NODE_MODULES", model::cache("node-real/node_modules").as_os_str())],
        input.to_string().as_bytes(),
    );
    let out: Value = serde_json::from_slice(&out).unwrap_or_else(|e| {
        panic!("{query}: {e} in {}", String::from_utf8_lossy(&out[out.len().saturating_sub(300)..]))
    });
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
    let n = model::every_shape("rlflex", &policies, |q| check(q, None));
    println!(
        "rate-limiter-flexible 11.4.0 (RateLimiterMemory): {n} decisions, Retry-After headers and holds, 100 % alike"
    );
}

#[test]
fn rate_limiter_redis_decides_as_the_model_on_redis_s_clock() {
    let redis = ClockedRedis::start(&[]);
    let policies = [
        "limit=5&window=1",
        "limit=30&window=11",
        // Floored to 2 s in Redis; under 1 s, no expiry at all; a block under 1 s none either.
        "limit=7&window=2.5",
        "limit=3&window=0.5",
        "limit=5&window=1&block=3.5",
        "limit=5&window=2&block=0.5",
        "limit=10&window=2&exec_evenly=1",
    ]
    .map(|p| format!("storage=redis&{p}"));
    let n = model::every_shape("rlflex", &policies.each_ref().map(|p| p.as_str()), |q| check(q, Some(&redis)));
    assert!(redis.server.keys().is_empty(), "every key removed: {:?}", redis.server.keys());
    println!("rate-limiter-flexible 11.4.0 (RateLimiterRedis, ioredis 6.1.0): {n} decisions, Retry-After headers and holds, 100 % alike");
    // The exported middleware runs as printed against this Redis (its REDIS_URL), twice.
    let dir = std::env::temp_dir().join(format!("rlp-rlflex-redis-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = redis.server.url().to_string();
    for (query, printed) in [
        ("algo=rlflex&storage=redis&limit=100&window=60", "100 of 101 served at once; retry after 60 s"),
        ("algo=rlflex&storage=redis&limit=7&window=11&block=30", "7 of 8 served at once; retry after 30 s"),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("rlflex", &Policy::of(&sc), &sc.product).unwrap().snippet;
        let file = dir.join("limiter.js");
        std::fs::write(&file, &program).unwrap();
        let envs =
            [("NODE_PATH", model::cache("node-real/node_modules").into_os_string()), ("REDIS_URL", url.clone().into())];
        let envs: Vec<(&str, &std::ffi::OsStr)> = envs.iter().map(|(k, v)| (*k, v.as_os_str())).collect();
        for run in 0..2 {
            let out = String::from_utf8(model::run("node", &[file.to_str().unwrap()], &envs, b"")).unwrap();
            assert!(out.starts_with(printed), "{query}, run {run}: {out}\n{program}");
        }
        redis.server.call(&["FLUSHALL"]);
    }
    std::fs::remove_dir_all(&dir).unwrap();
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
