//! django-ratelimit 4.1's `@ratelimit(key=..., rate=...)` over Django's cache, as
//! `django_ratelimit/core.py` of the PyPI package computes it (`get_usage`, `_get_window`,
//! `_split_rate`; read from the wheel):
//!
//! - the clock is `int(time.time())`: whole Unix seconds (simulated time 0 is
//!   [`crate::sim::time::EPOCH_S`], a UTC midnight);
//! - windows of `period` seconds are aligned to the epoch but shifted per key: a window ends on
//!   the seconds where `ts % period == crc32(key) % period`, so two clients' windows turn over at
//!   different seconds (a period of 1 s is not shifted). The key matters: [`Django::new`] takes
//!   it; the playground's one client is [`DEFAULT_KEY`], and shadow mode gives each client its
//!   key from the log ([`Limiter::for_sender`]);
//! - the counter is named after its window, so a new window always starts from 0; every call
//!   counts (`cache.add` then `incr`), refused ones too, and a request is limited when the count
//!   is `> limit`;
//! - a limited request raises `Ratelimited`, which Django answers with 403 and no rate-limit
//!   header, not even `Retry-After`.

use crate::sim::decision::{Decision, Quota, Status};
use crate::sim::limiter::{Gauge, Limiter};
use crate::sim::products::policy::Policy;
use crate::sim::time::{Nanos, SimTime, EPOCH_S};

const SEC: u64 = 1_000_000_000;

/// The key a single client runs under when none is given: `key='ip'` on a local request.
pub const DEFAULT_KEY: &str = "127.0.0.1";

/// The exported `rate='<limit>/<period>'`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DjangoRate {
    /// Requests per period.
    pub limit: u64,
    /// The period, whole seconds.
    pub period: u64,
}

impl DjangoRate {
    /// What the production panel exports for `p`: the window in whole seconds, rounded to the
    /// nearest and at least 1 (a bucket's policy is counted as a window of its burst).
    pub fn of(p: &Policy) -> DjangoRate {
        DjangoRate { limit: p.limit, period: (p.window_ns.saturating_add(500_000_000) / SEC).max(1) }
    }

    /// The rate string `_split_rate` reads back as this rate: `100/m`, `5/10m`, `7/11s`.
    pub fn rate_string(&self) -> String {
        let (unit, n) = [("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)]
            .into_iter()
            .find(|&(_, s)| self.period.is_multiple_of(s))
            .map_or(("s", self.period), |(unit, s)| (unit, self.period / s));
        match n {
            1 => format!("{}/{unit}", self.limit),
            _ => format!("{}/{n}{unit}", self.limit),
        }
    }
}

/// `zlib.crc32` of `bytes` (CRC-32/ISO-HDLC), bit by bit: a key is hashed once per client.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// One key's counter under the decorator.
#[derive(Clone, Debug)]
pub struct Django {
    rate: DjangoRate,
    /// `crc32(key) % period`: where the key's windows end.
    shift: u64,
    /// The Unix second of simulated 0 ([`EPOCH_S`]; a log's first midnight in shadow mode).
    origin_s: u64,
    /// The current window's last second and its count.
    window: (u64, u64),
}

impl Django {
    /// The counter of client `key`.
    pub fn new(rate: DjangoRate, key: &str) -> Self {
        let period = rate.period.max(1);
        Django {
            rate: DjangoRate { period, ..rate },
            shift: u64::from(crc32(key.as_bytes())) % period,
            origin_s: EPOCH_S,
            window: (0, 0),
        }
    }

    /// `_get_window` at `now`: the last second (Unix) of the window `now` falls in.
    fn window_end(&self, now: SimTime) -> u64 {
        let (ts, p) = (self.origin_s + now.as_nanos() / SEC, self.rate.period);
        if p == 1 {
            return ts;
        }
        let w = ts - ts % p + self.shift;
        if w < ts {
            w + p
        } else {
            w
        }
    }

    /// The count of the window `now` falls in, and that window's last second.
    fn count_at(&self, now: SimTime) -> (u64, u64) {
        let w = self.window_end(now);
        (if self.window.0 == w { self.window.1 } else { 0 }, w)
    }
}

crate::sim::limiter::model!(Django);

impl Limiter for Django {
    fn acquire(&mut self, now: SimTime) -> bool {
        let (count, w) = self.count_at(now);
        self.window = (w, count + 1);
        count < self.rate.limit
    }

    fn consume(&mut self, now: SimTime) {
        self.acquire(now);
    }

    fn status(&self, now: SimTime) -> Status {
        let (count, w) = self.count_at(now);
        // The next window starts at the second after `w`.
        let next = Nanos((w + 1 - self.origin_s) * SEC - now.as_nanos());
        let remaining = self.rate.limit.saturating_sub(count);
        Status {
            remaining,
            reset: if count == 0 { Nanos::ZERO } else { next },
            wait: if remaining > 0 { Nanos::ZERO } else { next },
        }
    }

    fn gauge(&self, now: SimTime) -> Gauge {
        let count = self.count_at(now).0;
        Gauge { level: count as f64, current: count, previous: 0 }
    }

    fn quota(&self) -> Quota {
        Quota { limit: self.rate.limit, window: Nanos(self.rate.period * SEC) }
    }

    /// `Ratelimited` is a `PermissionDenied`: Django answers 403.
    fn reject_status(&self) -> u16 {
        403
    }

    /// None: the package sets no header.
    fn headers(&self, _: &Decision) -> Vec<(&'static str, String)> {
        Vec::new()
    }

    /// The client `key` names (its IP with `key='ip'`): its windows' shift; and the log's days:
    /// simulated 0 is its first midnight, `origin_s`.
    fn for_sender(&mut self, key: &str, origin_s: u64) {
        *self = Django { origin_s, ..Django::new(self.rate, key) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_s(s: u64) -> SimTime {
        SimTime(s * SEC)
    }

    #[test]
    fn crc32_is_zlibs() {
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn each_key_s_windows_end_where_its_crc32_says() {
        // EPOCH_S % 7 == 0. As the library printed it for T0 % 7 == 6: 'client' ends its windows
        // on ts % 7 == 2, 'alice' on 5.
        assert_eq!(u64::from(crc32(b"client")) % 7, 2);
        assert_eq!(u64::from(crc32(b"alice")) % 7, 5);
        let rate = DjangoRate { limit: 2, period: 7 };
        let (mut client, mut alice) = (Django::new(rate, "client"), Django::new(rate, "alice"));
        for l in [&mut client, &mut alice] {
            assert!(l.acquire(at_s(0)) && l.acquire(at_s(1)));
            assert!(!l.acquire(at_s(2)));
        }
        // client's window [−4, 2] is over at 3; alice's [−1, 5] lasts until 6; refusals counted.
        assert!(client.acquire(at_s(3)));
        assert!(!alice.acquire(at_s(3)));
        assert_eq!(alice.status(at_s(3)).wait, Nanos(3 * SEC));
        assert!(alice.acquire(at_s(6)));
    }

    #[test]
    fn rate_strings_read_back_as_the_period() {
        let s = |limit, period| DjangoRate { limit, period }.rate_string();
        assert_eq!(s(100, 60), "100/m");
        assert_eq!(s(5, 600), "5/10m");
        assert_eq!(s(7, 11), "7/11s");
        assert_eq!(s(3, 1), "3/s");
        assert_eq!(s(9, 172_800), "9/2d");
    }
}
