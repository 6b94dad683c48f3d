//! Compare mode: every algorithm on one trace, and the sliding counter's disagreement with the log.
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::sim::compare::ALGORITHMS;
use ratelimit_playground::sim::{Comparison, Scenario, SimTime};

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
fn the_counter_disagrees_with_the_log_under_overload_and_agrees_below_the_limit() {
    // 8/s offered against 50 per 10 s keeps every decision at the margin, where the counter's
    // assumption that the previous window's requests were spread evenly flips decisions both
    // ways (about a third of them here).
    let busy = Scenario::from_query("traffic=poisson&rate=8&limit=50&window=10").unwrap();
    let mut c = Comparison::new(&busy, 60);
    c.step_until(SimTime::from_secs(300));
    let d = c.disagreement();
    assert!(d.compared > 2_000, "{d:?}");
    assert!(d.counter_admitted_log_rejected > 0 && d.counter_rejected_log_admitted > 0, "{d:?}");
    assert!(d.rate() > 0.05 && d.rate() < 0.5, "{d:?}");

    let calm = Scenario::from_query("rate=2&capacity=10&refill=5").unwrap();
    let mut c = Comparison::new(&calm, 60);
    c.step_until(SimTime::from_secs(60));
    assert_eq!(c.disagreement().total(), 0);
}

#[test]
fn token_bucket_and_gcra_columns_agree_exactly() {
    let sc = Scenario::from_query("traffic=bursts&rate=50&capacity=7&refill=3&retry=exact").unwrap();
    let mut c = Comparison::new(&sc, 60);
    c.step_until(SimTime::from_secs(40));
    assert_eq!(c.sims()[0].metrics().totals, c.sims()[1].metrics().totals);
}
