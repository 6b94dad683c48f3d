//! redis-cell 0.2.2 (built from crates.io by `scripts/bootstrap.sh --test`) loaded into the
//! test's redis-server, whose wall clock the test sets before every command (redis_cell/
//! fake_clock.c, preloaded: the module's clock and Redis's key expiry both read it), against
//! `algo=redis_cell`: all five fields of every `CL.THROTTLE` reply alike, and the command the
//! production panel exports runs as printed.

use super::clocked_redis::ClockedRedis;
use super::model;
use ratelimit_playground::production::{export, Policy};
use ratelimit_playground::redis::conn::Conn;
use ratelimit_playground::redis::resp::Reply;
use ratelimit_playground::sim::products::redis_cell::{CellQuota, RedisCell};
use ratelimit_playground::sim::{Limiter, Scenario, SimTime};
use std::path::PathBuf;
use std::time::Duration;

/// Where the bootstrap builds the module.
fn module() -> PathBuf {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache"));
    let so = cache.join("ratelimit-playground/redis-cell-0.2.2/libredis_cell.so");
    assert!(so.is_file(), "{} is missing: scripts/bootstrap.sh --test builds it", so.display());
    so
}

fn ints(reply: &Reply) -> Vec<i64> {
    reply.items().iter().map(|r| r.int().unwrap_or_else(|| panic!("not an integer: {r:?}"))).collect()
}

#[test]
fn redis_cell_replies_as_the_model_field_by_field() {
    let clock = ClockedRedis::start(&["--loadmodule", module().to_str().unwrap()]);
    let server = &clock.server;
    let mut conn = Conn::open(&server.url(), None, Duration::from_secs(5)).expect("connect");
    // Replies, refusals, and requests that found their key expired (each run's first excepted).
    let (mut total, mut refused, mut gone) = (0, 0, 0);
    for policy in ["capacity=10&refill=5", "capacity=1&refill=3", "capacity=20&refill=12.5", "capacity=3&refill=0.3"] {
        for (i, traffic) in [
            "traffic=poisson&rate=40&duration=60&seed=5",
            "traffic=bursts&rate=300&burst_on=0.3&burst_off=1&duration=30",
            "traffic=constant&rate=6&duration=30",
            "traffic=poisson&rate=3.1&duration=120&seed=9",
        ]
        .iter()
        .enumerate()
        {
            let query = format!("algo=redis_cell&{policy}&{traffic}");
            let sc = Scenario::from_query(&query).unwrap();
            let q = CellQuota::of(&Policy::of(&sc));
            let key = format!("cell:{total}:{i}");
            let args = [q.max_burst.to_string(), q.count.to_string(), q.period_s.to_string()];
            let mut ours = RedisCell::new(q);
            let mut engine = sc.limiter();
            for d in model::decisions(&query) {
                let t = d.at.as_nanos();
                clock.set(t);
                let exists = conn.call(&["EXISTS", &key]).unwrap().int() == Some(1);
                let theirs = ints(&conn.call(&["CL.THROTTLE", &key, &args[0], &args[1], &args[2], "1"]).unwrap());
                assert!(ours.acquire(SimTime(t)) == d.allowed, "{query}: the engine ran this model");
                assert_eq!(ours.reply().to_vec(), theirs, "{query}: the reply at {t} ns");
                assert_eq!(engine.acquire(SimTime(t)), d.allowed, "{query} at {t}");
                refused += usize::from(!d.allowed);
                gone += usize::from(!exists && t > 0);
                total += 1;
            }
            assert_eq!(conn.call(&["DEL", &key]).unwrap().int(), Some(1), "{query}: the key was there");
        }
        // The command the panel exports runs as printed.
        let sc = Scenario::from_query(&format!("algo=redis_cell&{policy}")).unwrap();
        let snippet = export(&sc, "redis-cell").unwrap().snippet;
        let line = snippet.lines().find(|l| l.starts_with("CL.THROTTLE")).expect("the command");
        let reply = ints(&conn.call(&line.split(' ').collect::<Vec<_>>()).unwrap());
        assert_eq!(reply[..3], [0, sc.capacity as i64, sc.capacity as i64 - 1], "{line}");
        conn.call(&["DEL", line.split(' ').nth(1).unwrap()]).unwrap();
    }
    assert!(refused > 1_000, "too few refusals to tell: {refused}");
    assert!(server.keys().is_empty(), "every key removed");
    println!(
        "redis-cell 0.2.2: {total} replies ({refused} refused, {gone} finding their key expired), every field alike"
    );
}
