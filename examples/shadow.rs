//! Shadow mode alone, for `perf` natively: a 300-minute `api` sample (1.1 M combined lines)
//! generated once, then read, parsed and run one limiter per client five times, with the rate
//! printed. `cargo build --profile bench --example shadow && perf record -g target/release/examples/shadow`.

use ratelimit_playground::sim::logs::{samples::sample_log, shadow, KeyBy};
use ratelimit_playground::sim::Scenario;

fn main() {
    let log = sample_log("api", 1, 300).expect("a sample");
    let lines = log.lines().count() as f64;
    let sc = Scenario::from_query("capacity=20&refill=2").expect("a valid policy");
    let start = std::time::Instant::now();
    for _ in 0..5 {
        std::hint::black_box(shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).expect("the sample reads"));
    }
    eprintln!("{:.2} M lines/s", 5.0 * lines / start.elapsed().as_secs_f64() / 1e6);
}
