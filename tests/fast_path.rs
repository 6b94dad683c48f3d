//! The engine's fast path for local nodes (a stretch of arrivals decided in one loop, which a
//! fast-forward runs) must make exactly the run that one event at a time makes: every count,
//! bucket, event, latency, retry, sample and the last answer, on every algorithm, retry policy,
//! balancer and traffic shape.
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;

use ratelimit_playground::sim::{Nanos, Scenario, SimTime, Simulation, Trace, TrafficShape};

/// Everything a run exposes, printed exactly (floats by their bits).
fn everything(sim: &Simulation) -> String {
    let m = sim.metrics();
    let buckets: Vec<String> = m
        .buckets()
        .map(|b| {
            let nodes = &b.node_admitted;
            let level = b.level.to_bits();
            format!(
                "{} {} {} {} {} {level:x} {nodes:?}",
                b.start.as_nanos(),
                b.requests,
                b.admitted,
                b.rejected,
                b.retries
            )
        })
        .collect();
    let events: Vec<String> = m.events().map(|e| format!("{e:?}")).collect();
    let latency: Vec<u64> =
        [0.0, 50.0, 90.0, 99.0, 100.0].iter().map(|&p| m.latency.percentile(p).as_nanos()).collect();
    let samples: Vec<String> = sim
        .state_samples()
        .map(|s| {
            s.iter()
                .map(|(t, g)| format!("{} {:x} {} {}", t.as_nanos(), g.level.to_bits(), g.current, g.previous))
                .collect()
        })
        .unwrap_or_default();
    let gauges: Vec<u64> = sim.node_gauges().iter().map(|g| g.level.to_bits()).collect();
    format!(
        "totals {:?}\nnode_admitted {:?}\nlatency {} {latency:?}\nlast {:?}\npeak {:?}\nevents {} arrivals {}\ngauges {gauges:?}\nbuckets {buckets:#?}\nevents {events:#?}\nsamples {samples:#?}",
        m.totals,
        m.node_admitted,
        m.latency.count(),
        sim.last_decision(),
        sim.peak_in_window(),
        sim.events_processed(),
        sim.arrivals_produced(),
    )
}

fn fresh(sc: &Scenario, horizon: Option<SimTime>) -> Simulation {
    let mut sim = Simulation::with_history(sc, 40);
    sim.sample_state(Nanos::from_millis(50), 300);
    if let Some(h) = horizon {
        sim.set_horizon(h);
    }
    sim
}

/// Runs `sc` to `end` by frames (fast path) and one event at a time (general path), and
/// asserts the two are identical.
fn assert_same_run(sc: &Scenario, end: SimTime, horizon: Option<SimTime>, label: &str) {
    let mut framed = fresh(sc, horizon);
    let mut t = 0u64;
    let mut frame = 3u64;
    while t < end.as_nanos() {
        // Irregular frames: some short, some long, some landing on sample instants.
        frame = (frame * 7_919) % 1_700_000_000 + 1;
        t = (t + frame).min(end.as_nanos());
        framed.step_until(SimTime(t));
    }
    let mut stepped = fresh(sc, horizon);
    while stepped.next_event_time().is_some_and(|at| at <= end) {
        stepped.step_event();
    }
    stepped.step_until(end);
    assert_eq!(everything(&framed), everything(&stepped), "{label}");
}

#[test]
fn the_local_fast_path_makes_exactly_the_run_of_one_event_at_a_time() {
    let algos = ["token_bucket", "gcra", "fixed_window", "sliding_window", "sliding_log"];
    let shapes = [
        "traffic=poisson&rate=40",
        "traffic=constant&rate=25",
        "traffic=bursts&rate=60&burst_on=1.5&burst_off=2",
        "traffic=seam",
        "traffic=clients&clients=7&rate=30",
    ];
    let clusters = ["nodes=1", "nodes=3&lb=rr", "nodes=4&lb=random"];
    let retries = ["retry=none", "retry=exact", "retry=jitter&headroom=0.05&jitter=0.2", "retry=backoff&retries=4"];
    let mut runs = 0;
    for (i, algo) in algos.iter().enumerate() {
        for (j, shape) in shapes.iter().enumerate() {
            // Every combination of algorithm and shape; the other axes rotate through them.
            let cluster = clusters[(i + j) % clusters.len()];
            let retry = retries[(i + 2 * j) % retries.len()];
            let counting = if (i + j) % 2 == 0 { "&count_rejected=1" } else { "" };
            let q = format!(
                "algo={algo}&capacity=6&refill=4&limit=6&window=2&{shape}&{cluster}&{retry}{counting}&seed={}",
                11 * i + j
            );
            let sc = Scenario::from_query(&q).unwrap();
            assert_same_run(&sc, SimTime::from_secs(30), None, &q);
            assert_same_run(
                &sc,
                SimTime::from_secs(30),
                Some(SimTime::from_nanos(17_345_000_000)),
                &format!("{q} (horizon)"),
            );
            runs += 2;
        }
    }
    assert_eq!(runs, 50);
}

#[test]
fn the_fast_path_replays_a_trace_with_simultaneous_arrivals_and_gaps_exactly() {
    // Several arrivals at one instant, retries between them, and a gap that skips whole buckets.
    let times = "0\n0\n0\n250\n500\n500\n1000\n1000\n1250\n9000\n9000\n9001\n12000\n";
    let trace = Trace::parse(times).unwrap();
    for retry in ["retry=none", "retry=exact", "retry=backoff"] {
        let mut sc = Scenario::from_query(&format!("capacity=2&refill=4&{retry}")).unwrap();
        sc.traffic = TrafficShape::Trace;
        sc.trace = Some(Arc::new(trace.clone()));
        assert_same_run(&sc, SimTime::from_secs(15), None, retry);
    }
}

#[test]
fn a_fast_forward_of_an_hour_matches_the_golden_path_at_every_slice() {
    // What the page's "+10 min" does: 256 slices per jump, the run identical to single steps.
    let sc = Scenario::from_query("rate=1000&traffic=poisson").unwrap();
    let mut jumped = fresh(&sc, None);
    for k in 1..=256u64 {
        jumped.step_until(SimTime(k * 600_000_000_000 / 256));
    }
    let mut stepped = fresh(&sc, None);
    while stepped.next_event_time().is_some_and(|at| at <= SimTime::from_secs(600)) {
        stepped.step_event();
    }
    stepped.step_until(SimTime::from_secs(600));
    assert_eq!(everything(&jumped), everything(&stepped));
    assert!(jumped.metrics().totals.requests > 590_000, "{:?}", jumped.metrics().totals);
}

#[test]
fn running_to_the_end_matches_stepping_to_the_end() {
    // What the CLI does: run past the horizon until every request in flight is answered.
    for q in ["rate=30&traffic=poisson&retry=backoff&retries=3", "rate=12&nodes=3&lb=random&retry=exact"] {
        let sc = Scenario::from_query(q).unwrap();
        let mut run = fresh(&sc, Some(SimTime::from_secs(20)));
        run.run_to_end();
        let mut stepped = fresh(&sc, Some(SimTime::from_secs(20)));
        while stepped.step_event().is_some() {}
        assert_eq!(run.now(), stepped.now(), "{q}");
        assert!(run.now() >= SimTime::from_nanos(19_000_000_000), "{q}: {:?}", run.now());
        assert_eq!(everything(&run), everything(&stepped), "{q}");
    }
}
