//! The data the server view's charts ([`super::server`]) draw from a run ([`ServerWindow`]): per
//! completed series bucket over the last minute, the requests offered to the limiter, what the server answered in time
//! (goodput), too late (wasted) and at once with a 503 (shed), the latency of what it finished
//! (mean, p50, p99) and the longest queue; with the server's capacity, queueing theory's mean
//! latency where it applies, and the waiting room's size as reference lines.

use super::throughput::ThroughputWindow;
use crate::sim::server::{predicted_wait_of, ServerConfig};
use crate::sim::Simulation;

/// One completed series bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ServerPoint {
    /// When it starts, simulated seconds.
    pub start_secs: f64,
    /// Its length, seconds.
    pub width_secs: f64,
    /// Requests the limiter decided (new and retried).
    pub offered: u64,
    /// Answered within the client's timeout.
    pub goodput: u64,
    /// Answered after the client gave up.
    pub wasted: u64,
    /// Answered 503, the waiting room full.
    pub shed: u64,
    /// The mean latency of those finished in it, ms (0 with none).
    pub mean_ms: f64,
    /// Their median latency, ms.
    pub p50_ms: f64,
    /// Their 99th percentile latency, ms.
    pub p99_ms: f64,
    /// The most requests waiting at once.
    pub queue_max: u64,
}

/// What the server cards draw at one moment of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ServerWindow {
    /// The x axis' right edge, simulated seconds: the end of the last completed bucket.
    pub end_secs: f64,
    /// The x axis' width, seconds.
    pub width_secs: f64,
    /// Completed buckets in time order.
    pub points: Vec<ServerPoint>,
    /// The most requests a second the workers can finish: workers ÷ mean service time.
    pub capacity: f64,
    /// Queueing theory's mean latency (wait and service), ms, where it applies
    /// ([`predicted_wait_of`]; its condition is checked on the run so far).
    pub theory_ms: Option<f64>,
    /// The waiting room's size.
    pub queue_bound: u64,
}

impl ServerWindow {
    /// The last `seconds` of completed buckets of `sim` at its current time, the axis growing
    /// as the throughput chart's does; `None` without a server.
    ///
    /// ```
    /// use ratelimit_playground::chart::server_window::ServerWindow;
    /// use ratelimit_playground::sim::{Scenario, SimTime, Simulation};
    /// let sc = Scenario::from_query("capacity=1000000&refill=1000000&rate=50&workers=1&service=10&service_dist=const").unwrap();
    /// let mut sim = Simulation::new(&sc);
    /// sim.step_until(SimTime::from_secs(5));
    /// let w = ServerWindow::of(&sim, 60).unwrap();
    /// assert_eq!((w.points.len(), w.capacity), (5, 100.0));
    /// // Constant arrivals every 20 ms, served in 10: nobody waits, each takes 10 ms.
    /// assert!(w.points.iter().all(|p| p.goodput == 50 && p.p99_ms > 9.8 && p.p99_ms <= 10.0 && p.queue_max == 0));
    /// assert_eq!(w.theory_ms, None); // constant arrivals are not Poisson
    /// ```
    pub fn of(sim: &Simulation, seconds: u64) -> Option<ServerWindow> {
        let stats = sim.server_stats()?;
        let sc = sim.scenario();
        let cfg = ServerConfig::of(&sc.product)?;
        let frame = ThroughputWindow::from_metrics(sim.metrics(), sim.now(), seconds);
        let width = sim.metrics().bucket_width.as_nanos().max(1);
        let points = frame
            .buckets
            .iter()
            .map(|b| {
                let index = (b.start_secs * 1e9).round() as u64 / width;
                let s = stats.bucket(index).copied().unwrap_or_default();
                let (p50, p99) = stats.latency_quantiles(index).unwrap_or_default();
                let ms = |ns: u64| ns as f64 / 1e6;
                ServerPoint {
                    start_secs: b.start_secs,
                    width_secs: b.width_secs,
                    offered: b.admitted + b.rejected,
                    goodput: s.goodput,
                    wasted: s.wasted,
                    shed: s.shed,
                    mean_ms: if s.served == 0 { 0.0 } else { s.latency_sum as f64 / s.served as f64 / 1e6 },
                    p50_ms: ms(p50.as_nanos()),
                    p99_ms: ms(p99.as_nanos()),
                    queue_max: s.queue_max,
                }
            })
            .collect();
        let t = &sim.metrics().totals;
        let untouched = t.rejected == 0 && t.retries == 0 && stats.shed == 0;
        let service_ms = cfg.service.as_nanos() as f64 / 1e6;
        Some(ServerWindow {
            end_secs: frame.end_secs,
            width_secs: frame.width_secs,
            points,
            capacity: f64::from(cfg.workers) * 1e3 / service_ms,
            theory_ms: predicted_wait_of(sc, untouched).map(|w| w / 1e6 + service_ms),
            queue_bound: cfg.queue,
        })
    }

    /// The largest of a per-point value, 0 when empty.
    pub fn peak(&self, value: impl Fn(&ServerPoint) -> f64) -> f64 {
        self.points.iter().map(value).fold(0.0, f64::max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Scenario, SimTime};

    fn window(q: &str, secs: u64) -> ServerWindow {
        let mut sim = Simulation::new(&Scenario::from_query(q).unwrap());
        sim.step_until(SimTime::from_secs(secs));
        ServerWindow::of(&sim, 60).unwrap()
    }

    #[test]
    fn theory_s_mean_latency_is_the_predicted_wait_plus_the_service() {
        let w = window("capacity=1000000&refill=1000000&traffic=poisson&rate=50&workers=1&service=10", 3);
        // M/M/1 at ρ = 0.5: 10 ms waiting and 10 ms served.
        assert!((w.theory_ms.unwrap() - 20.0).abs() < 1e-9);
    }

    #[test]
    fn an_overloaded_waiting_room_shows_its_depth_and_sheds_beyond_it() {
        let w = window(
            "capacity=1000000&refill=1000000&rate=200&workers=1&service=10&service_dist=const&server_queue=50",
            5,
        );
        let last = w.points.last().unwrap();
        assert_eq!(last.queue_max, 50);
        assert_eq!(last.goodput, 100, "one worker, 10 ms each");
        assert!(last.shed >= 95, "{last:?}");
        assert!(last.p50_ms > 490.0, "fifty ahead of each request: {last:?}");
    }

    #[test]
    fn no_server_no_window() {
        let sim = Simulation::new(&Scenario::default());
        assert!(ServerWindow::of(&sim, 60).is_none());
    }
}
