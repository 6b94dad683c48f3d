//! The server behind the limiter (issue #37): what the limiter protects. Off unless a link sets
//! `workers`; then every request the limiter admits goes to a [`Backend`] of that many workers
//! with a bounded waiting room, and the run reports what the server did ([`ServerStats`]): how
//! many it served, shed (503) and served too late for its client (wasted), how long requests
//! waited and took, how busy the workers were. Its keys are in [`keys`].

mod backend;
pub mod gate;
mod histogram;
pub mod keys;
mod replay;
pub mod report;
mod service;
mod spike;

pub use backend::{Admitted, Backend, Job, ServerBucket, ServerConfig, ServerStats};
pub use gate::{GateStats, RetryGate};
pub use histogram::LogHistogram;
pub use keys::{KEYS, KEY_COUNT};
pub use replay::replay;
pub use service::ServiceDist;
pub use spike::Spike;

use crate::sim::products::options::ProductOptions;
use crate::sim::scenario::{Scenario, TrafficShape};
use crate::sim::time::Nanos;

/// Whether the options `o` put anything behind or around the limiter: a server (`workers`), the
/// clients' retry budget or breaker, or a spike. Exactly when the engine makes one
/// (`tests/capabilities.rs` pins the two together).
pub fn wanted(o: &ProductOptions) -> bool {
    o.get(&keys::WORKERS) > 0
        || o.get(&keys::RETRY_BUDGET) > 0
        || o.get(&keys::RETRY_BREAKER) > 0
        || crate::sim::products::key::span(o.get(&keys::SPIKE)).is_some()
}

impl ServerConfig {
    /// The server the scenario's keys describe, if it has one (`workers` above 0).
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// use ratelimit_playground::sim::server::{ServerConfig, ServiceDist};
    /// let sc = Scenario::from_query("workers=4&service=12.5&service_dist=lognormal&service_cv=2").unwrap();
    /// let s = ServerConfig::of(&sc.product).unwrap();
    /// assert_eq!((s.workers, s.service.as_nanos(), s.dist), (4, 12_500_000, ServiceDist::LogNormal { cv: 2.0 }));
    /// assert_eq!((s.queue, s.lifo, s.client_timeout), (1_000, false, None));
    /// assert!(ServerConfig::of(&Scenario::default().product).is_none());
    /// ```
    pub fn of(o: &ProductOptions) -> Option<ServerConfig> {
        let workers = o.get(&keys::WORKERS) as u32;
        (workers > 0).then(|| ServerConfig {
            workers,
            service: Nanos(o.get(&keys::SERVICE) * 1_000),
            dist: match o.get(&keys::SERVICE_DIST) {
                0 => ServiceDist::Const,
                1 => ServiceDist::Exp,
                _ => ServiceDist::LogNormal { cv: o.get(&keys::SERVICE_CV) as f64 / 100.0 },
            },
            queue: o.get(&keys::SERVER_QUEUE),
            lifo: o.get(&keys::DISCIPLINE) == 1,
            client_timeout: Some(o.get(&keys::CLIENT_TIMEOUT)).filter(|&t| t > 0).map(|t| Nanos(t * 1_000)),
        })
    }
}

/// Queueing theory's mean wait (ns) for Poisson arrivals at `lambda` per second, where it has a
/// closed form: one worker, any service spread (Pollaczek–Khinchine, M/G/1:
/// `λ·E[S²] / (2(1 − ρ))` with `E[S²] = S²(1 + cv²)`), or several with exponential services
/// (Erlang C, M/M/c). `None` at or past saturation, or for constant and lognormal services on
/// several workers (no closed form). Basic operations only, so it prints the same everywhere.
///
/// ```
/// use ratelimit_playground::sim::Scenario;
/// use ratelimit_playground::sim::server::{predicted_wait, ServerConfig};
/// let s = |q| ServerConfig::of(&Scenario::from_query(q).unwrap().product).unwrap();
/// // M/M/1 at ρ = 0.5: ρ / (μ − λ) = 10 ms; M/D/1: half of it.
/// assert_eq!(predicted_wait(&s("workers=1&service=10"), 50.0), Some(10_000_000.0));
/// assert_eq!(predicted_wait(&s("workers=1&service=10&service_dist=const"), 50.0), Some(5_000_000.0));
/// assert_eq!(predicted_wait(&s("workers=1&service=10"), 100.0), None);
/// ```
pub fn predicted_wait(cfg: &ServerConfig, lambda: f64) -> Option<f64> {
    let s = cfg.service.as_nanos() as f64 / 1e9;
    let c = f64::from(cfg.workers);
    let rho = lambda * s / c;
    if rho >= 1.0 || rho.is_nan() || lambda <= 0.0 {
        return None;
    }
    let cv2 = match cfg.dist {
        ServiceDist::Const => 0.0,
        ServiceDist::Exp => 1.0,
        ServiceDist::LogNormal { cv } => cv * cv,
    };
    let wait_s = if cfg.workers == 1 {
        lambda * s * s * (1.0 + cv2) / (2.0 * (1.0 - rho))
    } else if cfg.dist == ServiceDist::Exp {
        // Erlang C with a = λS: the sum of a^k / k! below c, and the waiting term.
        let a = lambda * s;
        let (mut term, mut below) = (1.0, 0.0);
        for k in 0..cfg.workers {
            below += term;
            term = term * a / f64::from(k + 1);
        }
        let waiting = term / (1.0 - rho);
        waiting / (below + waiting) / (c / s - lambda)
    } else {
        return None;
    };
    Some(wait_s * 1e9)
}

/// Queueing theory's mean wait (ns) for the server of `sc`, where it applies: Poisson arrivals
/// at `rate` with no spike, that reach the server as they were sent (`untouched`: none refused,
/// retried or shed), and a closed form for the server ([`predicted_wait`]).
pub fn predicted_wait_of(sc: &Scenario, untouched: bool) -> Option<f64> {
    let steady = sc.traffic == TrafficShape::Poisson && sc.product.get(&keys::SPIKE) == 0;
    ServerConfig::of(&sc.product).filter(|_| steady && untouched).and_then(|c| predicted_wait(&c, sc.rate.as_per_sec()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::products::PRODUCT_KEYS;

    #[test]
    fn the_server_s_keys_are_the_last_of_the_keys_the_first_modules_do_not_read() {
        // The query format finds them by place (`workers` first).
        assert_eq!(PRODUCT_KEYS[PRODUCT_KEYS.len() - KEY_COUNT..], KEYS);
    }
}
