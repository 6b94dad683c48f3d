//! envoyproxy/ratelimit, the global rate limit service Envoy's `ratelimit` filter asks, read from
//! its source (src/limiter/base_limiter.go, src/redis/fixed_cache_impl.go,
//! src/limiter/cache_key.go, src/utils/utilities.go) and Envoy's filter
//! (source/extensions/filters/http/ratelimit/ratelimit_headers.cc): not run here (neither has a
//! package this machine can install).
//!
//! - A whole-second clock (`time.Now().Unix()`); windows aligned to the Unix epoch, one Redis key
//!   per window (`now / unit * unit`).
//! - Every request is `INCRBY 1` first; it is over the limit when the count *after* it is above
//!   `requests_per_unit`, so refused requests count.
//! - With `enable_x_ratelimit_headers: DRAFT_VERSION_03` Envoy sends `x-ratelimit-limit`,
//!   `-remaining` and `-reset` (seconds to the window's end); a refusal carries
//!   `x-envoy-ratelimited: true`. The service's local over-limit cache is off by default.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::second_window::{PeriodLimit, SecondWindow};
use crate::sim::time::SimTime;

/// One descriptor's `rate_limit` as the production panel exports it: `unit` is the period's
/// name, `requests_per_unit` its limit.
pub type GlobalLimit = PeriodLimit;

/// One descriptor's counter in Redis.
#[derive(Clone, Debug)]
pub struct EnvoyGlobal {
    limit: GlobalLimit,
    window: SecondWindow,
    /// The last request's count after it and the seconds to its window's end.
    last: (u64, u64),
}

impl EnvoyGlobal {
    /// A descriptor Redis has no key for.
    pub fn new(limit: GlobalLimit) -> Self {
        EnvoyGlobal { limit, window: SecondWindow::new(limit.period_s), last: (0, 1) }
    }
}

crate::sim::limiter::model!(EnvoyGlobal);

impl Limiter for EnvoyGlobal {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        let count = self.window.count_at(t).0;
        self.window.add(t);
        self.last = (count + 1, self.window.reset_s(t));
        count < self.limit.limit
    }

    fn consume(&mut self, now: SimTime) {
        self.window.add(now.as_nanos());
    }

    fn status(&self, now: SimTime) -> Status {
        self.window.status(self.limit.limit, now.as_nanos())
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        self.window.gauge(now.as_nanos())
    }

    fn quota(&self) -> Quota {
        self.window.quota(self.limit.limit)
    }

    /// Envoy's draft-03 headers from the service's answer, and `x-envoy-ratelimited` on a 429.
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        let (count, reset) = self.last;
        let GlobalLimit { period_s: unit_s, limit: requests } = self.limit;
        let mut h = vec![
            ("x-ratelimit-limit", format!("{requests}, {requests};w={unit_s}")),
            ("x-ratelimit-remaining", requests.saturating_sub(count).to_string()),
            ("x-ratelimit-reset", reset.to_string()),
        ];
        if !d.allowed {
            h.push(("x-envoy-ratelimited", "true".into()));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refused_hits_count_in_epoch_aligned_windows() {
        let mut e = EnvoyGlobal::new(GlobalLimit { period_s: 1, limit: 2 });
        let at = |ms: u64| SimTime(ms * 1_000_000);
        let got: Vec<bool> = [0, 100, 200, 999, 1_000, 1_001, 1_002].iter().map(|&ms| e.acquire(at(ms))).collect();
        assert_eq!(got, [true, true, false, false, true, true, false]);
        assert_eq!(e.gauge(at(1_500)).current, 3, "the refused third counts");
    }
}
