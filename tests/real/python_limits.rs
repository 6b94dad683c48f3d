//! Python's `limits` 5.8 from PyPI (installed by `scripts/bootstrap.sh --test` at a pinned
//! version), the engine under Flask-Limiter and SlowAPI, driven under a fake `time.time()` by
//! `tests/real/python/replay.py`, against `algo=python_limits` with each `limits_strategy`:
//! every decision alike, with `MemoryStorage` and with `RedisStorage` (`storage=redis`) on a
//! redis-server whose clock the test sets. The limit the driver parses is the string the
//! production panel exports, and the exported program runs as printed with either storage.

use super::clocked_redis::ClockedRedis;
use super::model::{self, python};
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::config;
use ratelimit_playground::sim::products::python_limits::{export::limit_string, LimitsItem, EPOCH_S};
use ratelimit_playground::sim::Scenario;
use serde_json::{json, Value};

/// Checks one scenario: the library on the model's arrival times decides as the model, in
/// `redis`'s RedisStorage when the scenario says `storage=redis`.
fn check(query: &str, redis: Option<&ClockedRedis>) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let item = LimitsItem::of(&Policy::of(&sc), &sc.product);
    let decided = model::decisions(query);
    let times: Vec<u64> = decided.iter().map(|d| d.at.as_nanos()).collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/python/replay.py");
    let mut input = json!({ "strategy": item.strategy_name(), "limit": limit_string(&item), "times_ns": times, "epoch_s": EPOCH_S });
    assert_eq!(item.redis, redis.is_some(), "{query}: the storage");
    if let Some(r) = redis {
        input["redis"] = json!({ "url": r.server.url().to_string(), "clock": r.clock_file() });
    }
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
        n += model::every_shape("python_limits", &policies.each_ref().map(|p| p.as_str()), |q| check(q, None));
    }
    println!("limits 5.8.0 (MemoryStorage): {n} decisions, 100 % alike");
}

#[test]
fn python_limits_5_with_redis_storage_decides_as_the_model_on_redis_s_clock() {
    let redis = ClockedRedis::start(&[]);
    let mut n = 0;
    for strategy in ["fixed_window", "moving_window", "sliding_window_counter"] {
        let policies = ["limit=5&window=1", "limit=30&window=7", "limit=7&window=2.5"]
            .map(|p| format!("limits_strategy={strategy}&storage=redis&{p}"));
        n += model::every_shape("python_limits", &policies.each_ref().map(|p| p.as_str()), |q| check(q, Some(&redis)));
    }
    assert!(redis.server.keys().is_empty(), "every key removed: {:?}", redis.server.keys());
    println!("limits 5.8.0 (RedisStorage, redis-py 8.2.0): {n} decisions, 100 % alike");
    // The exported program runs as printed against this Redis (its REDIS_URL).
    let url = redis.server.url().to_string();
    for (query, served) in [
        ("algo=python_limits&storage=redis&limit=100&window=60", "100 of 101 served at once; retry after 60 s"),
        ("algo=python_limits&storage=redis&limits_strategy=sliding_window_counter&limit=5&window=1", "5 of 6 served"),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("python-limits", &Policy::of(&sc), &sc.product).unwrap().snippet;
        let envs = [("PYTHONPATH", model::cache("python-real").into_os_string()), ("REDIS_URL", url.clone().into())];
        let envs: Vec<(&str, &std::ffi::OsStr)> = envs.iter().map(|(k, v)| (*k, v.as_os_str())).collect();
        for run in 0..2 {
            let printed = String::from_utf8(model::run("python3", &["-"], &envs, program.as_bytes())).unwrap();
            assert!(printed.starts_with(served), "{query}, run {run}: {printed}\n{program}");
        }
        redis.server.call(&["FLUSHALL"]);
    }
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
        let program = config("python-limits", &Policy::of(&sc), &sc.product).unwrap().snippet;
        let printed = String::from_utf8(python(&["-"], program.as_bytes())).unwrap();
        assert!(printed.starts_with(served), "{query}: {printed}\n{program}");
        assert!(printed.trim_end().ends_with(" s"), "{query}: {printed}");
    }
}
