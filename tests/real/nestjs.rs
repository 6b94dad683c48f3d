//! @nestjs/throttler 6.7.1 from npm (installed by `scripts/bootstrap.sh --test` with NestJS 11 at
//! pinned versions, in a folder of its own), its `ThrottlerGuard` driven under
//! `@sinonjs/fake-timers` by `tests/real/node/nestjs.mjs`, against `algo=nestjs`: every status
//! and every header alike. The exported module is compiled with TypeScript and run as printed: it
//! starts its app on a free loopback port and sends it one request more than the limit.

use super::model;
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::decision::Decision;
use ratelimit_playground::sim::products::config;
use ratelimit_playground::sim::products::nestjs::Throttler;
use ratelimit_playground::sim::time::{Nanos, SimTime, EPOCH_S};
use ratelimit_playground::sim::{Limiter, Scenario};
use serde_json::{json, Map, Value};

/// Where the bootstrap installs NestJS and TypeScript.
fn node_modules() -> std::path::PathBuf {
    model::cache("node-nest/node_modules")
}

/// One answer as the guard gives it: the status and the headers it set.
fn answer(status: u64, headers: &[(&str, String)]) -> Value {
    let headers: Map<String, Value> =
        headers.iter().map(|(k, v)| (k.to_string(), json!(v.parse::<i64>().expect("a number")))).collect();
    json!({ "status": status, "headers": headers })
}

/// Checks one scenario: the guard on the model's arrival times answers as the model.
fn check(query: &str) -> usize {
    let sc = Scenario::from_query(query).unwrap();
    let t = Throttler::of(&Policy::of(&sc), &sc.product);
    let mut throttler = json!({ "ttl": t.ttl_ms, "limit": t.limit });
    if t.block_ms > 0 {
        throttler["blockDuration"] = json!(t.block_ms);
    }
    let times: Vec<u64> = model::decisions(query).iter().map(|d| d.at.as_nanos()).collect();
    let mut limiter = sc.limiter();
    let ours: Vec<Value> = times
        .iter()
        .map(|&ns| {
            let allowed = limiter.acquire(SimTime(ns));
            let d = Decision { allowed, remaining: 0, reset: Nanos::ZERO, retry_after: None };
            answer(if allowed { 200 } else { 429 }, &limiter.headers(&d))
        })
        .collect();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/real/node/nestjs.mjs");
    let input = json!({ "throttler": throttler, "times_ns": times, "epoch_s": EPOCH_S });
    let out = model::run(
        "node",
        &[script],
        &[("RLP_NEST_MODULES", node_modules().as_os_str())],
        input.to_string().as_bytes(),
    );
    let out: Value = serde_json::from_slice(&out).unwrap();
    let real = out["decisions"].as_array().unwrap();
    model::assert_alike(&format!("{query} ({throttler})"), &times, &ours, real, |d| d["status"] == 200);
    assert_eq!(out["versions"]["@nestjs/throttler"], "6.7.1", "the version the bootstrap pins");
    ours.len()
}

#[test]
fn nestjs_throttler_6_answers_as_the_model() {
    // No server, but seconds of Node on the cores: not beside nginx's real-time replay.
    let _alone = super::exclusive();
    // The ttl as the block (left out), a block longer and one shorter than the ttl.
    let policies = ["limit=5&window=1", "limit=30&window=11&block=20", "limit=7&window=2.5&block=0.8"];
    let n = model::every_shape("nestjs", &policies, check);
    println!("@nestjs/throttler 6.7.1: {n} answers (status and headers), 100 % alike");
}

#[test]
fn the_exported_nestjs_module_compiles_and_runs_as_printed() {
    let _alone = super::exclusive();
    let dir = std::env::temp_dir().join(format!("rlp-nestjs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // The module's imports resolve from a node_modules beside it, as in a project.
    let link = dir.join("node_modules");
    if !link.exists() {
        std::os::unix::fs::symlink(node_modules(), &link).unwrap();
    }
    let tsc = node_modules().join("typescript/bin/tsc");
    for (query, printed) in [
        ("algo=nestjs&limit=10&window=60", "10 of 11 served at once; retry after 60 s"),
        ("algo=nestjs&limit=7&window=11&block=30", "7 of 8 served at once; retry after 30 s"),
        ("capacity=10&refill=5", "10 of 11 served at once; retry after 2 s"),
    ] {
        let sc = Scenario::from_query(query).unwrap();
        let program = config("nestjs", &Policy::of(&sc), &sc.product).unwrap().snippet;
        std::fs::write(dir.join("app.module.ts"), &program).unwrap();
        let flags = [
            "--experimentalDecorators",
            "--emitDecoratorMetadata",
            "--module",
            "commonjs",
            "--target",
            "es2022",
            "--strict",
            "--skipLibCheck",
            "app.module.ts",
        ];
        let mut args = vec![tsc.to_str().unwrap()];
        args.extend(flags);
        let out = std::process::Command::new("node").args(&args).current_dir(&dir).output().expect("node runs tsc");
        assert!(out.status.success(), "{query}: tsc: {}\n{program}", String::from_utf8_lossy(&out.stdout));
        let out = model::run("node", &[dir.join("app.module.js").to_str().unwrap()], &[], b"");
        let out = String::from_utf8(out).unwrap();
        assert!(out.starts_with(printed), "{query}: {out}\n{program}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
