//! Profiling aid: fast-forwards one hour at 1 000 requests/s (Poisson) and prints the time.
use ratelimit_playground::sim::{Scenario, SimTime, Simulation};
fn main() {
    let q = std::env::args().nth(1).unwrap_or_else(|| "rate=1000&traffic=poisson".into());
    let sc = Scenario::from_query(&q).unwrap();
    let start = std::time::Instant::now();
    let mut sim = Simulation::new(&sc);
    sim.step_until(SimTime::from_secs(3600));
    println!("{} requests in {:?}", sim.metrics().totals.requests, start.elapsed());
}
