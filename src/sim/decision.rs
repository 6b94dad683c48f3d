//! [`Decision`]: what a limiter answers for one request, and the HTTP headers that carry it.

use super::time::Nanos;

/// The quota a limiter enforces, as advertised in `RateLimit-Policy`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Quota {
    /// Requests allowed per `window` (the burst capacity for token buckets and GCRA).
    pub limit: u64,
    /// The time over which `limit` applies (for token buckets: the time to refill from empty).
    pub window: Nanos,
}

/// A limiter's state seen from outside at one instant, before or after deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Status {
    /// Whole requests that would be admitted right now, back to back.
    pub remaining: u64,
    /// Time until the quota is fully restored (bucket full, window over, log empty).
    pub reset: Nanos,
    /// Time until the next request would be admitted (zero if one would be admitted now).
    pub wait: Nanos,
}

/// The part of a decision the engine needs on its hot path: admitted or not, and for a
/// rejection the exact time until a request would be admitted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Whether the request is admitted.
    pub allowed: bool,
    /// For a rejection: the time until a request would be admitted (`None` when the limiter
    /// could not say, as on a store timeout).
    pub retry_after: Option<Nanos>,
    /// For an admission: how long, in whole milliseconds, the limiter holds the request before
    /// serving it (nginx without `nodelay`, which counts in ms); zero otherwise. Kept in 32 bits
    /// so a verdict stays 24 bytes: the engine's events carry one through its queue.
    pub delay_ms: u32,
}

impl Verdict {
    /// An answer with no delay.
    pub const fn new(allowed: bool, retry_after: Option<Nanos>) -> Self {
        Verdict { allowed, retry_after, delay_ms: 0 }
    }

    /// An answer held `delay` before it is served (whole ms, saturating).
    pub fn held(allowed: bool, retry_after: Option<Nanos>, delay: Nanos) -> Self {
        let delay_ms = u32::try_from(delay.as_nanos() / 1_000_000).unwrap_or(u32::MAX);
        Verdict { allowed, retry_after, delay_ms }
    }

    /// How long the limiter holds the request before serving it.
    pub const fn delay(&self) -> Nanos {
        Nanos::from_millis(self.delay_ms as u64)
    }
}

/// One decision as a run's log keeps it ([`crate::sim::Simulation::record_decisions`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecisionRecord {
    /// When the request reached the load balancer (and its node).
    pub arrived: super::time::SimTime,
    /// When its node answered.
    pub decided: super::time::SimTime,
    /// The node that answered.
    pub node: u32,
    /// 0 for a new request, k for its k-th retry.
    pub retry: u32,
    /// The answer.
    pub verdict: Verdict,
}

/// The answer to one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Whether the request is admitted (otherwise: HTTP 429).
    pub allowed: bool,
    /// Requests still allowed right after this decision.
    pub remaining: u64,
    /// Time until the quota is fully restored.
    pub reset: Nanos,
    /// For a rejection: the time until a request would be admitted, exact to the nanosecond.
    pub retry_after: Option<Nanos>,
}

impl Decision {
    /// A decision built from whether the request passed and the limiter's status afterwards.
    pub fn new(allowed: bool, after: Status) -> Self {
        Decision {
            allowed,
            remaining: after.remaining,
            reset: after.reset,
            retry_after: (!allowed).then_some(after.wait),
        }
    }

    /// The response headers for this decision: `RateLimit-Policy` and `RateLimit` as in the IETF
    /// httpapi draft (`q` quota, `w` window, `r` remaining, `t` seconds to reset), plus
    /// `Retry-After` in whole seconds, rounded up, on a rejection.
    ///
    /// ```
    /// use ratelimit_playground::sim::{Decision, Nanos, Quota};
    /// let d = Decision { allowed: false, remaining: 0, reset: Nanos::from_millis(1500),
    ///                    retry_after: Some(Nanos::from_millis(200)) };
    /// let q = Quota { limit: 10, window: Nanos::from_secs(2) };
    /// assert_eq!(d.headers(q), vec![
    ///     ("RateLimit-Policy", "\"default\";q=10;w=2".to_string()),
    ///     ("RateLimit", "\"default\";r=0;t=2".to_string()),
    ///     ("Retry-After", "1".to_string()),
    /// ]);
    /// ```
    pub fn headers(&self, quota: Quota) -> Vec<(&'static str, String)> {
        let mut h = vec![
            ("RateLimit-Policy", format!("\"default\";q={};w={}", quota.limit, quota.window.ceil_secs())),
            ("RateLimit", format!("\"default\";r={};t={}", self.remaining, self.reset.ceil_secs())),
        ];
        if let Some(wait) = self.retry_after {
            // A client told "0" would retry at once and be refused again: never say less than 1.
            h.push(("Retry-After", wait.ceil_secs().max(1).to_string()));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_verdict_stays_24_bytes_with_its_delay() {
        assert_eq!(std::mem::size_of::<super::Verdict>(), 24);
    }
}
