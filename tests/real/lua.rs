//! The production panel's Lua scripts on a real redis-server, fed each trace's timestamps as
//! `now`, against `algo=redis_lua` (the scripts' arithmetic in the engine): every decision alike.

use super::model;
use super::redis_server::RedisServer;
use ratelimit_playground::production::{export, redis_lua, Policy, Shape};
use ratelimit_playground::redis::resp::Reply;
use ratelimit_playground::sim::products::redis_lua::now_arg;
use ratelimit_playground::sim::Scenario;

/// Every request of `query`'s run through the exported script on `server`, one fresh key.
fn real_decisions(server: &RedisServer, query: &str, key: &str) -> Vec<bool> {
    let sc = Scenario::from_query(query).unwrap();
    let p = Policy::of(&sc);
    let script = redis_lua::script(p.shape);
    // The script is the one the panel's Copy button copies.
    assert!(export(&sc, "redis-lua").unwrap().snippet.starts_with(script));
    let [a, b] = redis_lua::policy_args(&p);
    let mut conn =
        ratelimit_playground::redis::conn::Conn::open(&server.url(), None, std::time::Duration::from_secs(5))
            .expect("connect");
    let sha = conn.call(&["SCRIPT", "LOAD", script]).unwrap().text().expect("SCRIPT LOAD gives the sha");
    model::decisions(query)
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let now = now_arg(d.at);
            let id = format!("r{i}");
            let mut args = vec!["EVALSHA", &sha, "1", key, &a, &b, &now];
            if p.shape == Shape::SlidingLog {
                args.push(&id);
            }
            match conn.call(&args).unwrap() {
                r @ Reply::Array(_) => r.items().first().and_then(Reply::int) == Some(1),
                other => panic!("{query}: the script answered {other:?}"),
            }
        })
        .collect()
}

#[test]
fn the_exported_lua_scripts_decide_on_a_real_redis_exactly_as_the_model() {
    let server = RedisServer::start();
    let traffic = [
        "traffic=poisson&rate=40&duration=60&seed=3",
        "traffic=bursts&rate=200&burst_on=0.5&burst_off=1.5&duration=30",
        "traffic=seam&duration=60",
        "traffic=constant&rate=33.333&duration=60",
    ];
    let policies = ["capacity=10&refill=5", "capacity=7&refill=2.5&limit=20&window=3.7", "capacity=3&refill=0.3"];
    let mut table = Vec::new();
    for lua in ["token_bucket", "fixed_window", "sliding_window", "sliding_log"] {
        for (t, traffic) in traffic.iter().enumerate() {
            for (q, policy) in policies.iter().enumerate() {
                let query = format!("algo=redis_lua&lua={lua}&{policy}&{traffic}");
                let model: Vec<bool> = model::decisions(&query).iter().map(|d| d.allowed).collect();
                let real = real_decisions(&server, &query, &format!("rl:{lua}:{t}:{q}"));
                let (alike, differ) = model::agreement(&model, &real);
                assert!(
                    differ.is_empty(),
                    "{query}: {alike} of {} alike; first differences at requests {:?}",
                    model.len(),
                    &differ[..differ.len().min(10)]
                );
                table.push((lua, model.len()));
            }
        }
    }
    let total: usize = table.iter().map(|(_, n)| n).sum();
    println!("redis_lua: {total} decisions in {} runs, 100 % alike on redis-server", table.len());
    assert!(total > 20_000, "enough decisions to mean something: {total}");
}
