//! Kong's `rate-limiting` plugin with `policy: local`, read from Kong's source (3.x:
//! kong/plugins/rate-limiting/handler.lua, policies/init.lua, schema.lua,
//! kong/tools/timestamp.lua): not run here (Kong has no Debian, npm or PyPI package).
//!
//! - The clock is `ngx.time()`: whole seconds. Windows are calendar-aligned in UTC (a minute
//!   from :00, an hour from the hour, a day from midnight); simulated time 0 is a UTC midnight.
//! - A request is refused when the window's usage has reached the limit (`limit − usage ≤ 0`);
//!   only admitted requests are counted (the increment runs after the decision, in a timer).
//! - `RateLimit-Reset` and `Retry-After` are `max(1, period − seconds into the window)`.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::second_window::{PeriodLimit, SecondWindow};
use crate::sim::time::SimTime;

/// The plugin's one limit as the production panel exports it: `minute: 100`.
pub type KongLimit = PeriodLimit;

/// One identifier's counters under the plugin.
#[derive(Clone, Debug)]
pub struct Kong {
    limit: KongLimit,
    window: SecondWindow,
    /// The last request's usage before it and its reset, s.
    last: (u64, u64),
}

impl Kong {
    /// An identifier with no usage yet.
    pub fn new(limit: KongLimit) -> Self {
        Kong { limit, window: SecondWindow::new(limit.period_s), last: (0, 1) }
    }
}

impl Kong {
    /// An identifier whose window starting at `start` (s) holds `count`: a picture of a
    /// store's counter (`store=sync`), to draw and read the status of.
    pub fn holding(limit: KongLimit, start: u64, count: u64) -> Self {
        Kong { limit, window: SecondWindow::holding(limit.period_s, start, count), last: (0, 1) }
    }
}

crate::sim::limiter::model!(Kong);

impl Limiter for Kong {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        let usage = self.window.count_at(t).0;
        self.last = (usage, self.window.reset_s(t));
        let allowed = usage < self.limit.limit;
        if allowed {
            self.window.add(t);
        }
        allowed
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

    /// The plugin's headers: the period's limit and remaining, the IETF draft's three, and
    /// `Retry-After` on a refusal, all in whole seconds.
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        let (usage, reset) = self.last;
        let remaining = self.limit.limit.saturating_sub(usage + 1).to_string();
        let (limit_name, remaining_name) = match self.limit.name() {
            "second" => ("X-RateLimit-Limit-Second", "X-RateLimit-Remaining-Second"),
            "minute" => ("X-RateLimit-Limit-Minute", "X-RateLimit-Remaining-Minute"),
            "hour" => ("X-RateLimit-Limit-Hour", "X-RateLimit-Remaining-Hour"),
            _ => ("X-RateLimit-Limit-Day", "X-RateLimit-Remaining-Day"),
        };
        let limit = self.limit.limit.to_string();
        let mut h = vec![
            (limit_name, limit.clone()),
            (remaining_name, remaining.clone()),
            ("RateLimit-Limit", limit),
            ("RateLimit-Remaining", remaining),
            ("RateLimit-Reset", reset.to_string()),
        ];
        if !d.allowed {
            h.push(("Retry-After", reset.to_string()));
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::time::Nanos;

    const SEC: u64 = 1_000_000_000;

    fn at_s(s: f64) -> SimTime {
        SimTime((s * 1e9) as u64)
    }

    #[test]
    fn a_minute_from_its_first_second_refusals_not_counted() {
        let mut k = Kong::new(KongLimit { period_s: 60, limit: 3 });
        let first: Vec<bool> = [59.0, 59.5, 59.9, 59.95].iter().map(|&s| k.acquire(at_s(s))).collect();
        assert_eq!(first, [true, true, true, false]);
        // 60 s is a new calendar minute: three more at once, six within a second.
        assert!((0..3).all(|_| k.acquire(at_s(60.2))));
        assert!(!k.acquire(at_s(60.3)));
    }

    #[test]
    fn reset_is_whole_seconds_and_at_least_one() {
        let mut k = Kong::new(KongLimit { period_s: 60, limit: 1 });
        k.acquire(at_s(10.7));
        assert!(!k.acquire(at_s(59.9)));
        let d = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
        assert!(k.headers(&d).contains(&("Retry-After", "1".into())));
        assert!(k.headers(&d).contains(&("X-RateLimit-Remaining-Minute", "0".into())));
    }

    #[test]
    fn the_period_nearest_the_window_keeps_the_rate() {
        use crate::sim::products::policy::Policy;
        let p = |limit, window_s: u64| Policy {
            shape: crate::sim::products::Shape::FixedWindow,
            burst: limit,
            rate_milli: 0,
            limit,
            window_ns: window_s * SEC,
        };
        assert_eq!(KongLimit::of(&p(100, 60)), KongLimit { period_s: 60, limit: 100 });
        // 10 s is nearer a minute (× 6) than a second (÷ 10); 600 s nearer an hour than a minute.
        assert_eq!(KongLimit::of(&p(20, 10)), KongLimit { period_s: 60, limit: 120 });
        assert_eq!(KongLimit::of(&p(50, 600)), KongLimit { period_s: 3_600, limit: 300 });
    }
}
