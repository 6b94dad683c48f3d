//! Cloudflare's rate limiting rules (WAF), as documented (developers.cloudflare.com/waf/
//! rate-limiting-rules/: "counting period", "requests per period", "duration" or mitigation
//! timeout, counters per data center) and, for how a period is counted, as Cloudflare described
//! its counters in 2017 ("Counting things, a lot of different things": the current period's count
//! plus the previous one's, weighed by what is left of the period): not run here (a managed
//! service, outside this machine). What the current documentation leaves open is chosen and said:
//!
//! - a request that would take the weighed count above the limit triggers the rule and is
//!   blocked; with a mitigation timeout, every request in the next `timeout` seconds is blocked
//!   regardless of rate; with a timeout of 0 (throttle), only requests over the rate are;
//! - blocked requests are not counted (so a throttled client passes at about the limit).

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::key::{KeyKind, ProductKey};
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::{nearest_period, Policy};
use crate::sim::time::{Nanos, SimTime};

const SEC: u64 = 1_000_000_000;

/// The counting periods the API takes, seconds.
pub const PERIODS: [u64; 6] = [10, 60, 120, 300, 600, 3_600];

/// `cf_timeout=S`: the rule's mitigation timeout in seconds, one of the API's values; 0 throttles
/// instead of blocking for a while (an Enterprise option).
pub const TIMEOUT: ProductKey = ProductKey {
    key: "cf_timeout",
    kind: KeyKind::Names(&[
        ("60", 60),
        ("0", 0),
        ("10", 10),
        ("120", 120),
        ("300", 300),
        ("600", 600),
        ("3600", 3_600),
        ("86400", 86_400),
    ]),
    default: 60,
};

/// A rule's characteristics as the production panel exports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CfRule {
    /// The counting period, seconds (one of [`PERIODS`]).
    pub period_s: u64,
    /// Requests per period.
    pub requests: u64,
    /// The mitigation timeout, seconds (0: throttle).
    pub timeout_s: u64,
}

impl CfRule {
    /// The period nearest the policy's window, with the limit that keeps its rate, and the
    /// timeout of `o`.
    pub fn of(p: &Policy, o: &ProductOptions) -> CfRule {
        let (period_s, requests) = nearest_period(p, &PERIODS);
        CfRule { period_s, requests, timeout_s: o.get(&TIMEOUT) }
    }
}

/// One client's counters in one data center.
#[derive(Clone, Debug)]
pub struct Cloudflare {
    rule: CfRule,
    /// The current period's index, its count and the previous period's.
    counts: (u64, u64, u64),
    /// Blocked until then (ns).
    blocked_until: u64,
}

impl Cloudflare {
    /// A client the data center has not counted.
    pub fn new(rule: CfRule) -> Self {
        Cloudflare { rule, counts: (u64::MAX, 0, 0), blocked_until: 0 }
    }

    /// The counts at `t` (ns): (period index, current, previous).
    fn counts_at(&self, t: u64) -> (u64, u64, u64) {
        let index = t / (self.rule.period_s * SEC);
        let (at, current, previous) = self.counts;
        match index.checked_sub(at) {
            Some(0) => (index, current, previous),
            Some(1) => (index, 0, current),
            _ if at == u64::MAX || index > at => (index, 0, 0),
            _ => (at, current, previous),
        }
    }

    /// Whether a request at `t` stays within the rate: `previous × left/period + current + 1 ≤ limit`.
    fn within(&self, t: u64) -> bool {
        let period = u128::from(self.rule.period_s * SEC);
        let (index, current, previous) = self.counts_at(t);
        let left = period - u128::from(t - index * self.rule.period_s * SEC);
        u128::from(previous) * left + u128::from(current + 1) * period <= u128::from(self.rule.requests) * period
    }
}

crate::sim::limiter::model!(Cloudflare);

impl Limiter for Cloudflare {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        if t < self.blocked_until {
            return false;
        }
        let (index, current, previous) = self.counts_at(t);
        if !self.within(t) {
            self.counts = (index, current, previous);
            self.blocked_until = t + self.rule.timeout_s * SEC;
            return false;
        }
        self.counts = (index, current + 1, previous);
        true
    }

    fn consume(&mut self, now: SimTime) {
        let (index, current, previous) = self.counts_at(now.as_nanos());
        self.counts = (index, current + 1, previous);
    }

    fn status(&self, now: SimTime) -> Status {
        let t = now.as_nanos();
        let (index, current, _) = self.counts_at(t);
        let period = self.rule.period_s * SEC;
        let end = (index + 1) * period;
        let wait = if t < self.blocked_until {
            self.blocked_until - t
        } else if self.within(t) {
            0
        } else {
            // The weighed count only falls while no request comes (the previous period's weight
            // shrinks, and at the turn the current count becomes it): the first millisecond that
            // admits, by bisection over the two periods after which nothing is counted.
            let step = 1_000_000;
            let (mut lo, mut hi) = (0, (2 * period).div_ceil(step));
            while lo + 1 < hi {
                let mid = lo + (hi - lo) / 2;
                if self.within(t + mid * step) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            hi * step
        };
        Status { remaining: self.rule.requests.saturating_sub(current), reset: Nanos(end - t), wait: Nanos(wait) }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let t = now.as_nanos();
        let (index, current, previous) = self.counts_at(t);
        let period = self.rule.period_s * SEC;
        let left = period - (t - index * period);
        let level = previous as f64 * left as f64 / period as f64 + current as f64;
        Gauge { level, current, previous }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.rule.requests, window: Nanos(self.rule.period_s * SEC) }
    }

    /// A block is a bare 429 (the rule's default response): no documented rate header.
    fn headers(&self, _: &Decision) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_s(s: u64) -> SimTime {
        SimTime(s * SEC)
    }

    #[test]
    fn the_rule_blocks_for_its_timeout_regardless_of_rate() {
        let mut c = Cloudflare::new(CfRule { period_s: 10, requests: 2, timeout_s: 60 });
        assert!(c.acquire(at_s(0)) && c.acquire(at_s(1)));
        assert!(!c.acquire(at_s(2)), "the third in 10 s triggers the rule");
        assert!(!c.acquire(at_s(61)), "blocked for 60 s, however slowly it sends");
        assert!(c.acquire(at_s(62)));
    }

    #[test]
    fn the_wait_of_a_throttled_request_is_found_at_once_even_for_an_hour_long_period() {
        let mut c = Cloudflare::new(CfRule { period_s: 3_600, requests: 2, timeout_s: 0 });
        assert!(c.acquire(at_s(0)) && c.acquire(at_s(1)));
        assert!(!c.acquire(at_s(2)));
        // Two in the previous period weigh 2 × left/3600 + 1 ≤ 2 once left ≤ 1 800 s: at 5 400 s.
        assert_eq!(c.status(at_s(2)).wait, Nanos((5_400 - 2) * SEC));
        assert!(c.acquire(at_s(5_400)));
    }

    #[test]
    fn throttling_passes_requests_under_the_rate() {
        let mut c = Cloudflare::new(CfRule { period_s: 10, requests: 2, timeout_s: 0 });
        assert!(c.acquire(at_s(0)) && c.acquire(at_s(1)));
        assert!(!c.acquire(at_s(2)));
        // At 15 s the previous period's 2 weigh 2 × 5/10 = 1: one more fits.
        assert!(c.acquire(at_s(15)));
        assert!(!c.acquire(at_s(15)));
    }
}
