//! `ratelimit-sim redis --cluster` against a real three-primary Redis Cluster started here: one
//! limiter key is one hot primary, sharded counters spread the load over the primaries and admit
//! less than one exact limiter near the limit, both as the engine says; a key whose slot moves
//! mid-run (`ASK` while it migrates, then `MOVED`) is followed; no key is left on any node.

use super::redis_server::RedisServer;
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn urls(nodes: &[RedisServer]) -> String {
    nodes.iter().map(|n| n.url().to_string()).collect::<Vec<_>>().join(",")
}

fn sim_cluster(nodes: &[RedisServer], query: &str, extra: &[&str]) -> Output {
    let seeds = urls(nodes);
    let args = [&["redis", "--cluster", seeds.as_str(), "--query", query], extra].concat();
    Command::new(env!("CARGO_BIN_EXE_ratelimit-sim")).args(args).output().expect("ratelimit-sim runs")
}

fn parsed(o: &Output, nodes: &[RedisServer]) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for n in nodes {
        assert!(n.keys().is_empty(), "keys left on {}: {:?}", n.url(), n.keys());
    }
    serde_json::from_slice(&o.stdout).unwrap()
}

fn int(v: &Value) -> i64 {
    v.as_i64().unwrap_or_else(|| panic!("not an integer: {v}"))
}

/// 100 per 10 s, Poisson arrivals at exactly that rate, four nodes.
const NEAR_LIMIT: &str =
    "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=10&seed=3&duration=60&nodes=4&rtt=2&store=atomic";

#[test]
fn one_key_is_one_hot_primary_and_sharded_counters_spread_it_at_a_cost_as_simulated() {
    let nodes = RedisServer::cluster(3);
    // One key: every operation on the one primary that serves its slot.
    let v = parsed(&sim_cluster(&nodes, NEAR_LIMIT, &["--speed", "4"]), &nodes);
    let ops: Vec<i64> = v["keys"]["servers"].as_array().unwrap().iter().map(|s| int(&s["ops"])).collect();
    assert_eq!(ops.len(), 3);
    assert_eq!(ops.iter().filter(|&&o| o > 0).count(), 1, "one hot primary: {ops:?}");
    assert_eq!(ops.iter().sum::<i64>(), int(&v["measured"]["requests"]), "one script per request");
    assert_eq!((int(&v["measured"]["over_admitted"]), int(&v["simulated"]["over_admitted"])), (0, 0));

    // Three keys, one per primary, each allowed a third: the load spreads, and uneven shares
    // refuse what one limiter admits. Measured −15 against −15 simulated on an idle machine.
    let v = parsed(&sim_cluster(&nodes, NEAR_LIMIT, &["--speed", "4", "--shards", "3"]), &nodes);
    let servers = v["keys"]["servers"].as_array().unwrap();
    let total: i64 = servers.iter().map(|s| int(&s["ops"])).sum();
    for s in servers {
        let share = int(&s["ops"]) as f64 / total as f64;
        assert!((0.2..0.47).contains(&share), "each primary serves about a third: {servers:?}");
    }
    let keys = v["keys"]["keys"].as_array().unwrap();
    assert_eq!(keys.iter().map(|k| int(&k["limit"])).sum::<i64>(), 100);
    for k in keys {
        for field in ["ops", "admitted"] {
            let (m, s) = (int(&k["measured"][field]), int(&k["simulated"][field]));
            assert!((m - s).abs() <= 3, "{field} of {}: measured {m}, simulated {s}", k["key"]);
        }
    }
    let (m, s) = (int(&v["measured"]["over_admitted"]), int(&v["simulated"]["over_admitted"]));
    assert!(s <= -5, "near the limit, three keys admit less than one limiter: {s}");
    assert!((m - s).abs() as f64 <= (s.abs() as f64 * 0.2).max(3.0), "measured {m}, simulated {s}");
}

#[test]
fn a_key_whose_slot_moves_mid_run_is_followed_by_ask_then_moved() {
    let nodes = RedisServer::cluster(3);
    let q =
        "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=20&seed=5&duration=10&nodes=2&rtt=1&store=atomic";
    let child = Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["redis", "--cluster", &urls(&nodes), "--query", q])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The key, once written, and the primary that has it.
    let start = Instant::now();
    let (src, key) = loop {
        if let Some(found) = nodes.iter().find_map(|n| n.keys().into_iter().next().map(|k| (n, k))) {
            break found;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "the run wrote no key");
        std::thread::sleep(Duration::from_millis(50));
    };
    std::thread::sleep(Duration::from_secs(3));
    // Reshard its slot to another primary, as `redis-cli --cluster reshard` does: while the key
    // migrates the source answers ASK, afterwards every node answers MOVED.
    let dst = nodes.iter().find(|n| n.port() != src.port()).unwrap();
    let slot = src.call(&["CLUSTER", "KEYSLOT", &key]).int().unwrap().to_string();
    let (src_id, dst_id) = (src.node_id(), dst.node_id());
    dst.call(&["CLUSTER", "SETSLOT", &slot, "IMPORTING", &src_id]);
    src.call(&["CLUSTER", "SETSLOT", &slot, "MIGRATING", &dst_id]);
    std::thread::sleep(Duration::from_millis(500));
    src.call(&["MIGRATE", "127.0.0.1", &dst.port().to_string(), "", "0", "5000", "KEYS", &key]);
    for n in &nodes {
        n.call(&["CLUSTER", "SETSLOT", &slot, "NODE", &dst_id]);
    }
    let out = child.wait_with_output().unwrap();
    let v = parsed(&out, &nodes);
    let ops: Vec<i64> = v["keys"]["servers"].as_array().unwrap().iter().map(|s| int(&s["ops"])).collect();
    let at = |n: &RedisServer| nodes.iter().position(|m| m.port() == n.port()).unwrap();
    assert!(ops[at(src)] > 0 && ops[at(dst)] > 0, "served before and after the move: {ops:?}");
    // The same decisions as one key that never moved: the atomic script admits exactly the limit.
    assert_eq!(int(&v["measured"]["requests"]), int(&v["simulated"]["requests"]));
    assert_eq!(int(&v["measured"]["over_admitted"]), 0, "{v}");
}
