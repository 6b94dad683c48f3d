//! The leaky bucket as a queue (`algo=leaky_bucket`, issue #37): it decides and holds exactly as
//! nginx's `limit_req` without `nodelay`, admits what a token bucket one larger admits (only
//! later), never holds a request longer than the queue takes to drain, and turns a burst into a
//! stream at the drain rate, which a server behind it can take without queueing.

use ratelimit_playground::sim::report::{decisions_csv, run, simulate, Report};
use ratelimit_playground::sim::{Nanos, Scenario, Simulation};
use std::collections::BTreeSet;

fn scenario(query: &str) -> Scenario {
    Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"))
}

fn report(query: &str) -> Report {
    run(&scenario(query)).unwrap()
}

#[test]
fn the_queue_decides_and_holds_exactly_as_nginx_without_nodelay() {
    // Arrivals on whole milliseconds, where nginx's millisecond clock loses nothing.
    for (queue, drain, traffic) in [
        (3, "5", "rate=8"),
        (10, "2", "traffic=bursts&rate=40&burst_on=1&burst_off=3"),
        (1, "20", "rate=50"),
        (50, "100", "traffic=bursts&rate=1000&burst_on=0.5&burst_off=2"),
    ] {
        let leaky = format!("algo=leaky_bucket&capacity={queue}&refill={drain}&{traffic}&duration=20");
        let nginx = format!("algo=nginx&nodelay=0&capacity={}&refill={drain}&{traffic}&duration=20", queue + 1);
        let (a, b) = (decisions_csv(&scenario(&leaky)).unwrap(), decisions_csv(&scenario(&nginx)).unwrap());
        assert!(a.contains(",200,,") && a.contains(",429,"), "{leaky}: both answers occur");
        assert!(a.lines().any(|l| !l.ends_with(",0") && l.contains(",200,")), "{leaky}: some are held");
        assert_eq!(a, b, "{leaky} vs {nginx}");
    }
}

#[test]
fn it_admits_what_a_token_bucket_one_larger_admits_on_any_traffic() {
    for traffic in [
        "traffic=poisson&rate=30",
        "traffic=bursts&rate=200&burst_on=0.3&burst_off=1.7",
        "traffic=clients&clients=40&rate=25",
        "traffic=seam&limit=20&window=2",
        "traffic=poisson&rate=30&retry=exact",
        "traffic=poisson&rate=30&retry=backoff",
    ] {
        let leaky = report(&format!("algo=leaky_bucket&capacity=12&refill=9.5&{traffic}&duration=120"));
        let bucket = report(&format!("algo=token_bucket&capacity=13&refill=9.5&{traffic}&duration=120"));
        assert!(leaky.rejected > 0, "{traffic}: the queue fills");
        // The same requests, answered later: a held one's answer may fall past the horizon.
        assert!(leaky.admitted <= bucket.admitted && bucket.admitted - leaky.admitted <= 13, "{traffic}");
        assert!(leaky.delayed > 0 && bucket.delayed == 0, "{traffic}");
    }
}

#[test]
fn no_request_waits_longer_than_the_full_queue_takes_to_drain() {
    for (queue, drain) in [(5u64, 10u64), (40, 3), (1, 1)] {
        let r =
            report(&format!("algo=leaky_bucket&capacity={queue}&refill={drain}&traffic=poisson&rate=50&duration=300"));
        let drain_ns = queue * 1_000_000_000 / drain;
        assert!(r.latency_ns.max <= drain_ns + 1, "queue {queue} at {drain}/s: {} > {drain_ns}", r.latency_ns.max);
        // Overloaded five times and more, the line is nearly always full: the slowest wait it all.
        assert!(r.latency_ns.p99 * 10 >= drain_ns * 9, "queue {queue} at {drain}/s: p99 {}", r.latency_ns.p99);
    }
}

#[test]
fn a_burst_leaves_at_the_drain_rate() {
    let burst = "traffic=bursts&rate=200&burst_on=1&burst_off=9&duration=60";
    let per_second = |r: &Report| r.series.iter().map(|row| row.admitted).max().unwrap();
    let leaky = report(&format!("algo=leaky_bucket&capacity=60&refill=20&{burst}"));
    let bucket = report(&format!("algo=token_bucket&capacity=61&refill=20&{burst}"));
    // Answered as they leave the queue: never more than the drain rate in a second (and the
    // one leaving at the second's first instant).
    assert!(per_second(&leaky) <= 21, "{}", per_second(&leaky));
    assert!(per_second(&bucket) >= 61, "the bucket lets its burst through at once: {}", per_second(&bucket));
    assert_eq!(leaky.admitted, bucket.admitted);
}

#[test]
fn the_queue_in_front_spares_the_server_the_burst() {
    // A server taking 25/s (one worker, 40 ms each) behind 200/s bursts let through at 20/s.
    let behind = "traffic=bursts&rate=200&burst_on=1&burst_off=9&duration=120&workers=1&service=40&service_dist=const";
    let leaky = report(&format!("algo=leaky_bucket&capacity=60&refill=20&{behind}")).server.unwrap();
    let bucket = report(&format!("algo=token_bucket&capacity=61&refill=20&{behind}")).server.unwrap();
    // Spaced 50 ms apart, each request finds the worker free: no wait at the server.
    assert_eq!((leaky.wait_ms.p99, leaky.queue_max), (0.0, 0), "{leaky:?}");
    // The bucket's 61 at once wait for the worker: the last ~2.4 s.
    assert!(bucket.wait_ms.p99 > 2_000.0 && bucket.queue_max >= 59, "{bucket:?}");
    assert_eq!(leaky.served, bucket.served);
}

#[test]
fn a_client_whose_timeout_passes_in_the_queue_retries_then_not_when_it_leaves() {
    // 20 may wait at 7.5/s: the last waits 2.67 s, past its client's 2 s. The server (50
    // workers, 5 ms each) is never the one late.
    let sc = scenario(
        "algo=leaky_bucket&capacity=20&refill=7.5&traffic=bursts&rate=100&burst_on=1&burst_off=9&duration=60\
         &workers=50&service=5&service_dist=const&client_timeout=2000&retry=exact&backoff_base=250&retries=1",
    );
    let sim = simulate(&sc, Simulation::record_decisions).unwrap();
    let (timeout, base) = (Nanos::from_millis(2_000), Nanos::from_millis(250));
    let log = sim.decisions();
    let held_too_long = || log.iter().filter(|d| d.verdict.allowed && d.decided.since(d.arrived) > timeout);
    let retried: BTreeSet<u64> = log.iter().filter(|d| d.retry == 1).map(|d| d.arrived.as_nanos()).collect();
    let mut checked = 0;
    for d in held_too_long().filter(|d| d.retry == 0 && d.arrived.as_nanos() < 57_000_000_000) {
        // It gives up one ns past its timeout, while still in the queue, and retries a base later.
        let at = (d.arrived + timeout + Nanos(1) + base).as_nanos();
        assert!(retried.contains(&at), "the request sent at {:?} retries at {at} ns", d.arrived);
        checked += 1;
    }
    assert!(checked >= 25, "{checked} clients gave up in the queue");
    // Each such request still reaches the server, which works for nobody; no client waits there.
    let server = sim.behind().unwrap().backend.as_ref().unwrap().stats();
    let late = held_too_long().count() as u64;
    assert_eq!((server.timed_out, server.wasted), (late, late));
}

#[test]
fn a_leaky_bucket_link_reads_back_as_written() {
    let sc = scenario("algo=leaky_bucket&capacity=7&refill=2.5");
    assert_eq!(scenario(&sc.to_query()), sc);
    assert!(sc.to_query().starts_with("algo=leaky_bucket"), "{}", sc.to_query());
    assert!(ratelimit_playground::sim::Limiter::may_delay(&sc.limiter()));
}
