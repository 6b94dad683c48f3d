//! The server behind the limiter (issue #37) against queueing theory: with no limiter in the way
//! and Poisson arrivals, long runs wait as M/M/1, M/M/c (Erlang C) and M/D/1 say, within 2 %;
//! Little's law holds exactly in the engine's own accounting of every run; and what the keys
//! change (the waiting room, the discipline, the client's timeout) shows where it should.

use ratelimit_playground::sim::report::{run, simulate};
use ratelimit_playground::sim::server::ServerStats;
use ratelimit_playground::sim::Scenario;

/// A token bucket far above every arrival rate here: it admits everything.
const NO_LIMIT: &str = "capacity=1000000&refill=1000000";

fn stats(query: &str) -> ServerStats {
    let sc = Scenario::from_query(query).unwrap();
    let sim = simulate(&sc, |_| ()).unwrap();
    let s = sim.server_stats().expect("a server").clone();
    assert_eq!(s.queue_area, s.wait.sum(), "{query}: Little's law, L·T = Σ waits, exactly");
    assert_eq!(s.arrived, s.served + s.shed, "{query}: every request handed over finished or was shed");
    s
}

/// The mean wait in ms, and the report's prediction of it.
fn mean_wait(query: &str) -> (f64, f64) {
    let server = run(&Scenario::from_query(query).unwrap()).unwrap().server.expect("a server");
    (server.wait_ms.mean, server.predicted_wait_ms.expect("a closed form applies"))
}

/// `measured` within `share` of `theory`, and the report's prediction equal to `theory`.
fn assert_within(what: &str, (measured, predicted): (f64, f64), theory: f64, share: f64) {
    assert!((predicted / theory - 1.0).abs() < 1e-9, "{what}: the report predicts {predicted} ms, theory {theory} ms");
    assert!((measured / theory - 1.0).abs() <= share, "{what}: {measured:.4} ms, theory {theory:.4} ms");
}

#[test]
fn one_exponential_worker_waits_as_m_m_1() {
    // λ = 50/s, μ = 100/s: ρ = 0.5, Wq = ρ / (μ − λ) = 10 ms.
    let q =
        format!("{NO_LIMIT}&traffic=poisson&rate=50&duration=10000&seed=3&workers=1&service=10&server_queue=1000000");
    assert_within("M/M/1", mean_wait(&q), 10.0, 0.02);
}

#[test]
fn four_exponential_workers_wait_as_erlang_c() {
    // λ = 300/s, c = 4, μ = 100/s: a = 3, P(wait) = 13.5 / 26.5, Wq = P / (cμ − λ).
    let (a, c, mu, lambda): (f64, u32, f64, f64) = (3.0, 4, 100.0, 300.0);
    let fact = |k: u32| (1..=k).map(f64::from).product::<f64>();
    let rho = lambda / (f64::from(c) * mu);
    let tail = a.powi(c as i32) / fact(c) / (1.0 - rho);
    let p_wait = tail / ((0..c).map(|k| a.powi(k as i32) / fact(k)).sum::<f64>() + tail);
    let wq_ms = p_wait / (f64::from(c) * mu - lambda) * 1e3;
    let q =
        format!("{NO_LIMIT}&traffic=poisson&rate=300&duration=3000&seed=5&workers=4&service=10&server_queue=1000000");
    assert_within("M/M/4", mean_wait(&q), wq_ms, 0.02);
}

#[test]
fn one_constant_worker_waits_as_m_d_1() {
    // Pollaczek–Khinchine for constant service: Wq = ρ / (2μ(1 − ρ)) = 5 ms at ρ = 0.5.
    let q = format!(
        "{NO_LIMIT}&traffic=poisson&rate=50&duration=10000&seed=7&workers=1&service=10&service_dist=const&server_queue=1000000"
    );
    assert_within("M/D/1", mean_wait(&q), 5.0, 0.02);
}

#[test]
fn one_lognormal_worker_waits_as_pollaczek_khinchine_says() {
    // M/G/1: Wq = λ·S²(1 + cv²) / (2(1 − ρ)) = 50 · 0.01² · 3.25 / 1 = 16.25 ms.
    let q = format!(
        "{NO_LIMIT}&traffic=poisson&rate=50&duration=20000&seed=11&workers=1&service=10&service_dist=lognormal&service_cv=1.5&server_queue=1000000"
    );
    assert_within("M/G/1", mean_wait(&q), 16.25, 0.03);
}

#[test]
fn no_prediction_where_the_arrivals_are_not_poisson_at_the_server() {
    let predicted = |q: &str| run(&Scenario::from_query(q).unwrap()).unwrap().server.unwrap().predicted_wait_ms;
    assert!(predicted(&format!("{NO_LIMIT}&traffic=poisson&rate=50&duration=60&workers=1&service=10")).is_some());
    // The limiter thins them, the traffic is steady, or the server is saturated.
    assert!(predicted("capacity=5&refill=20&traffic=poisson&rate=50&duration=60&workers=1&service=10").is_none());
    assert!(predicted(&format!("{NO_LIMIT}&traffic=constant&rate=50&duration=60&workers=1&service=10")).is_none());
    assert!(predicted(&format!("{NO_LIMIT}&traffic=poisson&rate=150&duration=60&workers=1&service=10")).is_none());
}

#[test]
fn utilization_is_the_offered_load() {
    let q =
        format!("{NO_LIMIT}&traffic=poisson&rate=300&duration=2000&seed=5&workers=4&service=10&server_queue=1000000");
    let sc = Scenario::from_query(&q).unwrap();
    let server = run(&sc).unwrap().server.expect("a server");
    assert!((server.utilization - 0.75).abs() < 0.01, "{}", server.utilization);
    assert_eq!(server.shed, 0);
}

#[test]
fn a_small_waiting_room_sheds_what_does_not_fit() {
    // Twice the server's capacity: about half is shed.
    let s =
        stats(&format!("{NO_LIMIT}&traffic=poisson&rate=200&duration=300&seed=2&workers=1&service=10&server_queue=5"));
    let shed = s.shed as f64 / s.arrived as f64;
    assert!((0.45..0.56).contains(&shed), "shed {shed}");
    let p99 = s.wait.percentile(99.0).as_nanos();
    // At most five ahead of it, 10 ms each on average: a bounded wait, where an unbounded room grows.
    assert!(s.max_queue == 5 && p99 < 150_000_000, "max queue {}, p99 wait {p99} ns", s.max_queue);
}

#[test]
fn past_the_client_s_timeout_a_finished_request_is_wasted_and_lifo_keeps_fresh_ones_alive() {
    // Overloaded (λ = 120/s for μ = 100/s), the queue grows: first in, first out, every request
    // waits behind older ones and most finish after their client's 200 ms; newest first, most
    // finish at once and a few wait very long.
    let base =
        format!("{NO_LIMIT}&traffic=poisson&rate=120&duration=60&seed=4&workers=1&service=10&client_timeout=200");
    let fifo = stats(&base);
    let lifo = stats(&format!("{base}&discipline=lifo"));
    assert_eq!(fifo.served, fifo.goodput + fifo.wasted);
    assert!(fifo.wasted > fifo.served / 2, "FIFO wastes most: {} of {}", fifo.wasted, fifo.served);
    assert!(lifo.goodput > 2 * fifo.goodput, "LIFO {} vs FIFO {}", lifo.goodput, fifo.goodput);
    assert!(lifo.latency.percentile(50.0) < fifo.latency.percentile(50.0));
}

#[test]
fn only_what_the_limiter_admits_reaches_the_server() {
    let sc =
        Scenario::from_query("capacity=10&refill=20&traffic=poisson&rate=100&duration=60&seed=1&workers=2&service=5")
            .unwrap();
    let r = run(&sc).unwrap();
    let server = r.server.clone().expect("a server");
    assert_eq!(server.arrived, r.admitted);
    assert!(r.rejected > 0 && server.served == r.admitted);
    // The latency counts from the client's request: at least the service, here 5 ms on average.
    assert!(server.latency_ms.mean >= 5.0 * 0.9, "{server:?}");
    // What the CLI prints.
    let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    for field in ["served", "goodput", "wasted", "shed", "utilization", "queue_mean", "queue_max"] {
        assert!(json["server"][field].is_number(), "{field}: {}", json["server"]);
    }
    for spread in ["wait_ms", "latency_ms"] {
        assert!(["mean", "p50", "p99"].iter().all(|k| json["server"][spread][k].is_number()), "{spread}");
    }
}

#[test]
fn lognormal_services_keep_their_mean_and_a_run_is_the_same_twice() {
    let q = format!(
        "{NO_LIMIT}&traffic=poisson&rate=20&duration=2000&seed=8&workers=1&service=10&service_dist=lognormal&service_cv=3"
    );
    let s = stats(&q);
    assert_eq!(s, stats(&q));
    // Busy time ÷ served: the mean service time, 10 ms within a few percent (a long tail).
    let mean_service_ms = s.busy_area as f64 / s.served as f64 / 1e6;
    assert!((mean_service_ms / 10.0 - 1.0).abs() < 0.06, "{mean_service_ms}");
}

#[test]
fn without_workers_there_is_no_server_and_nothing_else_changes() {
    let plain = run(&Scenario::from_query("traffic=poisson&rate=30&seed=3&duration=20").unwrap()).unwrap();
    let served = run(&Scenario::from_query("traffic=poisson&rate=30&seed=3&duration=20&workers=3").unwrap()).unwrap();
    assert!(plain.server.is_none() && !plain.to_json().contains("\"server\""));
    assert_eq!((plain.admitted, plain.rejected), (served.admitted, served.rejected));
    assert!(
        served.scenario.ends_with(
            "workers=3&service=10&service_dist=exp&service_cv=1&server_queue=1000&discipline=fifo&client_timeout=0\
             &retry_budget=0&retry_breaker=0&breaker_pause=5000&spike=none&spike_rate=100"
        ),
        "{}",
        served.scenario
    );
}

#[test]
fn a_503_and_a_client_s_timeout_are_retried_as_the_client_s_policy_says_and_amplify_the_load() {
    // 150 requests/s for a server of 100/s with room for 20: it sheds, and clients time out.
    let base = format!(
        "{NO_LIMIT}&rate=150&duration=60&workers=1&service=10&service_dist=const&server_queue=20&client_timeout=150"
    );
    let give_up = run(&Scenario::from_query(&base).unwrap()).unwrap();
    let s = give_up.server.clone().unwrap();
    assert!(s.shed > 0 && s.timed_out > 0, "{s:?}");
    assert_eq!(give_up.retries, 0);
    assert_eq!(give_up.gave_up, s.shed + s.timed_out, "each 503 and each timeout is a client giving up");
    let retry = run(&Scenario::from_query(&format!("{base}&retry=backoff&retries=3")).unwrap()).unwrap();
    let r = retry.server.clone().unwrap();
    assert!(retry.retries > 0 && r.arrived > s.arrived, "retries add load: {} vs {}", r.arrived, s.arrived);
    assert!(r.goodput <= s.goodput + s.goodput / 20, "and buy little: {} vs {}", r.goodput, s.goodput);
    // The series add up to the totals, but for what the server finished after the run's last
    // second: at most the room and the worker's.
    let rows: Vec<_> = retry.series.iter().map(|row| row.server.clone().unwrap()).collect();
    let served: u64 = rows.iter().map(|b| b.served).sum();
    assert!(served <= r.served && r.served - served <= 21, "{served} of {}", r.served);
    assert_eq!(rows.iter().map(|b| b.shed).sum::<u64>(), r.shed);
    assert!(rows.iter().any(|b| b.latency_ms > 100.0), "the latency per second");
}

#[test]
fn an_answer_at_exactly_the_client_s_timeout_is_in_time() {
    // Constant 10 ms services, one request at a time: each answered at exactly 10 ms.
    let r = run(&Scenario::from_query(
        "capacity=1000&refill=1000&rate=50&duration=10&workers=1&service=10&service_dist=const&client_timeout=10&retry=exact",
    )
    .unwrap())
    .unwrap();
    let s = r.server.unwrap();
    assert_eq!((s.goodput, s.wasted, s.timed_out, r.retries), (s.served, 0, 0, 0), "{s:?}");
}
