//! Rack::Attack 6.6 (Ruby's Rack middleware, in most Rails apps) with one `throttle`, as
//! `lib/rack/attack/throttle.rb`, `cache.rb` and `configuration.rb` of the Debian package
//! `ruby-rack-attack` 6.6.1 compute it (read from the package):
//!
//! - the clock is `Time.now.to_i`: whole Unix seconds, read once per request (`cache.rb`);
//! - the counter's key is `(now / period)`: periods are aligned to the Unix epoch, whatever their
//!   length (simulated time 0 is a UTC midnight, [`crate::sim::time::EPOCH_S`], so an 11 s period
//!   starts where it would in production);
//! - every request the throttle matches increments the counter, refused ones too, and a request
//!   is throttled when the count is `> limit` (`throttle.rb`);
//! - the default throttled response is a 429 whose `Retry-After` (with
//!   `throttled_response_retry_after_header = true`) is `period − now % period`: whole seconds to
//!   the next period, 1 to `period`.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::products::second_window::SecondWindow;
use crate::sim::time::SimTime;

/// The exported `throttle(name, limit:, period:)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Throttle {
    /// `limit:` requests per period.
    pub limit: u64,
    /// `period:` whole seconds (Rack::Attack takes `period.to_i`).
    pub period: u64,
}

impl Throttle {
    /// What the production panel exports for `p`: the window in whole seconds, rounded to the
    /// nearest and at least 1 (a bucket's policy is counted as a fixed window of its burst).
    pub fn of(p: &Policy) -> Throttle {
        Throttle { limit: p.limit, period: (p.window_ns.saturating_add(500_000_000) / 1_000_000_000).max(1) }
    }
}

/// One discriminator's (client's) counters under the throttle.
#[derive(Clone, Debug)]
pub struct RackAttack {
    throttle: Throttle,
    window: SecondWindow,
    /// The last request's `Retry-After`, s.
    retry_after: u64,
}

impl RackAttack {
    /// A client the store has not counted.
    pub fn new(throttle: Throttle) -> Self {
        RackAttack { throttle, window: SecondWindow::unix(throttle.period), retry_after: throttle.period }
    }
}

crate::sim::limiter::model!(RackAttack);

impl Limiter for RackAttack {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        self.window.add(t);
        self.retry_after = self.window.reset_s(t);
        self.window.count_at(t).0 <= self.throttle.limit
    }

    fn consume(&mut self, now: SimTime) {
        self.window.add(now.as_nanos());
    }

    fn status(&self, now: SimTime) -> Status {
        self.window.status(self.throttle.limit, now.as_nanos())
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        self.window.gauge(now.as_nanos())
    }

    fn quota(&self) -> Quota {
        self.window.quota(self.throttle.limit)
    }

    /// The default throttled response's one header: `Retry-After` on a 429 (none on a pass).
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        match d.allowed {
            true => vec![],
            false => vec![("Retry-After", self.retry_after.to_string())],
        }
    }

    /// Periods on the log's own days: simulated 0 is its first midnight, `origin_s`.
    fn for_sender(&mut self, _key: &str, origin_s: u64) {
        self.window = SecondWindow::unix_from(self.throttle.period, origin_s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::{Nanos, EPOCH_S};

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn periods_are_aligned_to_the_unix_epoch_and_refusals_count() {
        // EPOCH_S % 11 == 8: the first 11 s period after simulated 0 ends at 3 s.
        assert_eq!(EPOCH_S % 11, 8);
        let mut r = RackAttack::new(Throttle { limit: 2, period: 11 });
        assert!(r.acquire(at_ms(0)));
        assert!(r.acquire(at_ms(1_000)));
        assert!(!r.acquire(at_ms(2_999)));
        let refused = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
        assert_eq!(r.headers(&refused), [("Retry-After", "1".to_string())]);
        assert!(r.acquire(at_ms(3_000)));
        assert!(r.acquire(at_ms(3_500)));
        // The refused third counts: the period stays refused until it ends, 11 s on.
        assert!(!r.acquire(at_ms(4_000)));
        assert!(!r.acquire(at_ms(13_999)));
        assert_eq!(r.status(at_ms(13_999)).wait.as_nanos(), 1_000_000);
        assert!(r.acquire(at_ms(14_000)));
    }

    #[test]
    fn the_clock_is_whole_seconds() {
        let mut r = RackAttack::new(Throttle { limit: 1, period: 1 });
        assert!(r.acquire(at_ms(100)));
        assert!(!r.acquire(at_ms(999)));
        assert!(r.acquire(at_ms(1_000)));
    }
}
