//! Driving a simulation the way the app does: in frames of any size, one event at a time, or by
//! jumping ahead. The outcome must not depend on how time was sliced.
#![cfg(not(target_arch = "wasm32"))]

use ratelimit_playground::sim::{Nanos, Scenario, SimTime, Simulation};

fn scenario(q: &str) -> Scenario {
    Scenario::from_query(q).unwrap()
}

/// Totals, `(start, admitted, rejected)` per bucket, and `(instant, gauge)` per state sample.
type Fingerprint = (ratelimit_playground::sim::Totals, Vec<(u64, u64, u64)>, Vec<(u64, String)>);

fn fingerprint(sim: &Simulation) -> Fingerprint {
    let m = sim.metrics();
    let buckets = m.buckets().map(|b| (b.start.as_nanos(), b.admitted, b.rejected)).collect();
    let samples = sim
        .state_samples()
        .map(|s| {
            s.iter().map(|(t, g)| (t.as_nanos(), format!("{:.9} {} {}", g.level, g.current, g.previous))).collect()
        })
        .unwrap_or_default();
    (m.totals, buckets, samples)
}

#[test]
fn frames_of_any_size_give_the_same_run_and_the_same_state_samples() {
    for q in [
        "capacity=10&refill=5&rate=30&traffic=poisson&retry=jitter",
        "algo=sliding_window&rate=40&limit=20&window=3",
        "nodes=4&store=race&rtt=20&rate=200&traffic=poisson",
    ] {
        let sc = scenario(q);
        let end = SimTime::from_secs(20);
        let mut one_jump = Simulation::new(&sc);
        one_jump.sample_state(Nanos::from_millis(50), 1_000);
        one_jump.step_until(end);
        let mut frames = Simulation::new(&sc);
        frames.sample_state(Nanos::from_millis(50), 1_000);
        let mut t = 0u64;
        let mut frame = 1u64;
        while t < end.as_nanos() {
            // Irregular frames, some landing exactly on sample instants.
            frame =
                (frame * 7_919) % 97_000_000 + if frame.is_multiple_of(3) { 0 } else { 50_000_000 - t % 50_000_000 };
            t = (t + frame).min(end.as_nanos());
            frames.step_until(SimTime(t));
        }
        assert_eq!(fingerprint(&one_jump), fingerprint(&frames), "{q}");
    }
}

#[test]
fn stepping_one_event_at_a_time_reaches_the_same_state() {
    let sc = scenario("capacity=5&refill=2&rate=9&nodes=3&store=atomic&rtt=3");
    let mut whole = Simulation::new(&sc);
    whole.step_until(SimTime::from_secs(5));
    let mut stepped = Simulation::new(&sc);
    let mut steps = 0;
    while stepped.next_event_time().is_some_and(|t| t <= SimTime::from_secs(5)) {
        stepped.step_event();
        steps += 1;
    }
    stepped.step_until(SimTime::from_secs(5));
    assert_eq!(steps, whole.events_processed());
    assert_eq!(fingerprint(&whole), fingerprint(&stepped));
}

#[test]
fn a_single_step_runs_exactly_one_event_and_moves_time_to_it() {
    let sc = scenario("rate=4");
    let mut sim = Simulation::new(&sc);
    assert_eq!(sim.step_event(), Some(SimTime::ZERO));
    assert_eq!(sim.metrics().totals.requests, 1);
    assert_eq!(sim.step_event(), Some(SimTime::from_nanos(250_000_000)));
    assert_eq!((sim.metrics().totals.requests, sim.now()), (2, SimTime::from_nanos(250_000_000)));
}

#[test]
fn the_first_rejection_is_recorded_where_the_analysis_puts_it() {
    // C / (λ − r) = 10 / (20 − 5) = 0.667 s; with whole tokens it comes one arrival earlier.
    let mut sim = Simulation::new(&scenario("capacity=10&refill=5&rate=20"));
    sim.step_until(SimTime::from_secs(2));
    let first = sim.metrics().totals.first_rejection.expect("rejections happen").as_secs_f64();
    assert!((0.6..=0.7).contains(&first), "{first}");
}

#[test]
fn fixed_window_seam_peak_is_twice_the_limit_and_sliding_log_is_the_limit() {
    let peak = |algo: &str| {
        let mut sim = Simulation::new(&scenario(&format!("algo={algo}&traffic=seam&limit=40&window=10")));
        sim.step_until(SimTime::from_secs(12));
        sim.peak_in_window()
    };
    let (fixed, at) = peak("fixed_window");
    assert_eq!(fixed, 80);
    assert!(at > SimTime::from_secs(10) && at < SimTime::from_nanos(10_100_000_000), "{at}");
    assert_eq!(peak("sliding_log").0, 40);
}

#[test]
fn state_samples_show_the_bucket_draining_and_stay_bounded() {
    let mut sim = Simulation::new(&scenario("capacity=10&refill=5&rate=20"));
    sim.sample_state(Nanos::from_millis(100), 50);
    sim.step_until(SimTime::from_secs(60));
    let samples: Vec<f64> = sim.state_samples().unwrap().iter().map(|(_, g)| g.level).collect();
    assert_eq!(samples.len(), 50);
    // A sample at an arrival instant is taken just before that arrival spends the token.
    assert!(samples.iter().all(|&l| (0.0..=1.0).contains(&l)), "an empty bucket at steady state: {samples:?}");
}

#[test]
fn the_last_decision_carries_the_headers_of_the_deciding_limiter() {
    let mut sim = Simulation::new(&scenario("capacity=2&refill=1&rate=10"));
    sim.step_until(SimTime::from_nanos(200_000_000)); // three arrivals: 0, 0.1, 0.2 s
    let d = sim.last_decision().unwrap();
    assert!(!d.allowed);
    let headers = d.headers(sim.quota());
    assert_eq!(headers[0], ("RateLimit-Policy", "\"default\";q=2;w=2".to_string()));
    assert_eq!(headers[2], ("Retry-After", "1".to_string()));
    assert_eq!(d.retry_after, Some(Nanos::from_millis(800)));
}
