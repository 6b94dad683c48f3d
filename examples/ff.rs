//! Profiling aid: what the page's "+10 min" button does six times — one hour at 1 000
//! requests/s (Poisson) through the app's [`Runner`] (state samples and history on).
//!
//! Natively: `cargo run --release --example ff [QUERY]` prints the time (`perf record` it for a
//! profile). For wasm32 it exports `ff()`, which `make ff-wasm` times in Node's V8 (the engine
//! Chromium runs): the quick loop before a browser benchmark.
use ratelimit_playground::present::runner::Runner;
use ratelimit_playground::sim::{Nanos, Scenario};

/// Six 10-minute jumps of the scenario; returns the requests simulated.
fn one_hour(query: &str) -> u64 {
    let sc = Scenario::from_query(query).expect("a valid query");
    let mut runner = Runner::new(&sc, false);
    for _ in 0..6 {
        runner.jump(Nanos::from_secs(600));
    }
    runner.snapshot(0).columns[0].totals.requests
}

/// The default fast-forward of the benchmark, for the wasm build.
#[no_mangle]
pub extern "C" fn ff() -> u64 {
    one_hour("rate=1000&traffic=poisson")
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    {
        let q = std::env::args().nth(1).unwrap_or_else(|| "rate=1000&traffic=poisson".into());
        let start = std::time::Instant::now();
        let requests = one_hour(&q);
        println!("{requests} requests in {:?}", start.elapsed());
    }
}
