//! The native benchmark body (governor and timing need a native target).

use governor::{Quota as GovQuota, RateLimiter};
use ratelimit_playground::sim::{
    report, AnyLimiter, FixedWindow, Gcra, Limiter, Nanos, Rate, Scenario, SimTime, Simulation, SlidingLog,
    SlidingWindow, TokenBucket,
};
use std::hint::black_box;
use std::num::NonZeroU32;
use std::time::{Duration, Instant};

const DECISIONS: u64 = 20_000_000;
const ROUNDS: usize = 5;

/// Best-of-`ROUNDS` rate of `f`, which performs `n` operations per call.
fn rate(n: u64, mut f: impl FnMut()) -> f64 {
    let best = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or(Duration::MAX);
    n as f64 / best.as_secs_f64()
}

/// Decisions per second of one limiter fed arrivals 37 ns apart (a mix of admits and rejects).
fn decisions(mut make: impl FnMut() -> AnyLimiter) -> (f64, f64) {
    let mut admitted = 0;
    let r = rate(DECISIONS, || {
        let mut l = make();
        admitted = 0;
        for i in 0..DECISIONS {
            admitted += u64::from(l.acquire(black_box(SimTime(i * 37))));
        }
        black_box(admitted);
    });
    (r, admitted as f64 / DECISIONS as f64)
}

pub fn main() {
    // `cargo bench` passes --bench; nothing else to parse.
    let cap = 100;
    let refill = Rate::per_sec(10_000_000); // ~37 % of the 27 M/s offered
    let window = Nanos::from_millis(10);
    println!("ratelimit-playground engine benchmark (native, release; best of {ROUNDS} rounds)\n");
    println!("{:<44} {:>14} {:>10} {:>16}", "what", "per second", "admitted", "target");

    let tb = decisions(|| AnyLimiter::token_bucket(TokenBucket::new(cap, refill)));
    let raw_tb = rate(DECISIONS, || {
        let mut l = TokenBucket::new(cap, refill);
        let mut n = 0u64;
        for i in 0..DECISIONS {
            n += u64::from(l.acquire(black_box(SimTime(i * 37))));
        }
        black_box(n);
    });
    let gov = {
        let quota =
            GovQuota::per_second(NonZeroU32::new(10_000_000).unwrap()).allow_burst(NonZeroU32::new(100).unwrap());
        rate(DECISIONS, || {
            let limiter = RateLimiter::direct(quota);
            let mut n = 0u64;
            for _ in 0..DECISIONS {
                n += u64::from(limiter.check().is_ok());
            }
            black_box(n);
        })
    };
    let rows = [
        ("token bucket (TokenBucket::acquire)", (raw_tb, f64::NAN), "≥ 100 M/s, ≥ 3× governor"),
        ("token bucket (via AnyLimiter)", tb, ""),
        ("gcra", decisions(|| AnyLimiter::gcra(Gcra::new(cap, refill))), ""),
        ("fixed window", decisions(|| AnyLimiter::fixed_window(FixedWindow::new(cap, window))), ""),
        ("sliding window counter", decisions(|| AnyLimiter::sliding_window(SlidingWindow::new(cap, window))), ""),
        ("sliding log", decisions(|| AnyLimiter::sliding_log(SlidingLog::new(cap, window))), ""),
        ("governor 0.10 check() (baseline, real clock)", (gov, f64::NAN), ""),
    ];
    for (what, (r, admitted), target) in rows {
        let admitted = if admitted.is_nan() { "-".to_string() } else { format!("{:.0} %", admitted * 100.0) };
        println!("{what:<44} {:>12.1} M {admitted:>10} {target:>16}", r / 1e6);
    }
    println!("{:<44} {:>12.2} × {:>10} {:>16}", "token bucket ÷ governor", raw_tb / gov, "", "≥ 3×");

    println!();
    println!("{:<44} {:>14} {:>10} {:>16}", "cluster run (16 nodes, rtt 1 ms, 60 s)", "events/s", "events", "target");
    for store in ["atomic", "race", "async", "local"] {
        let q = format!(
            "capacity=100&refill=50000&rate=100000&duration=60&nodes=16&store={store}&lb=random&traffic=poisson"
        );
        let sc = Scenario::from_query(&q).expect("valid");
        let mut events = 0;
        let r = rate(1, || {
            let mut sim = Simulation::with_history(&sc, 64);
            sim.set_horizon(SimTime::from_secs(60));
            sim.run_to_end();
            events = sim.events_processed();
        });
        let target = if store == "atomic" { "≥ 20 M/s" } else { "" };
        println!("{:<44} {:>12.1} M {:>10} {target:>16}", format!("store={store}"), r * events as f64 / 1e6, events);
    }

    println!();
    let sc = Scenario::from_query("rate=1000&duration=3600&traffic=poisson").expect("valid");
    let secs = 1.0
        / rate(1, || {
            black_box(report::run(&sc).expect("runs"));
        });
    println!(
        "{:<44} {:>12.1} ms {:>27}",
        "ratelimit-sim run, 1 h at 1 000 req/s (native)",
        secs * 1e3,
        "browser target ≤ 100 ms"
    );

    // Shadow mode (#11): a generated combined-format log, read, parsed and run one limiter per
    // client; then the sizing assistant's sweep over it.
    println!();
    let log = ratelimit_playground::sim::logs::samples::sample_log("api", 1, 300).expect("a sample");
    let lines = log.lines().count() as u64;
    let key = ratelimit_playground::sim::logs::KeyBy::Ip;
    let sc = Scenario::from_query("capacity=20&refill=2").expect("valid");
    let per_sec = rate(lines, || {
        black_box(ratelimit_playground::sim::logs::shadow(log.as_bytes(), None, &key, &sc).expect("reads"));
    });
    println!(
        "{:<44} {:>12.1} M {:>10} {:>16}",
        format!("log lines parsed + simulated ({} k lines)", lines / 1000),
        per_sec / 1e6,
        "",
        "≥ 5 M/s"
    );
    let mut arrivals = Vec::new();
    let read = ratelimit_playground::sim::logs::reader::read_log(log.as_bytes(), None, &key, |a| arrivals.push(a))
        .expect("reads");
    let mut policies = 0;
    let secs = 1.0
        / rate(1, || {
            let sizing = ratelimit_playground::sim::logs::sizing::sweep(
                &arrivals,
                &read,
                &sc,
                ratelimit_playground::sim::logs::sizing::Objective::Outliers,
            );
            policies = sizing.rows.len();
            black_box(sizing);
        });
    println!(
        "{:<44} {:>12.0} ms {:>27}",
        format!("sizing sweep, {policies} policies × {} k lines", lines / 1000),
        secs * 1e3,
        "browser target ≤ 5 s (100 × 1 M)"
    );
}
