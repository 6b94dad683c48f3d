//! The server behind the limiter (issue #37): what the limiter protects. Off unless a link sets
//! `workers`; then every request the limiter admits goes to a [`Backend`] of that many workers
//! with a bounded waiting room, and the run reports what the server did ([`ServerStats`]): how
//! many it served, shed (503) and served too late for its client (wasted), how long requests
//! waited and took, how busy the workers were. Its keys are in [`keys`].

mod backend;
mod histogram;
pub mod keys;

pub use backend::{Admitted, Backend, Job, ServerBucket, ServerConfig, ServerStats, ServiceDist};
pub use histogram::LogHistogram;
pub use keys::{KEYS, KEY_COUNT};

use crate::sim::products::options::ProductOptions;
use crate::sim::time::Nanos;

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
