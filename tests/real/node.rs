//! express-rate-limit 8 and @upstash/ratelimit 2 from npm (installed by `scripts/bootstrap.sh
//! --test` at pinned versions), driven in Node under fake timers by `tests/real/node/replay.mjs`,
//! against `algo=express` and `algo=upstash_*`: every decision alike. Upstash's scripts run on a
//! redis-server of the test's own.

use super::model;
use super::redis_server::RedisServer;
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::express::ExpressOptions;
use ratelimit_playground::sim::products::upstash::UpstashLimiter;
use ratelimit_playground::sim::Scenario;
use serde_json::{json, Value};
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs replay.mjs on `input` and returns its output.
fn replay(input: &Value) -> Value {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/node/replay.mjs");
    let mut child = Command::new("node")
        .arg(script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node is on this machine kind");
    child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "replay.mjs failed (scripts/bootstrap.sh --test installs its packages): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("replay.mjs prints JSON")
}

/// The product's parameters as the exported config gives them, in replay.mjs's terms.
fn params(sc: &Scenario) -> (&'static str, Value) {
    let p = Policy::of(sc);
    match sc.algo.textbook(&sc.product) {
        _ if Some(sc.algo) == ratelimit_playground::sim::products::find("express") => {
            let o = ExpressOptions::of(&p);
            ("express", json!({ "windowMs": o.window_ms, "limit": o.limit }))
        }
        _ => match UpstashLimiter::of(&p) {
            UpstashLimiter::Fixed { tokens, window_ms } => {
                ("upstash_fixed", json!({ "tokens": tokens, "window": UpstashLimiter::duration(window_ms) }))
            }
            UpstashLimiter::Sliding { tokens, window_ms } => {
                ("upstash_sliding", json!({ "tokens": tokens, "window": UpstashLimiter::duration(window_ms) }))
            }
            UpstashLimiter::Token { refill_rate, interval_ms, max_tokens } => (
                "upstash_token",
                json!({ "refillRate": refill_rate, "interval": UpstashLimiter::duration(interval_ms), "maxTokens": max_tokens }),
            ),
        },
    }
}

/// Checks one scenario: the library on the model's arrival times decides as the model.
fn check(query: &str, redis_port: u16) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let decided = model::decisions(query);
    // Milliseconds with the nanoseconds as a fraction: the libraries see Date.now() = floor.
    let times: Vec<f64> = decided.iter().map(|d| d.at.as_nanos() as f64 / 1e6).collect();
    let (product, params) = params(&sc);
    let out = replay(&json!({ "product": product, "params": params, "times_ms": times, "redis_port": redis_port }));
    let real: Vec<bool> =
        out["decisions"].as_array().unwrap().iter().map(|d| d["allowed"].as_bool().unwrap()).collect();
    let ours: Vec<bool> = decided.iter().map(|d| d.allowed).collect();
    let (alike, differ) = model::agreement(&ours, &real);
    assert!(
        differ.is_empty(),
        "{query} ({product} {params}): {alike} of {} alike; first differences at ms {:?}",
        ours.len(),
        differ.iter().take(10).map(|&i| times[i]).collect::<Vec<_>>()
    );
    ours.len()
}

#[test]
fn express_rate_limit_8_decides_as_the_model() {
    // No server, but seconds of Node on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    let mut n = 0;
    for traffic in model::TRAFFIC {
        for policy in ["limit=5&window=1", "capacity=10&refill=5", "limit=7&window=2.5"] {
            n += check(&format!("algo=express&{policy}&{traffic}"), 0);
        }
    }
    println!("express-rate-limit 8.7.4: {n} decisions, 100 % alike");
}

#[test]
fn upstash_ratelimit_2_decides_as_the_model_on_a_real_redis() {
    let server = RedisServer::start();
    let port = server.url().port;
    let mut n = 0;
    for algo in ["upstash_fixed", "upstash_sliding", "upstash_token"] {
        for traffic in model::TRAFFIC {
            for policy in ["limit=5&window=1", "capacity=10&refill=5", "capacity=4&refill=2.5"] {
                n += check(&format!("algo={algo}&{policy}&{traffic}"), port);
            }
        }
    }
    println!("@upstash/ratelimit 2.2.0: {n} decisions, 100 % alike");
}
