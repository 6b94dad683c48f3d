//! HAProxy 2.6's stick-table request rate (`store http_req_rate(<period>)`, `http-request
//! track-sc0 src`, `http-request deny deny_status 429 if { sc_http_req_rate(0) gt <limit> }`),
//! as its source computes it (v2.6: include/haproxy/freq_ctr.h `update_freq_ctr_period` and
//! `read_freq_ctr_period`, src/freq_ctr.c `freq_ctr_total`, src/http_act.c
//! `http_action_track_sc`):
//!
//! - a millisecond clock; the counter keeps `curr`, `prev` and the start of the current period,
//!   always even (its low bit is a lock): a period starts at the first request, rounded down to an
//!   even millisecond; one period later `prev = curr` and the start moves by a period (rounded
//!   down to even again); two or more idle periods, and it starts afresh at the next request;
//! - the rate read is `(prev × remain + curr × period) ÷ period` in integer division, `remain`
//!   being what is left of the current period; a lone request of the previous period reads as 1
//!   for the whole of this one;
//! - the request is counted when it is tracked, before the deny rule reads the rate: refused
//!   requests count, and a request is refused when the rate *with it* is above the limit.
//!
//! Not modelled: the first request within `period` ms after the 32-bit millisecond clock wraps
//! (every 49.7 days), which HAProxy counts in a period starting at 0.

use crate::sim::decision::{Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::{round_ms, Policy};
use crate::sim::time::{Nanos, SimTime};

const NS_PER_MS: u64 = 1_000_000;

/// The stick table's rate and the deny rule's limit, as the production panel exports them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HaproxyRate {
    /// `gt <limit>`: refused above it.
    pub limit: u64,
    /// `http_req_rate(<period>)`, whole milliseconds.
    pub period_ms: u32,
}

impl HaproxyRate {
    /// The rule for `p`: its limit per its window (a bucket's burst per the time it takes to
    /// refill), the window in whole milliseconds.
    pub fn of(p: &Policy) -> HaproxyRate {
        HaproxyRate { limit: p.limit, period_ms: round_ms(p.window_ns).min(u64::from(u32::MAX / 4)) as u32 }
    }
}

/// A `freq_ctr`: the start of its current period (even), `curr` and `prev`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FreqCtr {
    tick: u32,
    curr: u32,
    prev: u32,
}

impl FreqCtr {
    /// `update_freq_ctr_period(ctr, period, 1)` at `now` ms, on an entry or a new one (`None`,
    /// which HAProxy zeroes: its first request starts a period).
    fn update(ctr: Option<FreqCtr>, period: u32, now: u32) -> FreqCtr {
        let Some(mut c) = ctr else { return FreqCtr { tick: now & !1, curr: 1, prev: 0 } };
        if now.wrapping_sub(c.tick) < period {
            c.curr += 1;
            return c;
        }
        c.prev = c.curr;
        c.curr = 1;
        let mut tick = c.tick.wrapping_add(period);
        if now.wrapping_sub(tick) >= period {
            // Two periods or more without a request.
            c.prev = 0;
            tick = now;
        }
        c.tick = tick & !1;
        c
    }

    /// `read_freq_ctr_period(ctr, period)` at `now` ms: `freq_ctr_total(ctr, period, -1) / period`.
    fn read(&self, period: u32, now: u32) -> u64 {
        let (mut curr, mut past) = (u64::from(self.curr), u64::from(self.prev));
        let mut remain = self.tick.wrapping_add(period).wrapping_sub(now) as i32 as i64;
        let period = i64::from(period);
        if remain < 0 {
            // A period has ended since the last request: as if it had rotated.
            remain += period;
            past = if remain >= 0 { curr } else { 0 };
            curr = 0;
        }
        if curr == 0 && past <= 1 {
            return past;
        }
        (past * remain.max(0) as u64 + curr * period as u64) / period as u64
    }
}

/// One client address's stick-table entry under the exported rules.
#[derive(Clone, Debug)]
pub struct Haproxy {
    rate: HaproxyRate,
    ctr: Option<FreqCtr>,
}

/// HAProxy's millisecond clock at `t`.
fn ms(t: SimTime) -> u32 {
    (t.as_nanos() / NS_PER_MS) as u32
}

impl Haproxy {
    /// An address the table has no entry for.
    pub fn new(rate: HaproxyRate) -> Self {
        Haproxy { rate, ctr: None }
    }

    /// `sc_http_req_rate(0)` as the deny rule reads it for a request at `now` ms, counted first.
    fn rate_with_one_more(&self, now: u32) -> u64 {
        FreqCtr::update(self.ctr, self.rate.period_ms, now).read(self.rate.period_ms, now)
    }

    /// The rate a request at `now` reads, without changing anything.
    pub fn read(&self, now: SimTime) -> u64 {
        self.ctr.map_or(0, |c| c.read(self.rate.period_ms, ms(now)))
    }
}

crate::sim::limiter::model!(Haproxy);

impl Limiter for Haproxy {
    fn acquire(&mut self, now: SimTime) -> bool {
        let now = ms(now);
        let ctr = FreqCtr::update(self.ctr, self.rate.period_ms, now);
        self.ctr = Some(ctr);
        ctr.read(self.rate.period_ms, now) <= self.rate.limit
    }

    fn consume(&mut self, now: SimTime) {
        self.ctr = Some(FreqCtr::update(self.ctr, self.rate.period_ms, ms(now)));
    }

    fn status(&self, now: SimTime) -> Status {
        let at = ms(now);
        let admits = |m: u32| self.rate_with_one_more(m) <= self.rate.limit;
        // The rate only falls while no request comes: the first millisecond that admits, within
        // the two periods after which the entry starts afresh.
        let wait_ms = if admits(at) {
            0
        } else {
            let (mut lo, mut hi) = (0u32, 2 * self.rate.period_ms + 2);
            while lo + 1 < hi {
                let mid = lo + (hi - lo) / 2;
                if admits(at.wrapping_add(mid)) {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            hi
        };
        // From `now` to the start of the millisecond that admits.
        let into = now.as_nanos() % NS_PER_MS;
        let wait = (u64::from(wait_ms) * NS_PER_MS).saturating_sub(if wait_ms > 0 { into } else { 0 });
        let read = self.read(now);
        Status {
            remaining: self.rate.limit.saturating_sub(read),
            reset: Nanos(u64::from(self.rate.period_ms) * NS_PER_MS * u64::from(read > 0)),
            wait: Nanos(wait),
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let c = self.ctr.unwrap_or(FreqCtr { tick: 0, curr: 0, prev: 0 });
        Gauge { level: self.read(now) as f64, current: u64::from(c.curr), previous: u64::from(c.prev) }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.rate.limit, window: Nanos(u64::from(self.rate.period_ms) * NS_PER_MS) }
    }

    /// HAProxy's `deny` sends a bare 429: no rate header, no `Retry-After`.
    fn headers(&self, _: &crate::sim::decision::Decision) -> Vec<(&'static str, String)> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime(ms * NS_PER_MS)
    }

    fn table(limit: u64, period_ms: u32) -> Haproxy {
        Haproxy::new(HaproxyRate { limit, period_ms })
    }

    #[test]
    fn refused_requests_count_and_the_rate_includes_the_request() {
        let mut h = table(3, 1_000);
        let passed: Vec<bool> = (0..5).map(|_| h.acquire(at_ms(0))).collect();
        assert_eq!(passed, [true, true, true, false, false]);
        assert_eq!(h.read(at_ms(0)), 5, "the refused two are counted");
    }

    #[test]
    fn the_previous_period_weighs_by_what_is_left_of_this_one() {
        let mut h = table(10, 1_000);
        for _ in 0..10 {
            assert!(h.acquire(at_ms(0)));
        }
        // At 1 250 ms: prev 10 weighs 750/1000 → 7, plus this one: 8.
        assert!(h.acquire(at_ms(1_250)));
        assert_eq!(h.read(at_ms(1_250)), 8);
        // At 1 900, read without a request: 10 × 100 / 1000 = 1, plus the one at 1 250.
        assert_eq!(h.read(at_ms(1_900)), 2);
    }

    #[test]
    fn the_period_starts_on_an_even_millisecond() {
        let mut h = table(100, 1_000);
        h.acquire(at_ms(7));
        assert_eq!(h.ctr.unwrap().tick, 6);
        // At 1 005 the period [6, 1 006) is still the first: no rotation.
        h.acquire(at_ms(1_005));
        assert_eq!(h.ctr.unwrap().curr, 2);
        h.acquire(at_ms(1_006));
        assert_eq!((h.ctr.unwrap().prev, h.ctr.unwrap().curr), (2, 1));
    }

    #[test]
    fn a_lone_request_reads_as_one_for_the_next_period_then_nothing() {
        let mut h = table(1, 1_000);
        assert!(h.acquire(at_ms(0)));
        assert_eq!(h.read(at_ms(1_999)), 1, "not weighed: prev ≤ 1 and nothing since");
        // A new request rotates the period: the lone one weighs 1 × 1/1000 → 0, plus itself: 1.
        assert!(h.acquire(at_ms(1_999)));
    }

    #[test]
    fn the_wait_is_the_first_millisecond_that_admits() {
        let mut h = table(2, 1_000);
        for _ in 0..3 {
            h.acquire(at_ms(0));
        }
        // From 1 000 ms prev = 3: ⌊(3 × remain + 1 000) / 1 000⌋ ≤ 2 once remain ≤ 666: 1 334 ms.
        assert_eq!(h.status(at_ms(0)).wait, Nanos(1_334 * NS_PER_MS));
    }
}
