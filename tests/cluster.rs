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
