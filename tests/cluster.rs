//! The cluster modes: what sharing (or not sharing) the limiter state across nodes does.

mod common;
use common::run;

const BASE: &str = "capacity=10&refill=100&rate=1000&duration=10";

#[test]
fn atomic_script_never_over_admits_at_any_node_count() {
    for nodes in [1, 2, 5, 16] {
        for algo in ["token_bucket", "fixed_window", "sliding_window", "sliding_log", "gcra"] {
            let rep = run(&format!("{BASE}&algo={algo}&nodes={nodes}&store=atomic&rtt=5&lb=random"));
            assert_eq!(rep.over_admitted, 0, "{algo} × {nodes}");
        }
    }
}

#[test]
fn get_then_set_over_admits_when_arrivals_overlap_the_round_trip() {
    let rep = run(&format!("{BASE}&nodes=4&store=race&rtt=5"));
    assert!(rep.over_admitted > 0);
    assert!(rep.lost_updates > 0);
}

#[test]
fn get_then_set_is_exact_when_arrivals_do_not_overlap_the_round_trip() {
    // 20 arrivals/s are 50 ms apart; GET + SET take 2 × 10 ms.
    let rep = run("capacity=5&refill=10&rate=20&duration=30&nodes=4&store=race&rtt=10");
    assert_eq!((rep.over_admitted, rep.lost_updates), (0, 0));
    assert!(rep.rejected > 0, "the limiter must be under pressure for this to mean anything");
}

#[test]
fn unshared_limiters_admit_about_n_times() {
    let one = run(&format!("{BASE}&nodes=1&store=local")).admitted as f64;
    for nodes in [2u32, 4, 8] {
        let n = run(&format!("{BASE}&nodes={nodes}&store=local")).admitted as f64;
        let ratio = n / one;
        assert!((ratio - f64::from(nodes)).abs() < 0.05 * f64::from(nodes), "{nodes} nodes: {ratio}×");
    }
}

#[test]
fn edge_overshoot_grows_with_nodes_and_with_delay() {
    let overshoot = |nodes: u32, rtt: u32| run(&format!("{BASE}&nodes={nodes}&store=async&rtt={rtt}")).over_admitted;
    let by_nodes: Vec<i64> = [2, 4, 8, 16].iter().map(|&n| overshoot(n, 20)).collect();
    let by_delay: Vec<i64> = [1, 10, 50, 200].iter().map(|&d| overshoot(8, d)).collect();
    assert!(by_nodes.windows(2).all(|w| w[0] < w[1]), "{by_nodes:?}");
    assert!(by_delay.windows(2).all(|w| w[0] < w[1]), "{by_delay:?}");
}

#[test]
fn decision_latency_is_what_each_mode_waits_for_the_store() {
    let p50 = |store: &str| run(&format!("{BASE}&nodes=2&store={store}&rtt=4")).latency_ns.p50;
    assert_eq!(p50("local"), 0);
    assert_eq!(p50("async"), 0);
    assert_eq!(p50("atomic"), 4_000_000);
    // Mostly rejections at this load: one GET, no SET.
    assert_eq!(p50("race"), 4_000_000);
}

fn admitted_during(query: &str, from: usize, to: usize) -> (u64, u64) {
    let rep = run(query);
    let rows = &rep.series[from..to];
    (rows.iter().map(|r| r.admitted).sum(), rows.iter().map(|r| r.requests).sum())
}

#[test]
fn fail_open_admits_everything_during_an_outage_and_fail_closed_nothing() {
    for store in ["atomic", "race"] {
        let q = format!("{BASE}&nodes=4&store={store}&rtt=2&timeout=50&outage=3-6");
        // Buckets 4 and 5 lie wholly inside the outage (bucket 3 still holds replies from before).
        let (admitted, requests) = admitted_during(&format!("{q}&fail=open"), 4, 6);
        assert_eq!(admitted, requests, "{store} fail-open");
        let (admitted, _) = admitted_during(&format!("{q}&fail=closed"), 4, 6);
        assert_eq!(admitted, 0, "{store} fail-closed");
    }
}

#[test]
fn a_timeout_shorter_than_the_round_trip_fails_every_request() {
    let rep = run(&format!("{BASE}&nodes=2&store=atomic&rtt=20&timeout=10&fail=closed"));
    assert_eq!((rep.admitted, rep.timeouts), (0, rep.requests));
}

// Kong's `policy: redis` (store=sync), read from its source: see
// src/sim/products/kong/redis_policy.rs.
const KONG: &str = "algo=kong&limit=100&window=60&rate=200&rtt=5&duration=120&store=sync";

#[test]
fn kong_with_sync_rate_minus_one_waits_for_redis_and_is_exact() {
    for nodes in [1, 4, 16] {
        let rep = run(&format!("{KONG}&nodes={nodes}&sync_rate=0&traffic=poisson"));
        assert_eq!(rep.over_admitted, 0, "{nodes} nodes");
        assert_eq!(rep.latency_ns.p50, 5_000_000, "every request waits one round trip");
    }
}

#[test]
fn a_kong_node_leaves_its_first_request_out_of_its_own_count() {
    // One node, 3 per second, syncing every 10 s: each second it INCRs once, caches the count
    // before that request with a delta of −1, and so admits 4 where Kong's limit is 3.
    let rep = run("algo=kong&limit=3&window=1&rate=10&nodes=1&store=sync&sync_rate=10&rtt=1&duration=10");
    assert_eq!((rep.admitted, rep.reference_admitted), (40, 30));
}

#[test]
fn kong_overshoot_grows_with_sync_rate_up_to_every_node_admitting_the_limit() {
    let over: Vec<i64> =
        ["0.1", "1", "10", "60"].iter().map(|s| run(&format!("{KONG}&nodes=4&sync_rate={s}")).over_admitted).collect();
    assert!(over[..3].windows(2).all(|w| w[0] < w[1]), "{over:?}");
    // Two windows; at most each node admits its limit plus its one uncounted request. From 10 s
    // on every node admits about that much.
    assert!(over[2..].iter().all(|&o| o > 2 * (4 * 100 - 100) - 20 && o <= 2 * (4 * 101 - 100)), "{over:?}");
}

#[test]
fn increments_a_kong_node_admits_while_its_sync_is_on_the_wire_are_lost() {
    use ratelimit_playground::sim::{Scenario, SimTime, Simulation};
    // One node, far under a daily limit: every request is admitted; it syncs every second and
    // each sync takes a 100 ms round trip, during which 10 admissions are counted and then
    // forgotten. Redis ends up short of what was admitted.
    let sc =
        Scenario::from_query("algo=kong&limit=100000&window=86400&rate=100&nodes=1&store=sync&sync_rate=1&rtt=100")
            .unwrap();
    let mut sim = Simulation::new(&sc);
    sim.step_until(SimTime::from_secs(30));
    let admitted = sim.metrics().totals.admitted;
    let counted = sim.gauge().current;
    assert_eq!(admitted, 3_001, "arrivals at 0, 10 ms, …, 30 s");
    assert!(counted < admitted - 250, "Redis counted {counted} of {admitted}");
}
