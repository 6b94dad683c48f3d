//! The server view's four presets (issue #37) show what they say, on the engine's numbers:
//! latency explodes at 90 % load, a retry storm outlives its spike without a limiter and
//! recovers with one and a retry budget, and LIFO keeps fresh requests alive where FIFO wastes
//! every answer. Also the parts they are made of: a spike adds its requests where it says, a
//! retry budget caps the retries at its share, a breaker stops them while it is open.

use ratelimit_playground::present::server::presets::{LATENCY_AT_90, LIFO, STORM, STORM_LIMITED};
use ratelimit_playground::sim::report::{run, Report};
use ratelimit_playground::sim::Scenario;

fn report(query: &str) -> Report {
    run(&Scenario::from_query(query).unwrap()).unwrap()
}

/// Goodput per second over the report's buckets from `from` to `to` seconds.
fn goodput_per_s(r: &Report, from: f64, to: f64) -> f64 {
    let rows: Vec<_> = r.series.iter().filter(|row| row.t >= from && row.t < to).collect();
    rows.iter().map(|row| row.server.as_ref().unwrap().goodput as f64).sum::<f64>() / (to - from)
}

#[test]
fn latency_explodes_at_90_percent_load() {
    let at = |rate: u32| {
        report(&format!("{}&duration=600", LATENCY_AT_90.query.replace("rate=90", &format!("rate={rate}"))))
            .server
            .unwrap()
    };
    let (half, ninety) = (at(50), at(90));
    // M/M/1: the mean wait is ρ ÷ (μ − λ): 10 ms at 50 %, 90 ms at 90 %.
    assert!((ninety.wait_ms.mean / 90.0 - 1.0).abs() < 0.05, "{}", ninety.wait_ms.mean);
    assert_eq!(ninety.predicted_wait_ms.map(|w| w.round()), Some(90.0));
    // Latency is exponential with rate μ − λ: its mean 1 ÷ (μ − λ), its p99 ln(100) ÷ (μ − λ).
    assert!((ninety.latency_ms.mean / 100.0 - 1.0).abs() < 0.05, "{}", ninety.latency_ms.mean);
    let ratio = ninety.latency_ms.p99 / half.latency_ms.p99;
    assert!((4.5..=5.5).contains(&ratio), "five times the p99 at 50 %: {ratio}");
    // (ln 100 ÷ 10 = 460 ms; one 600 s run of a 90 % busy queue measures it within ~15 %.)
    assert!(
        (430.0..=560.0).contains(&ninety.latency_ms.p99),
        "the slowest 1 % near half a second: {}",
        ninety.latency_ms.p99
    );
}

#[test]
fn without_a_limiter_the_retry_storm_outlives_its_spike() {
    let r = report(STORM.query);
    assert!(goodput_per_s(&r, 0.0, 10.0) > 570.0, "before the spike every request is answered in time");
    // The spike ends at 20 s; 40 s later the retries still hold the server down.
    assert!(goodput_per_s(&r, 30.0, 60.0) < 6.0, "{}", goodput_per_s(&r, 30.0, 60.0));
    let s = r.server.unwrap();
    assert!(s.utilization > 0.9 && s.wasted > 5 * s.goodput, "{s:?}");
    assert!(r.retries > r.requests / 2, "most requests are retries: {} of {}", r.retries, r.requests);
}

#[test]
fn with_a_limiter_and_a_retry_budget_the_same_storm_recovers() {
    let r = report(STORM_LIMITED.query);
    // Through the spike the limiter keeps the server at its refill rate, answered in time…
    assert!(goodput_per_s(&r, 10.0, 20.0) > 650.0, "{}", goodput_per_s(&r, 10.0, 20.0));
    // …and after it, at the arrival rate.
    assert!(goodput_per_s(&r, 25.0, 60.0) > 570.0, "{}", goodput_per_s(&r, 25.0, 60.0));
    assert_eq!(r.server.as_ref().unwrap().wasted, 0);
    let gate = r.retry_gate.unwrap();
    assert!(gate.budget_refused > 1_000, "the budget stopped retries: {gate:?}");
    assert!(
        r.retries * 10 <= r.requests - r.retries + 10 * 10,
        "at most a tenth of new requests retried (+10 at start)"
    );
}

#[test]
fn lifo_keeps_the_fresh_requests_alive_where_fifo_wastes_every_answer() {
    let lifo = report(LIFO.query).server.unwrap();
    let fifo = report(&LIFO.query.replace("discipline=lifo", "discipline=fifo")).server.unwrap();
    assert_eq!((lifo.served, lifo.shed), (fifo.served, fifo.shed), "the same work, in another order");
    assert!(lifo.goodput as f64 > 0.9 * lifo.served as f64, "{lifo:?}");
    assert!((fifo.goodput as f64) < 0.05 * fifo.served as f64, "{fifo:?}");
}

#[test]
fn a_spike_adds_its_rate_between_its_start_and_end_only() {
    let r = report("capacity=1000000&refill=1000000&rate=100&duration=30&spike=10-20&spike_rate=400");
    let per_s = |from: f64, to: f64| {
        r.series.iter().filter(|row| row.t >= from && row.t < to).map(|row| row.requests as f64).sum::<f64>()
            / (to - from)
    };
    assert_eq!((per_s(0.0, 10.0), per_s(20.0, 30.0)), (100.0, 100.0));
    assert!((per_s(10.0, 20.0) - 500.0).abs() < 25.0, "{}", per_s(10.0, 20.0));
}

#[test]
fn a_spike_is_the_same_twice_and_needs_no_server() {
    let q = "rate=5&duration=20&spike=5-6&spike_rate=50&traffic=poisson";
    let (a, b) = (report(q), report(q));
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    assert!(a.server.is_none());
    assert!(a.requests > 5 * 20 + 25, "{}", a.requests);
}

#[test]
fn a_retry_budget_caps_429_retries_without_a_server() {
    let q = "capacity=10&refill=10&rate=100&duration=100&retry=backoff&retries=10";
    let (all, budget) = (report(q), report(&format!("{q}&retry_budget=0.1")));
    let new = budget.requests - budget.retries;
    assert!(budget.retries <= new / 10 + 10, "{} retries for {new} new requests", budget.retries);
    assert!(all.retries > 5 * budget.retries, "{} vs {}", all.retries, budget.retries);
}

#[test]
fn an_open_breaker_stops_retries_until_its_pause_is_over() {
    let q = "capacity=10&refill=10&rate=100&duration=60&retry=backoff&retries=10";
    let breaker = report(&format!("{q}&retry_breaker=5&breaker_pause=5000"));
    let gate = breaker.retry_gate.unwrap();
    // Constant overload: it opens at once, probes every 5 s, and opens again.
    assert!((10..=14).contains(&gate.breaker_opened), "{gate:?}");
    assert!(breaker.retries < 100, "{}", breaker.retries);
}

#[test]
fn behind_several_nodes_a_per_node_limit_multiplies_into_server_overload() {
    // A policy of 700/s for a server that answers 800/s, on four nodes: kept per node it admits
    // four times that; kept in one atomic store, 700/s in all.
    let q = "capacity=100&refill=700&traffic=poisson&rate=4000&duration=30&nodes=4&rtt=1&workers=8&service=10\
             &client_timeout=200";
    let (local, shared) = (report(&format!("{q}&store=local")), report(&format!("{q}&store=atomic")));
    let (l, s) = (local.server.unwrap(), shared.server.unwrap());
    assert!(local.admitted > 3 * shared.admitted, "{} vs {}", local.admitted, shared.admitted);
    assert!(l.shed + l.wasted > l.goodput, "per node, the server drowns: {l:?}");
    assert!((s.wasted, s.shed) == (0, 0) && s.goodput as f64 > 0.95 * 700.0 * 30.0, "shared, it keeps up: {s:?}");
}

#[test]
fn a_spike_after_the_run_sends_nothing_and_the_run_size_guard_counts_a_spike() {
    let r = report("rate=10&duration=5&spike=10-20&spike_rate=100");
    assert_eq!(r.requests, 50, "the spike starts after the run");
    let huge = Scenario::from_query("rate=1&duration=600&spike=0-600&spike_rate=100000").unwrap();
    assert!(run(&huge).unwrap_err().message.contains("requests"), "60 million requests are refused");
}

#[test]
fn a_second_without_events_keeps_the_queue_it_had() {
    // One worker busy for 10 s; a request every 4 s waits: from 4 s one is waiting, from 8 s two.
    let r = report("capacity=1000000&refill=1000000&rate=0.25&duration=9&workers=1&service=10000&service_dist=const");
    let queue: Vec<u64> = r.series.iter().map(|row| row.server.as_ref().unwrap().queue_max).collect();
    assert_eq!(queue, [0, 0, 0, 0, 1, 1, 1, 1, 2], "{queue:?}");
}
