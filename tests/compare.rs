//! Compare mode: every algorithm on one trace, and the sliding counter's admissions against the log's.
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::sim::compare::ALGORITHMS;
use std::sync::Arc;

use ratelimit_playground::sim::{Comparison, Scenario, SimTime, Trace, TrafficShape};

#[test]
fn every_algorithm_sees_exactly_the_same_new_arrivals() {
    let sc = Scenario::from_query("traffic=poisson&rate=25&seed=4").unwrap();
    let mut c = Comparison::new(&sc, 120);
    c.step_until(SimTime::from_secs(30));
    let requests: Vec<u64> = c.sims().iter().map(|s| s.metrics().totals.requests).collect();
    assert_eq!(requests.len(), ALGORITHMS.len());
    assert!(requests.iter().all(|&r| r == requests[0] && r > 600), "{requests:?}");
    for (sim, algo) in c.sims().iter().zip(ALGORITHMS) {
        assert_eq!(sim.scenario().algo, algo);
    }
}

#[test]
fn under_steady_overload_the_counter_admits_a_tenth_fewer_than_the_log() {
    // 40/s against 10 per 2 s: the counter's estimate leaves one slot of each window unused.
    let sc = Scenario::from_query("rate=40&limit=10&window=2").unwrap();
    let mut c = Comparison::new(&sc, 60);
    c.step_until(SimTime::from_secs(300));
    let d = c.disagreement();
    let admitted = |i: usize| c.sims()[i].metrics().totals.admitted;
    assert_eq!((d.counter_admitted, d.log_admitted), (admitted(3), admitted(4)), "the columns' own counts");
    assert_eq!(d.log_admitted, 1_501, "the log admits exactly 10 per 2 s window (and the first at t = 0)");
    assert!((-0.11..-0.09).contains(&d.difference()), "{d:?}: {}", d.difference());

    // Below the limit nobody is refused: the same admissions.
    let calm = Scenario::from_query("rate=2&capacity=10&refill=5").unwrap();
    let mut c = Comparison::new(&calm, 60);
    c.step_until(SimTime::from_secs(60));
    let d = c.disagreement();
    assert_eq!((d.counter_admitted, d.difference()), (d.log_admitted, 0.0), "{d:?}");
}

#[test]
fn after_a_burst_at_a_window_end_the_counter_admits_more_than_the_log() {
    // Ten requests at 1.9 s fill the window [0, 2 s); ten more at 2.9 s. The exact log still
    // holds the ten of 1.9 s and refuses them all; the counter weighs the previous window by
    // (2 − 0.9) ÷ 2, as if its ten had been spread evenly, and lets four through.
    let times: String = [1_900; 10].iter().chain(&[2_900; 10]).map(|ms| format!("{ms}\n")).collect();
    let mut sc = Scenario::from_query("limit=10&window=2").unwrap();
    sc.traffic = TrafficShape::Trace;
    sc.trace = Some(Arc::new(Trace::parse(&times).unwrap()));
    let mut c = Comparison::new(&sc, 60);
    c.step_until(SimTime::from_secs(5));
    let d = c.disagreement();
    assert_eq!((d.counter_admitted, d.log_admitted), (14, 10), "{d:?}");
    assert!((d.difference() - 0.4).abs() < 1e-12, "{d:?}");
}

#[test]
fn token_bucket_and_gcra_columns_agree_exactly() {
    let sc = Scenario::from_query("traffic=bursts&rate=50&capacity=7&refill=3&retry=exact").unwrap();
    let mut c = Comparison::new(&sc, 60);
    c.step_until(SimTime::from_secs(40));
    assert_eq!(c.sims()[0].metrics().totals, c.sims()[1].metrics().totals);
}
