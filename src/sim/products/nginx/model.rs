//! nginx `limit_req` as nginx 1.22 computes it, read from
//! `src/http/modules/ngx_http_limit_req_module.c` (`ngx_http_limit_req_lookup`,
//! `ngx_http_limit_req_account`, the `limit_req_zone` and `limit_req` parsers):
//!
//! - the rate is kept in milli-requests per second, `r/m` truncated: `rate * 1000 / 60`
//!   (`1r/m` is 16, not 16.67);
//! - time is nginx's cached millisecond clock (`ngx_current_msec`): here, whole milliseconds of
//!   simulated time;
//! - per request `excess = excess − rate × ms / 1000 + 1000` in integers (truncating), floored
//!   at 0, and the request is refused when `excess > burst × 1000`;
//! - only requests that pass write the state back, and `last` moves only when at least one
//!   millisecond has passed;
//! - without `nodelay`, a request that passes with `excess > delay × 1000` is held for
//!   `(excess − delay × 1000) × 1000 / rate` ms before nginx serves it: delayed, not refused.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::key::{KeyKind, ProductKey, ON_OFF};
use crate::sim::products::options::ProductOptions;
use crate::sim::products::policy::Policy;
use crate::sim::time::{Nanos, SimTime};

const NS_PER_MS: u64 = 1_000_000;

/// A `limit_req_zone` rate as nginx accepts it: whole requests per second or per minute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NginxRate {
    /// The number written before `r/s` or `r/m`.
    pub value: u64,
    /// `r/m` rather than `r/s`.
    pub per_minute: bool,
}

impl NginxRate {
    /// The exported rate for `milli` requests per 1000 s: whole r/s if exact, else whole r/m if
    /// exact, else the nearest whole r/m (at least 1).
    pub fn for_milli(milli: u64) -> NginxRate {
        if milli.is_multiple_of(1_000) {
            NginxRate { value: milli / 1_000, per_minute: false }
        } else if (milli * 60).is_multiple_of(1_000) {
            NginxRate { value: milli * 60 / 1_000, per_minute: true }
        } else {
            NginxRate { value: ((milli * 60 + 500) / 1_000).max(1), per_minute: true }
        }
    }

    /// The rate as nginx keeps it (`ctx->rate`): milli-requests per second, truncated.
    ///
    /// ```
    /// use ratelimit_playground::sim::products::nginx::NginxRate;
    /// assert_eq!(NginxRate { value: 1, per_minute: true }.milli(), 16);
    /// assert_eq!(NginxRate { value: 90, per_minute: true }.milli(), 1_500);
    /// assert_eq!(NginxRate { value: 5, per_minute: false }.milli(), 5_000);
    /// ```
    pub fn milli(self) -> u64 {
        self.value * 1_000 / if self.per_minute { 60 } else { 1 }
    }

    /// As written in the config: `5r/s`, `90r/m`.
    pub fn to_config(self) -> String {
        format!("{}r/{}", self.value, if self.per_minute { 'm' } else { 's' })
    }
}

/// The exported `limit_req_zone` + `limit_req` for a policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NginxConfig {
    /// `rate=`.
    pub rate: NginxRate,
    /// `burst=`: requests beyond the first.
    pub burst: u64,
    /// `nodelay`.
    pub nodelay: bool,
    /// `delay=` (only without `nodelay`; 0 is nginx's default).
    pub delay: u64,
    /// `limit_req_status`.
    pub status: u16,
}

/// `nodelay=0|1` (1, as exported): the burst is answered at once instead of delayed.
pub const NODELAY: ProductKey = ProductKey { key: "nodelay", kind: ON_OFF, default: 1 };

/// `delay=N` without `nodelay`: the first N requests beyond the rate pass undelayed (0).
pub const DELAY: ProductKey =
    ProductKey { key: "delay", kind: KeyKind::Num { unit: "requests", digits: 0, min: 0, max: 1_000_000 }, default: 0 };

/// `nginx_status=429|503`, `limit_req_status`: the status of a rejection (429 as exported; 503 is
/// nginx's own default).
pub const STATUS: ProductKey =
    ProductKey { key: "nginx_status", kind: KeyKind::Names(&[("429", 429), ("503", 503)]), default: 429 };

impl NginxConfig {
    /// What the production panel exports for `p`, with the product knobs of `o`.
    pub fn of(p: &Policy, o: &ProductOptions) -> NginxConfig {
        NginxConfig {
            rate: NginxRate::for_milli(p.rate_milli),
            burst: p.burst.saturating_sub(1),
            nodelay: o.get(&NODELAY) == 1,
            delay: if o.get(&NODELAY) == 1 { 0 } else { o.get(&DELAY) },
            status: o.get(&STATUS) as u16,
        }
    }
}

/// One `limit_req` zone node: nginx's state for one key.
#[derive(Clone, Debug)]
pub struct Nginx {
    /// `ctx->rate`: milli-requests per second.
    rate: u64,
    /// `limit->burst`: burst × 1000.
    burst: u64,
    /// `limit->delay`: delay × 1000; `u64::MAX` for `nodelay`.
    delay: u64,
    /// `lr->excess`, in milli-requests; `None` before the first request (no node yet).
    excess: Option<u64>,
    /// `lr->last`, ms.
    last: u64,
    /// How long the request admitted last is held, ms.
    held: u64,
    /// `limit_req_status`.
    status: u16,
}

impl Nginx {
    /// A zone with no node yet for the key.
    pub fn new(c: &NginxConfig) -> Self {
        Nginx {
            rate: c.rate.milli().max(1),
            burst: c.burst.saturating_mul(1_000),
            delay: if c.nodelay { u64::MAX } else { c.delay.saturating_mul(1_000) },
            excess: None,
            last: 0,
            held: 0,
            status: c.status,
        }
    }

    /// `ms` since `last` as `ngx_http_limit_req_lookup` computes it (negative → 0).
    fn elapsed(&self, now_ms: u64) -> u64 {
        now_ms.saturating_sub(self.last)
    }

    /// The excess this request would have at `now_ms`: `excess − rate·ms/1000 + 1000`, floored at 0.
    fn excess_at(&self, now_ms: u64) -> u64 {
        match self.excess {
            None => 0,
            Some(e) => {
                let drained = u128::from(self.rate) * u128::from(self.elapsed(now_ms)) / 1_000;
                (i128::from(e) - drained as i128 + 1_000).max(0) as u64
            }
        }
    }

    fn record(&mut self, now_ms: u64, excess: u64) {
        if self.excess.is_none() || self.elapsed(now_ms) > 0 {
            self.last = now_ms;
        }
        self.excess = Some(excess);
        self.held = if excess <= self.delay { 0 } else { (excess - self.delay) * 1_000 / self.rate };
    }

    /// Milliseconds from `last` until a request would pass: the least `ms` with
    /// `rate·ms/1000 ≥ excess + 1000 − burst`.
    fn ms_until_pass(&self) -> u64 {
        let Some(e) = self.excess else { return 0 };
        let need = (e + 1_000).saturating_sub(self.burst);
        (u128::from(need) * 1_000).div_ceil(u128::from(self.rate)) as u64
    }
}

crate::sim::limiter::model!(Nginx);

impl Limiter for Nginx {
    fn acquire(&mut self, now: SimTime) -> bool {
        let now_ms = now.as_nanos() / NS_PER_MS;
        let excess = self.excess_at(now_ms);
        if excess > self.burst {
            return false; // NGX_BUSY: the node is left as it was
        }
        self.record(now_ms, excess);
        true
    }

    fn consume(&mut self, now: SimTime) {
        let now_ms = now.as_nanos() / NS_PER_MS;
        let excess = self.excess_at(now_ms);
        self.record(now_ms, excess);
    }

    fn status(&self, now: SimTime) -> Status {
        let now_ms = now.as_nanos() / NS_PER_MS;
        let first = self.excess_at(now_ms);
        let remaining = if first > self.burst { 0 } else { (self.burst - first) / 1_000 + 1 };
        let at = |ms: u64| Nanos((self.last + ms).saturating_mul(NS_PER_MS).saturating_sub(now.as_nanos()));
        let wait = if remaining > 0 { Nanos::ZERO } else { at(self.ms_until_pass()) };
        let drain = self.excess.map_or(0, |e| (u128::from(e) * 1_000).div_ceil(u128::from(self.rate)) as u64);
        Status { remaining, reset: if self.excess.is_some() { at(drain) } else { Nanos::ZERO }, wait }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let now_ms = now.as_nanos() / NS_PER_MS;
        let pending = self.excess.map_or(0, |_| self.excess_at(now_ms).saturating_sub(1_000));
        // Shown as the bucket's level: the whole requests that would pass at once, with fractions.
        let level = (self.burst + 1_000).saturating_sub(pending) as f64 / 1_000.0;
        Gauge { level, current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        let limit = self.burst / 1_000 + 1;
        Quota { limit, window: Nanos((limit * 1_000_000).div_ceil(self.rate).saturating_mul(NS_PER_MS)) }
    }

    fn admitted_delay(&self) -> Nanos {
        Nanos::from_millis(self.held)
    }

    fn may_delay(&self) -> bool {
        self.delay != u64::MAX
    }

    fn reject_status(&self) -> u16 {
        self.status
    }

    /// nginx `limit_req` sets no header, not even `Retry-After`.
    fn headers(&self, _: &crate::sim::decision::Decision) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn zone(rate: NginxRate, burst: u64, nodelay: bool, delay: u64) -> Nginx {
        Nginx::new(&NginxConfig { rate, burst, nodelay, delay, status: 429 })
    }

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * NS_PER_MS)
    }

    #[test]
    fn a_burst_of_burst_plus_one_passes_at_once_from_idle() {
        let mut z = zone(NginxRate { value: 5, per_minute: false }, 4, true, 0);
        let passed = (0..10).filter(|_| z.acquire(at_ms(100))).count();
        assert_eq!(passed, 5);
    }

    #[test]
    fn ninety_per_minute_on_an_exact_grid_admits_as_the_ideal_bucket() {
        // rate=90r/m burst=4 nodelay, 200 requests exactly 50 ms apart: 1.5 × 50 drains 75
        // milli-requests with nothing truncated, so nginx admits the ideal bucket's 19. (The 18
        // against 19 seen on real send times is what tests/real/nginx.rs compares decision by
        // decision on the recorded times.)
        let mut z = zone(NginxRate { value: 90, per_minute: true }, 4, true, 0);
        assert_eq!((0..200).filter(|i| z.acquire(at_ms(i * 50))).count(), 19);
    }

    #[test]
    fn a_refused_request_does_not_move_the_clock_or_the_excess() {
        let mut z = zone(NginxRate { value: 1, per_minute: false }, 0, true, 0);
        assert!(z.acquire(at_ms(0)));
        assert!(!z.acquire(at_ms(999)));
        // Had the refusal at 999 ms been recorded, this one would be refused too.
        assert!(z.acquire(at_ms(1_000)));
    }

    #[test]
    fn per_minute_rates_truncate_to_whole_milli_requests() {
        // 1r/m is 16 milli-requests/s: a request passes after 62.5 s, not 60 s.
        let mut z = zone(NginxRate { value: 1, per_minute: true }, 0, true, 0);
        assert!(z.acquire(at_ms(0)));
        assert!(!z.acquire(at_ms(62_499)));
        assert!(z.acquire(at_ms(62_500)));
    }

    #[test]
    fn without_nodelay_the_burst_is_delayed_by_its_excess() {
        let mut z = zone(NginxRate { value: 10, per_minute: false }, 3, false, 0);
        let held: Vec<u64> =
            (0..4).map(|_| (z.acquire(at_ms(0)), z.admitted_delay().as_nanos() / NS_PER_MS).1).collect();
        assert_eq!(held, [0, 100, 200, 300]);
        assert!(!z.acquire(at_ms(0)));
    }

    #[test]
    fn delay_lets_the_first_requests_beyond_the_rate_through_undelayed() {
        let mut z = zone(NginxRate { value: 10, per_minute: false }, 3, false, 2);
        let held: Vec<u64> =
            (0..4).map(|_| (z.acquire(at_ms(0)), z.admitted_delay().as_nanos() / NS_PER_MS).1).collect();
        assert_eq!(held, [0, 0, 0, 100]);
    }

    #[test]
    fn requests_within_one_millisecond_do_not_drain_the_excess() {
        // last moves only when ms > 0: 0.9 ms later is the same millisecond.
        let mut z = zone(NginxRate { value: 1_000, per_minute: false }, 1, true, 0);
        assert!(z.acquire(SimTime(0)));
        assert!(z.acquire(SimTime(900_000)));
        assert!(!z.acquire(SimTime(999_999)));
        assert!(z.acquire(SimTime(1_000_000)));
    }

    #[test]
    fn the_wait_lands_on_the_first_millisecond_that_passes() {
        let mut z = zone(NginxRate { value: 90, per_minute: true }, 0, true, 0);
        assert!(z.acquire(at_ms(3)));
        let wait = z.status(at_ms(10)).wait;
        assert!(!z.clone().acquire(SimTime(at_ms(10).as_nanos() + wait.as_nanos() - 1)));
        assert!(z.acquire(SimTime(at_ms(10).as_nanos() + wait.as_nanos())));
    }
}
