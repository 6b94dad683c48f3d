//! Sharded counters (`shards=K`, issue #38): one limiter split over K keys of a Redis Cluster,
//! each allowed a K-th of the limit, spreads the store's load over K keys and costs accuracy when
//! the keys' shares of the traffic are uneven — never admitting more than one exact limiter.

use ratelimit_playground::sim::report::{run, Report};
use ratelimit_playground::sim::shards::{key_of, limiter};
use ratelimit_playground::sim::{Limiter, Scenario, SimTime};

fn report(query: &str) -> Report {
    run(&Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"))).unwrap()
}

const NEAR_LIMIT: &str = "traffic=poisson&seed=3&duration=120&nodes=4&rtt=2&store=atomic";

#[test]
fn one_key_is_the_unsharded_limiter() {
    let q = format!("algo=fixed_window&limit=100&window=10&rate=10&{NEAR_LIMIT}");
    let (one, plain) = (report(&format!("{q}&shards=1")), report(&q));
    assert_eq!((one.admitted, one.rejected), (plain.admitted, plain.rejected));
    assert!(one.shards.is_none());
}

#[test]
fn the_keys_together_allow_exactly_the_limit() {
    for (q, total) in [("algo=fixed_window&limit=100&window=10", 100), ("capacity=20&refill=10", 20)] {
        let sc = Scenario::from_query(&format!("{q}&store=atomic&nodes=2")).unwrap();
        for k in [2, 3, 7, 16] {
            // Each key admits its share at once; the shares add up to the limit.
            let admitted: u64 = (0..k)
                .map(|i| {
                    let mut l = limiter(&sc, i, k);
                    (0..total).filter(|_| l.acquire(SimTime(0))).count() as u64
                })
                .sum();
            assert_eq!(admitted, total, "{q} over {k} keys");
        }
    }
}

#[test]
fn saturating_traffic_spreads_the_load_evenly_and_admits_exactly_the_limit() {
    // Four times the limit's rate: every key fills every window, so together they admit what one
    // exact limiter does, and each key serves about a K-th of the operations.
    let r = report(
        "algo=fixed_window&limit=100&window=10&rate=40&traffic=poisson&seed=3&duration=60&nodes=4&rtt=2&\
                    store=atomic&shards=4",
    );
    assert_eq!(r.over_admitted, 0);
    let shards = r.shards.expect("four keys");
    assert_eq!(shards.len(), 4);
    assert_eq!(shards.iter().map(|s| s.limit).sum::<u64>(), 100);
    let ops: Vec<u64> = shards.iter().map(|s| s.ops).collect();
    let mean = ops.iter().sum::<u64>() as f64 / 4.0;
    assert!(ops.iter().all(|&o| (o as f64 - mean).abs() < mean * 0.1), "{ops:?}");
    assert_eq!(ops.iter().sum::<u64>(), r.requests, "one script per request");
}

#[test]
fn near_the_limit_more_keys_admit_less_than_one_exact_limiter() {
    for policy in
        ["algo=fixed_window&limit=100&window=10", "algo=sliding_window&limit=100&window=10", "capacity=20&refill=10"]
    {
        for store in ["atomic", "race"] {
            let q = format!("{policy}&rate=10&traffic=poisson&seed=3&duration=120&nodes=4&rtt=2&store={store}");
            let base = report(&q).over_admitted;
            let under: Vec<i64> =
                [2, 4, 16].iter().map(|k| report(&format!("{q}&shards={k}")).over_admitted - base).collect();
            // Uneven shares refuse requests one limiter admits: more so the more keys.
            assert!(under[0] < 0 && under[0] > under[1] && under[1] > under[2], "{q}: {under:?}");
        }
    }
}

#[test]
fn get_then_set_reads_and_writes_its_own_key() {
    let r = report(
        "algo=fixed_window&limit=100&window=10&rate=40&traffic=poisson&seed=3&duration=30&nodes=4&rtt=2&\
                    store=race&shards=3",
    );
    let shards = r.shards.unwrap();
    // A request's GET and SET both reach its key: two operations per admitted request, one per
    // refused one.
    assert_eq!(shards.iter().map(|s| s.ops).sum::<u64>(), r.requests + r.admitted);
    assert_eq!(shards.iter().map(|s| s.admitted).sum::<u64>(), r.admitted);
}

#[test]
fn a_request_s_key_is_a_fixed_hash_of_its_id() {
    let keys: Vec<usize> = (0..8).map(|id| key_of(id, 4)).collect();
    assert_eq!(keys, (0..8).map(|id| key_of(id, 4)).collect::<Vec<_>>());
    assert!(keys.iter().any(|&k| k != keys[0]), "{keys:?}");
}

#[test]
fn shards_outside_the_atomic_script_and_get_then_set_are_refused() {
    for q in ["store=async&nodes=2&shards=2", "store=local&shards=2", "algo=nginx&store=atomic&nodes=2&shards=2"] {
        let e = run(&Scenario::from_query(q).unwrap()).unwrap_err();
        assert_eq!(e.param, "shards", "{q}");
        assert!(e.message.contains("store=atomic or store=race"), "{q}: {}", e.message);
    }
    // Every key must allow at least one request.
    let e = run(&Scenario::from_query("algo=fixed_window&limit=10&window=1&store=atomic&nodes=2&shards=16").unwrap())
        .unwrap_err();
    assert!(e.message.contains("16 keys cannot split a limit of 10"), "{}", e.message);
    let e = Scenario::from_query("store=atomic&shards=17").unwrap_err();
    assert!(e.to_string().contains("shards"), "{e}");
}

#[test]
fn the_sharded_story_shows_what_it_says() {
    use ratelimit_playground::present::cluster::failures::SHARDED;
    let r = report(SHARDED.query);
    // "about 24 fewer than one exact limiter by 60 s", "25 each", "a quota bar per key".
    assert!((-28..=-20).contains(&r.over_admitted), "{}", r.over_admitted);
    let shards = r.shards.unwrap();
    assert_eq!(shards.iter().map(|s| s.limit).collect::<Vec<_>>(), [25; 4]);
    assert!(SHARDED.watch.contains("about 24 fewer"));
    let one = report(&SHARDED.query.replace("shards=4", "shards=1"));
    assert_eq!(one.over_admitted, 0, "split over 1 key it is exact again");
}

#[test]
fn the_topology_draws_each_key_s_quota_against_its_own_share() {
    use ratelimit_playground::present::cluster::failures::SHARDED;
    use ratelimit_playground::present::cluster::pictures::picture;
    use ratelimit_playground::sim::Simulation;
    let sc = Scenario::from_query(SHARDED.query).unwrap();
    let mut sim = Simulation::new(&sc);
    // Late in a window at the limit's rate: the keys are mostly spent, and unevenly.
    sim.step_until(SimTime(59_900_000_000));
    let keys = picture(&sim, false, 1.0).key_quota;
    assert_eq!(keys.len(), 4);
    assert!(keys.iter().all(|&q| q < 0.5), "{keys:?}");
    sim.step_until(SimTime(60_000_000_000 + 1));
    assert!(picture(&sim, false, 1.0).key_quota.iter().all(|&q| q > 0.9), "a new window");
}
