//! Property tests: each algorithm's invariant holds on random arrivals, GCRA decides exactly as
//! the token bucket, and atomic clusters never over-admit.

use proptest::prelude::*;
use ratelimit_playground::sim::rate::TOKEN;
use ratelimit_playground::sim::{
    report, FixedWindow, Gcra, Limiter, Nanos, Rate, Scenario, SimTime, SlidingLog, SlidingWindow, StoreMode,
    TokenBucket,
};

/// `cases` cases, with failures recorded in the committed regressions file.
fn config(cases: u32) -> ProptestConfig {
    let regressions = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/regressions/invariants.txt");
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(proptest::test_runner::FileFailurePersistence::Direct(regressions))),
        ..ProptestConfig::default()
    }
}

/// Sorted arrival times in nanoseconds, clustered enough to put limiters under pressure.
fn arrivals() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::vec(0u64..50_000_000, 1..300).prop_map(|gaps| {
        let mut t = 0;
        gaps.into_iter()
            .map(|g| {
                t += g;
                t
            })
            .collect()
    })
}

fn admitted_times(l: &mut impl Limiter, times: &[u64]) -> Vec<u64> {
    times.iter().copied().filter(|&t| l.acquire(SimTime(t))).collect()
}

proptest! {
    #![proptest_config(config(512))]

    #[test]
    fn token_bucket_never_admits_more_than_capacity_plus_refill_over_any_interval(
        c in 1u64..50, milli in 1u64..100_000, times in arrivals())
    {
        let ok = admitted_times(&mut TokenBucket::new(c, Rate::from_milli(milli)), &times);
        for i in 0..ok.len() {
            for j in i..ok.len() {
                // (j − i + 1) admitted in [t_i, t_j] ≤ C + r·(t_j − t_i), exactly.
                let n = (j - i + 1) as u128;
                prop_assert!(n * TOKEN <= u128::from(c) * TOKEN + u128::from(milli) * u128::from(ok[j] - ok[i]));
            }
        }
    }

    #[test]
    fn gcra_decides_exactly_as_the_token_bucket(
        c in 1u64..50, milli in 1u64..100_000, times in arrivals(), counted in any::<bool>())
    {
        let (mut b, mut g) = (TokenBucket::new(c, Rate::from_milli(milli)), Gcra::new(c, Rate::from_milli(milli)));
        for &t in &times {
            let (db, dg) = (b.decide(SimTime(t)), g.decide(SimTime(t)));
            prop_assert_eq!(db, dg);
            if counted && !db.allowed {
                b.consume(SimTime(t));
                g.consume(SimTime(t));
            }
        }
    }

    #[test]
    fn fixed_window_never_exceeds_its_limit_in_a_window(
        limit in 1u64..20, window_ms in 1u64..500, times in arrivals())
    {
        let w = window_ms * 1_000_000;
        let ok = admitted_times(&mut FixedWindow::new(limit, Nanos(w)), &times);
        let mut per_window = std::collections::BTreeMap::new();
        for t in ok {
            *per_window.entry(t / w).or_insert(0u64) += 1;
        }
        prop_assert!(per_window.values().all(|&n| n <= limit));
    }

    #[test]
    fn sliding_log_never_exceeds_its_limit_in_any_interval_of_one_window(
        limit in 1u64..20, window_ms in 1u64..500, times in arrivals())
    {
        let w = window_ms * 1_000_000;
        let ok = admitted_times(&mut SlidingLog::new(limit, Nanos(w)), &times);
        for (j, &t) in ok.iter().enumerate() {
            let inside = ok[..=j].iter().filter(|&&s| s + w > t).count() as u64;
            prop_assert!(inside <= limit, "{} in ({}, {}]", inside, t.saturating_sub(w), t);
        }
    }

    #[test]
    fn sliding_window_estimate_never_exceeds_its_limit_after_an_admission(
        limit in 1u64..20, window_ms in 1u64..500, times in arrivals())
    {
        let mut l = SlidingWindow::new(limit, Nanos(window_ms * 1_000_000));
        for &t in &times {
            if l.acquire(SimTime(t)) {
                prop_assert!(l.estimate(SimTime(t)) <= limit as f64 + 1e-9);
            }
        }
    }

    #[test]
    fn a_rejection_retry_after_is_exactly_when_the_next_request_would_pass(
        algo in 0usize..5, limit in 1u64..10, window_ms in 1u64..200, times in arrivals())
    {
        let window = Nanos(window_ms * 1_000_000);
        use ratelimit_playground::sim::AnyLimiter as A;
        let rate = Rate::from_milli(limit * 1_000_000 / window_ms);
        let mut l = match algo {
            0 => A::token_bucket(TokenBucket::new(limit, rate)),
            1 => A::gcra(Gcra::new(limit, rate)),
            2 => A::fixed_window(FixedWindow::new(limit, window)),
            3 => A::sliding_window(SlidingWindow::new(limit, window)),
            _ => A::sliding_log(SlidingLog::new(limit, window)),
        };
        for &t in &times {
            let d = l.decide(SimTime(t));
            if let Some(wait) = d.retry_after {
                prop_assert!(wait.as_nanos() > 0);
                let (mut early, mut on_time) = (l.clone(), l.clone());
                prop_assert!(!early.acquire(SimTime(t + wait.as_nanos() - 1)), "admitted before Retry-After");
                prop_assert!(on_time.acquire(SimTime(t + wait.as_nanos())), "rejected at Retry-After");
            }
        }
    }
}

proptest! {
    #![proptest_config(config(64))]

    #[test]
    fn atomic_clusters_never_over_admit(
        algo in 0usize..5, nodes in 1u32..=16, rtt_us in 0u64..20_000, rate in 1u64..3_000, seed in any::<u64>(),
        poisson in any::<bool>(), retry in 0usize..4)
    {
        let algos = ["token_bucket", "fixed_window", "sliding_window", "sliding_log", "gcra"];
        let retries = ["none", "exact", "jitter", "backoff"];
        let traffic = if poisson { "poisson" } else { "constant" };
        let q = format!("algo={}&capacity=10&refill=50&rate={rate}&duration=2&nodes={nodes}&store=atomic&rtt={}&seed={seed}&traffic={traffic}&lb=random&retry={}",
            algos[algo], rtt_us as f64 / 1000.0, retries[retry]);
        let sc = Scenario::from_query(&q).unwrap();
        prop_assert_eq!(sc.store, StoreMode::Atomic);
        let rep = report::run(&sc).unwrap();
        prop_assert_eq!(rep.over_admitted, 0, "{}", q);
    }
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn the_same_scenario_gives_byte_identical_reports(
        algo in 0usize..5, store in 0usize..4, nodes in 1u32..=8, rate in 1u64..2_000, seed in any::<u64>(),
        traffic in 0usize..5, retry in 0usize..4, counted in any::<bool>())
    {
        let q = format!(
            "algo={}&store={}&nodes={nodes}&rate={rate}&seed={seed}&traffic={}&retry={}&count_rejected={}&duration=3&rtt=4&lb=random&outage=1-1.5",
            ["token_bucket", "fixed_window", "sliding_window", "sliding_log", "gcra"][algo],
            ["local", "race", "atomic", "async"][store],
            ["constant", "poisson", "bursts", "seam", "clients"][traffic],
            ["none", "exact", "jitter", "backoff"][retry],
            u8::from(counted),
        );
        let sc = Scenario::from_query(&q).unwrap();
        prop_assert_eq!(report::run(&sc).unwrap().to_json(), report::run(&sc).unwrap().to_json());
    }
}

#[test]
fn memory_stays_bounded_over_a_long_busy_run() {
    use ratelimit_playground::sim::metrics::EVENT_RING;
    use ratelimit_playground::sim::Simulation;
    let sc = Scenario::from_query("traffic=poisson&rate=2000&nodes=8&store=async&rtt=50&retry=jitter").unwrap();
    let mut sim = Simulation::with_history(&sc, 120);
    sim.sample_state(Nanos::from_millis(10), 500);
    sim.step_until(SimTime::from_secs(600));
    assert_eq!(sim.metrics().buckets().count(), 120);
    assert_eq!(sim.metrics().events().count(), EVENT_RING);
    assert_eq!(sim.state_samples().unwrap().iter().count(), 500);
    assert!(sim.metrics().totals.requests > 1_000_000);
}
