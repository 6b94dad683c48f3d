//! The token bucket against its analytic behaviour: passes min(λT, C + rT), first rejection at
//! C / (λ − r), long-run pass ratio r / λ.

mod common;
use common::run;
use ratelimit_playground::sim::{Limiter, Rate, SimTime, TokenBucket};

#[test]
fn passes_min_of_offered_and_capacity_plus_refill_times_duration() {
    for (c, r, lambda, secs) in
        [(10u64, 5u64, 20u64, 10u64), (100, 50, 60, 30), (1, 1, 1000, 5), (50, 10, 8, 20), (7, 3, 11, 13)]
    {
        let rep = run(&format!("capacity={c}&refill={r}&rate={lambda}&duration={secs}"));
        let offered = lambda * secs;
        // The last arrival is at (offered − 1)/λ: the bucket refills until then.
        let last = (offered - 1) as f64 / lambda as f64;
        let bound = (offered as f64).min(c as f64 + r as f64 * last);
        assert_eq!(rep.requests, offered);
        assert!(rep.admitted as f64 <= bound, "C={c} r={r} λ={lambda}: {} > {bound}", rep.admitted);
        assert!(rep.admitted as f64 >= bound.floor() - 1.0, "C={c} r={r} λ={lambda}: {} ≪ {bound}", rep.admitted);
    }
}

#[test]
fn first_rejection_comes_at_capacity_over_excess_rate() {
    for (c, r, lambda) in [(10u64, 5u64, 20u64), (100, 10, 30), (3, 1, 2)] {
        let mut b = TokenBucket::new(c, Rate::per_sec(r));
        let first = (0u64..)
            .map(|k| SimTime::from_nanos(k * 1_000_000_000 / lambda))
            .find(|&t| !b.acquire(t))
            .expect("a bucket fed faster than it refills rejects eventually");
        // C / (λ − r) is the continuous answer; whole tokens make the first rejection come once
        // fewer than one token is left, which is between (C − 1)/(λ − r) and one arrival later.
        let predicted = c as f64 / (lambda - r) as f64;
        let earliest = (c - 1) as f64 / (lambda - r) as f64;
        let t = first.as_secs_f64();
        assert!(
            t >= earliest - 1e-9 && t <= predicted + 1.0 / lambda as f64,
            "C={c} r={r} λ={lambda}: first rejection at {} s, predicted {predicted} s",
            first.as_secs_f64()
        );
    }
}

#[test]
fn long_run_pass_ratio_converges_on_refill_over_arrival() {
    for (r, lambda, traffic) in [(5, 20, "constant"), (30, 40, "poisson"), (1, 3, "constant")] {
        let rep = run(&format!("capacity=10&refill={r}&rate={lambda}&duration=2000&traffic={traffic}"));
        let predicted = r as f64 / lambda as f64;
        assert_eq!(rep.predicted_pass_ratio, Some(predicted));
        assert!((rep.pass_ratio - predicted).abs() < 0.01, "{traffic}: {} vs {predicted}", rep.pass_ratio);
    }
}

#[test]
fn arrivals_below_the_refill_rate_are_never_rejected() {
    let rep = run("capacity=1&refill=10&rate=9.999&duration=100");
    assert_eq!(rep.rejected, 0);
}

#[test]
fn the_steady_state_is_predicted_only_where_rate_is_what_arrives_and_every_request_is_new() {
    let sc = |q: &str| ratelimit_playground::sim::Scenario::from_query(q).unwrap();
    assert_eq!(sc("rate=20").predicted_pass_ratio(), Some(0.25));
    assert_eq!(sc("rate=20&traffic=poisson").predicted_pass_ratio(), Some(0.25));
    assert_eq!(sc("algo=sliding_log&limit=10&window=2&rate=20").predicted_pass_ratio(), Some(0.25));
    for q in ["rate=20&traffic=seam", "rate=20&traffic=bursts", "rate=20&retry=exact", "rate=20&count_rejected=1"] {
        assert_eq!(sc(q).predicted_pass_ratio(), None, "{q}");
    }
}

#[test]
fn the_first_rejection_formula_is_for_buckets_under_constant_arrivals() {
    let sc = |q: &str| ratelimit_playground::sim::Scenario::from_query(q).unwrap();
    assert_eq!(sc("algo=gcra&capacity=10&refill=5&rate=20").predicted_first_rejection(), Some(10.0 / 15.0));
    assert_eq!(sc("algo=fixed_window&rate=20").predicted_first_rejection(), None);
    assert_eq!(sc("rate=20&traffic=poisson").predicted_first_rejection(), None);
    assert_eq!(sc("rate=4&refill=5").predicted_first_rejection(), None);
}
