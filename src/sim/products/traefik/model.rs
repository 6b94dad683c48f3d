//! Traefik's `RateLimit` middleware (in-memory, v3.7), its glue read from Traefik's source
//! (`pkg/middlewares/ratelimiter/rate_limiter.go`, `in_memory_limiter.go`, `ttlmap/ttlmap.go`,
//! `pkg/config/dynamic/middlewares.go`), on Go's `golang.org/x/time/rate` as Debian's 0.3.0
//! computes it (`rate/rate.go`: `reserveN`, `advance`, `CancelAt`, `DelayFrom`). Traefik itself
//! cannot be installed here: the glue is modelled from its source, and the library under it is
//! the real one in the test (tests/real/go.rs).
//!
//! - The rate is `float64(average × 1e9) ÷ float64(period in ns)` per second; `burst` is at least 1.
//! - Each request *reserves* a token (`Reserve()`: tokens may go below zero) and is held for the
//!   reservation's delay, unless that delay is above `maxDelay` — 500 ms below 1/s, else
//!   `1s ÷ (2 × int(rate))`, the rate truncated to a whole number first — in which case the
//!   reservation is cancelled (its token given back) and the answer is 429 with
//!   `Retry-After: ceil(delay)` in seconds and `X-Retry-In: <delay as Go prints it>`.
//! - Each source's limiter lives in a map with a TTL of 2 s at 1/s or more (else 1 + ⌊1 ÷ rate⌋ s),
//!   refreshed by every request, in whole Unix seconds (`expiry ≤ now.Unix()` is gone, so an idle
//!   source is dropped 1 to 2 TTL-seconds after its last request); a dropped source's next
//!   request finds a new limiter, full. Simulated time 0 is a whole Unix second.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::{gcd, Policy};
use crate::sim::time::{Nanos, SimTime};

const SEC: u64 = 1_000_000_000;

/// The middleware's configuration as the production panel exports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraefikLimit {
    /// `average`: requests per `period`.
    pub average: u64,
    /// `period`, ns.
    pub period_ns: u64,
    /// `burst`.
    pub burst: u64,
}

impl TraefikLimit {
    /// The configuration for `p`: its rate as the fewest whole requests per whole seconds
    /// (12.5/s is 25 per 2 s; a window's quota as its rate, to 0.001/s, as every bucket target
    /// takes it), its burst as the burst (a window's limit).
    pub fn of(p: &Policy) -> TraefikLimit {
        let burst = p.burst.max(1);
        let milli = p.rate_milli.max(1);
        let g = gcd(milli, 1_000);
        TraefikLimit { average: milli / g, period_ns: 1_000 / g * SEC, burst }
    }

    /// `period` as the configuration writes it: `60s`, `1500ms`.
    pub fn period(&self) -> String {
        match self.period_ns {
            ns if ns.is_multiple_of(SEC) => format!("{}s", ns / SEC),
            ns if ns.is_multiple_of(1_000_000) => format!("{}ms", ns / 1_000_000),
            ns => format!("{ns}ns"),
        }
    }

    /// The limiter's rate, per second: `float64(average*int64(time.Second)) / float64(period)`.
    pub fn rate(&self) -> f64 {
        (self.average * SEC) as f64 / self.period_ns as f64
    }

    /// `maxDelay`, ns: 500 ms below 1/s, else `time.Second / (time.Duration(rate) * 2)`.
    pub fn max_delay(&self) -> u64 {
        let r = self.rate();
        if r < 1.0 {
            500_000_000
        } else {
            SEC / ((r as u64) * 2)
        }
    }

    /// How long an idle source's limiter is kept, in whole seconds.
    pub fn ttl_s(&self) -> u64 {
        let r = self.rate();
        1 + if r >= 1.0 { 1 } else { (1.0 / r) as u64 }
    }
}

/// `time.Duration.Seconds()`: whole seconds and the rest, each converted, then added.
fn seconds(d: u64) -> f64 {
    (d / SEC) as f64 + (d % SEC) as f64 / 1e9
}

/// `durationFromTokens`, truncated toward zero as Go's conversion does.
fn duration_from_tokens(tokens: f64, r: f64) -> i64 {
    (1e9 * (tokens / r)) as i64
}

/// A duration as Go's `time.Duration.String` prints it: `"666.666666ms"`, `"1.5s"`, `"2m0s"`.
pub fn go_duration(ns: u64) -> String {
    /// `v` split at `prec` decimals: the integer part and `".123"` without trailing zeros.
    fn frac(v: u64, prec: u32) -> (u64, String) {
        let unit = 10u64.pow(prec);
        let digits = format!("{:0width$}", v % unit, width = prec as usize);
        let digits = digits.trim_end_matches('0');
        (v / unit, if digits.is_empty() { String::new() } else { format!(".{digits}") })
    }
    if ns == 0 {
        return "0s".into();
    }
    if ns < SEC {
        let (prec, unit) = match ns {
            0..1_000 => (0, "ns"),
            1_000..1_000_000 => (3, "µs"),
            _ => (6, "ms"),
        };
        let (int, f) = frac(ns, prec);
        return format!("{int}{f}{unit}");
    }
    let (secs, f) = frac(ns, 9);
    let (h, m, s) = (secs / 3_600, secs / 60 % 60, secs % 60);
    match (h, secs / 60) {
        (0, 0) => format!("{s}{f}s"),
        (0, _) => format!("{m}m{s}{f}s"),
        _ => format!("{h}h{m}m{s}{f}s"),
    }
}

/// One source's entry in Traefik's map: a `rate.Limiter` and when the entry expires.
#[derive(Clone, Debug)]
pub struct Traefik {
    limit: TraefikLimit,
    r: f64,
    /// The limiter's tokens and `last` (ns), once it has reserved; `None` for a new limiter.
    last: Option<(f64, u64)>,
    /// The Unix second from which the entry is gone (`expiry ≤ now.Unix()`).
    expiry: u64,
    /// The last request's delay (ns) and whether it was refused.
    answer: (u64, bool),
}

impl Traefik {
    /// A source the map has not seen.
    pub fn new(limit: TraefikLimit) -> Self {
        Traefik { limit, r: limit.rate(), last: None, expiry: 0, answer: (0, false) }
    }

    /// The limiter as found at `t` (ns): a new one if the entry expired.
    fn found(&self, t: u64) -> Option<(f64, u64)> {
        self.last.filter(|_| self.expiry > t / SEC)
    }

    /// `advance(t)`: the tokens at `t` of the limiter found then.
    fn tokens_at(&self, t: u64) -> f64 {
        let burst = self.limit.burst as f64;
        match self.found(t) {
            None => burst,
            Some((tokens, last)) => {
                let tokens = tokens + seconds(t - last.min(t)) * self.r;
                if tokens > burst {
                    burst
                } else {
                    tokens
                }
            }
        }
    }

    /// `Reserve()` at `t`: the tokens left and the delay (`DelayFrom(t)`, at least 0), ns.
    fn reserve(&self, t: u64) -> (f64, u64) {
        let tokens = self.tokens_at(t) - 1.0;
        let wait = if tokens < 0.0 { duration_from_tokens(-tokens, self.r) } else { 0 };
        (tokens, wait.max(0) as u64)
    }
}

crate::sim::limiter::model!(Traefik);

impl Limiter for Traefik {
    fn acquire(&mut self, now: SimTime) -> bool {
        let t = now.as_nanos();
        let (tokens, delay) = self.reserve(t);
        let refused = delay > self.limit.max_delay();
        // A cancelled reservation gives its token back: `advance(t)` (no time has passed) + 1.
        let kept = if refused { (tokens + 1.0).min(self.limit.burst as f64) } else { tokens };
        self.last = Some((kept, t));
        self.expiry = t / SEC + self.limit.ttl_s();
        self.answer = (delay, refused);
        !refused
    }

    fn consume(&mut self, now: SimTime) {
        let t = now.as_nanos();
        self.last = Some((self.reserve(t).0, t));
        self.expiry = t / SEC + self.limit.ttl_s();
    }

    fn status(&self, now: SimTime) -> Status {
        let t = now.as_nanos();
        let tokens = self.tokens_at(t);
        let missing = (self.limit.burst as f64 - tokens).max(0.0);
        // The wait for a request to be admitted: its delay brought down to maxDelay.
        let wait = self.reserve(t).1.saturating_sub(self.limit.max_delay());
        Status {
            remaining: tokens.max(0.0) as u64,
            reset: Nanos(duration_from_tokens(missing, self.r).max(0) as u64),
            wait: Nanos(wait),
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        Gauge { level: self.tokens_at(now.as_nanos()), current: 0, previous: 0 }
    }

    fn quota(&self) -> Quota {
        let b = self.limit.burst;
        Quota { limit: b, window: Nanos(duration_from_tokens(b as f64, self.r).max(1) as u64) }
    }

    fn admitted_delay(&self) -> Nanos {
        Nanos(if self.answer.1 { 0 } else { self.answer.0 })
    }

    fn may_delay(&self) -> bool {
        true
    }

    /// Traefik sets no header on an admitted request; a refused one carries the delay it would
    /// have had: `Retry-After` in whole seconds rounded up, `X-Retry-In` as Go prints a duration.
    fn headers(&self, d: &Decision) -> Vec<(&'static str, String)> {
        let (delay, refused) = self.answer;
        if d.allowed || !refused {
            return Vec::new();
        }
        // `%.0f` of a whole number of seconds: printed as an integer (no float printing in the module).
        vec![("Retry-After", (seconds(delay).ceil() as u64).to_string()), ("X-Retry-In", go_duration(delay))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * 1_000_000)
    }

    #[test]
    fn the_rate_s_whole_part_sets_max_delay() {
        let l = |average, period_s| TraefikLimit { average, period_ns: period_s * SEC, burst: 1 };
        assert_eq!(l(3, 1).max_delay(), 166_666_666);
        assert_eq!(l(19, 10).max_delay(), 500_000_000, "1.9/s is 1 once truncated");
        assert_eq!(l(1, 2).max_delay(), 500_000_000);
        assert_eq!(l(1, 2).ttl_s(), 3);
        assert_eq!(l(5, 1).ttl_s(), 2);
    }

    #[test]
    fn a_request_within_max_delay_is_held_and_one_beyond_is_refused() {
        // 4/s, burst 1: maxDelay 125 ms, a token every 250 ms.
        let mut t = Traefik::new(TraefikLimit { average: 4, period_ns: SEC, burst: 1 });
        assert!(t.acquire(at_ms(0)));
        assert_eq!(t.admitted_delay(), Nanos::ZERO);
        assert!(!t.acquire(at_ms(100)), "150 ms to wait > 125 ms");
        assert!(t.acquire(at_ms(130)));
        assert_eq!(t.admitted_delay(), Nanos::from_millis(120), "held, the bucket below zero");
        assert!(!t.acquire(at_ms(130)), "the next waits 370 ms");
        let d = Decision { allowed: false, remaining: 0, reset: Nanos::ZERO, retry_after: None };
        assert_eq!(t.headers(&d), vec![("Retry-After", "1".into()), ("X-Retry-In", "370ms".into())]);
    }

    #[test]
    fn an_idle_source_comes_back_full_after_its_ttl() {
        // 1/s, burst 10: ttl 2 s in whole Unix seconds.
        let mut t = Traefik::new(TraefikLimit { average: 1, period_ns: SEC, burst: 10 });
        for _ in 0..10 {
            assert!(t.acquire(at_ms(900)));
        }
        // At 2.0 s the entry (expiry 0 + 2) is gone: a new limiter, 10 tokens, not 1.1.
        assert_eq!(t.gauge(at_ms(1_999)).level.floor(), 1.0);
        assert_eq!(t.gauge(at_ms(2_000)).level, 10.0);
    }

    #[test]
    fn durations_print_as_go_prints_them() {
        for (ns, text) in [
            (0, "0s"),
            (999, "999ns"),
            (1_500, "1.5µs"),
            (666_666_666, "666.666666ms"),
            (1_500_000_000, "1.5s"),
            (120 * SEC, "2m0s"),
            (3_723 * SEC + 1, "1h2m3.000000001s"),
        ] {
            assert_eq!(go_duration(ns), text, "{ns}");
        }
    }
}
