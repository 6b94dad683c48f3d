//! What a batch run's report says of the server behind the limiter ([`super`]): its totals
//! ([`ServerReport`], the `server` object of `ratelimit-sim`'s JSON) and each series bucket's
//! ([`ServerRow`]).

use super::{predicted_wait_of, LogHistogram, ServerStats};
use crate::sim::scenario::Scenario;
use crate::sim::time::Nanos;
use serde::Serialize;

/// What the server behind the limiter did over a run ([`crate::sim::server`]).
#[derive(Clone, Debug, Serialize)]
pub struct ServerReport {
    /// Requests the limiter admitted, handed to the server.
    pub arrived: u64,
    /// Finished.
    pub served: u64,
    /// Finished within the client's timeout (every finished one without a timeout).
    pub goodput: u64,
    /// Finished after the client had given up: work for nothing.
    pub wasted: u64,
    /// Answered 503, the waiting room full.
    pub shed: u64,
    /// Clients that stopped waiting before the answer (and retried as their policy says).
    pub timed_out: u64,
    /// The workers' busy share of the run (its duration, or until the last request finished).
    pub utilization: f64,
    /// Requests waiting for a worker, on average over the same time.
    pub queue_mean: f64,
    /// The most waiting at once.
    pub queue_max: u64,
    /// From reaching the server to a worker taking it, ms.
    pub wait_ms: Spread,
    /// Queueing theory's mean wait, ms, where it applies: Poisson arrivals (no spike) that
    /// reach the server as they were sent (none refused, shed or retried) and a closed form for
    /// the server ([`crate::sim::server::predicted_wait_of`]).
    pub predicted_wait_ms: Option<f64>,
    /// From the client sending it to the server finishing it, ms.
    pub latency_ms: Spread,
}

/// A mean and two percentiles, ms (the percentiles within 1.6 %: [`LogHistogram`]).
#[derive(Clone, Debug, Serialize)]
pub struct Spread {
    /// Mean.
    pub mean: f64,
    /// Median.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Spread {
    fn of(h: &LogHistogram) -> Spread {
        let ms = |p| h.percentile(p).as_nanos() as f64 / 1e6;
        Spread { mean: h.mean_ms(), p50: ms(50.0), p99: ms(99.0) }
    }
}

impl ServerReport {
    /// Summarises `s` over a run of `sc.duration` (longer if requests finished after it);
    /// `untouched`: every request reached the server as it was sent (none refused or retried).
    pub fn new(sc: &Scenario, s: &ServerStats, untouched: bool) -> Self {
        let elapsed = Nanos(sc.duration.as_nanos().max(s.end.as_nanos()));
        let predicted = predicted_wait_of(sc, untouched && s.shed == 0);
        ServerReport {
            arrived: s.arrived,
            served: s.served,
            goodput: s.goodput,
            wasted: s.wasted,
            shed: s.shed,
            timed_out: s.timed_out,
            utilization: s.utilization(elapsed),
            queue_mean: s.queue_mean(elapsed),
            queue_max: s.max_queue,
            wait_ms: Spread::of(&s.wait),
            predicted_wait_ms: predicted.map(|ns| ns / 1e6),
            latency_ms: Spread::of(&s.latency),
        }
    }
}

/// What the server did in one series bucket.
#[derive(Clone, Debug, Serialize)]
pub struct ServerRow {
    /// Finished.
    pub served: u64,
    /// Finished within the client's timeout.
    pub goodput: u64,
    /// Finished after the client gave up.
    pub wasted: u64,
    /// Answered 503.
    pub shed: u64,
    /// The mean latency of those finished in it, ms (0 with none).
    pub latency_ms: f64,
    /// Their median latency, ms.
    pub latency_p50_ms: f64,
    /// Their 99th percentile latency, ms.
    pub latency_p99_ms: f64,
    /// The most requests waiting at once in it.
    pub queue_max: u64,
}

impl ServerRow {
    /// Bucket `index` of `s`.
    pub fn of(s: &ServerStats, index: u64) -> ServerRow {
        let b = s.bucket(index).copied().unwrap_or_default();
        let (p50, p99) = s.latency_quantiles(index).unwrap_or_default();
        let latency_ms = if b.served == 0 { 0.0 } else { b.latency_sum as f64 / b.served as f64 / 1e6 };
        ServerRow {
            served: b.served,
            goodput: b.goodput,
            wasted: b.wasted,
            shed: b.shed,
            latency_ms,
            latency_p50_ms: p50.as_nanos() as f64 / 1e6,
            latency_p99_ms: p99.as_nanos() as f64 / 1e6,
            queue_max: b.queue_max,
        }
    }
}
