//! The query format's key table: every numeric key with its unit, precision and range, and the
//! names of every enumerated value. Parsing, printing and validation all read this one table.

use super::{NumberWhy, Range};
use crate::sim::algorithm::Algorithm;
use crate::sim::products::{product_key, KeyKind, ProductKey};
use crate::sim::rate::Rate;
use crate::sim::scenario::{Balancer, FailMode, RetryPolicy, Scenario, StoreMode, TrafficShape};
use crate::sim::support::decimal::{parse_fixed, DecimalError};
use crate::sim::time::Nanos;

/// A numeric key: its value is a decimal with `digits` fractional digits, held as an integer.
#[derive(Clone, Copy)]
pub(super) struct Num {
    pub(super) key: &'static str,
    pub(super) unit: &'static str,
    pub(super) digits: u32,
    pub(super) min: u64,
    pub(super) max: u64,
    pub(super) get: fn(&Scenario) -> Option<u64>,
    pub(super) set: fn(&mut Scenario, u64),
}

pub(super) const S: u32 = 9; // seconds, to the nanosecond
pub(super) const MS: u32 = 6; // milliseconds, to the nanosecond
pub(super) const SEC: u64 = 1_000_000_000;
pub(super) const MILLI: u64 = 1_000_000;

/// Every numeric key, in the order printed.
pub(super) const NUMS: &[Num] = &[
    Num {
        key: "capacity",
        unit: "tokens",
        digits: 0,
        min: 1,
        max: 1_000_000,
        get: |s| Some(s.capacity),
        set: |s, v| s.capacity = v,
    },
    Num {
        key: "refill",
        unit: "tokens/s",
        digits: 3,
        min: 1,
        max: 1_000_000_000,
        get: |s| Some(s.refill.milli()),
        set: |s, v| s.refill = Rate::from_milli(v),
    },
    Num {
        key: "limit",
        unit: "requests per window",
        digits: 0,
        min: 1,
        max: 100_000,
        get: |s| s.limit,
        set: |s, v| s.limit = Some(v),
    },
    Num {
        key: "window",
        unit: "s",
        digits: S,
        min: MILLI,
        max: 86_400 * SEC,
        get: |s| s.window.map(|w| w.0),
        set: |s, v| s.window = Some(Nanos(v)),
    },
    Num {
        key: "rate",
        unit: "requests/s",
        digits: 3,
        min: 1,
        max: 100_000_000,
        get: |s| Some(s.rate.milli()),
        set: |s, v| s.rate = Rate::from_milli(v),
    },
    Num {
        key: "duration",
        unit: "s",
        digits: S,
        min: MILLI,
        max: 86_400 * SEC,
        get: |s| Some(s.duration.0),
        set: |s, v| s.duration = Nanos(v),
    },
    Num { key: "seed", unit: "", digits: 0, min: 0, max: u64::MAX, get: |s| Some(s.seed), set: |s, v| s.seed = v },
    Num {
        key: "burst_on",
        unit: "s",
        digits: S,
        min: MILLI,
        max: 3_600 * SEC,
        get: |s| Some(s.burst_on.0),
        set: |s, v| s.burst_on = Nanos(v),
    },
    Num {
        key: "burst_off",
        unit: "s",
        digits: S,
        min: 0,
        max: 3_600 * SEC,
        get: |s| Some(s.burst_off.0),
        set: |s, v| s.burst_off = Nanos(v),
    },
    Num {
        key: "clients",
        unit: "clients",
        digits: 0,
        min: 1,
        max: 10_000,
        get: |s| Some(u64::from(s.clients)),
        set: |s, v| s.clients = v as u32,
    },
    Num {
        key: "nodes",
        unit: "nodes",
        digits: 0,
        min: 1,
        max: 16,
        get: |s| Some(u64::from(s.nodes)),
        set: |s, v| s.nodes = v as u32,
    },
    Num {
        key: "rtt",
        unit: "ms",
        digits: MS,
        min: 0,
        max: 1_000 * MILLI,
        get: |s| Some(s.rtt.0),
        set: |s, v| s.rtt = Nanos(v),
    },
    Num {
        key: "timeout",
        unit: "ms",
        digits: MS,
        min: 1_000,
        max: 60_000 * MILLI,
        get: |s| Some(s.timeout.0),
        set: |s, v| s.timeout = Nanos(v),
    },
    Num {
        key: "retries",
        unit: "retries per request",
        digits: 0,
        min: 0,
        max: 20,
        get: |s| Some(u64::from(s.max_retries)),
        set: |s, v| s.max_retries = v as u32,
    },
    Num {
        key: "headroom",
        unit: "ms",
        digits: MS,
        min: 0,
        max: 60_000 * MILLI,
        get: |s| Some(s.headroom.0),
        set: |s, v| s.headroom = Nanos(v),
    },
    Num {
        key: "jitter",
        unit: "ms",
        digits: MS,
        min: 0,
        max: 60_000 * MILLI,
        get: |s| Some(s.jitter.0),
        set: |s, v| s.jitter = Nanos(v),
    },
    Num {
        key: "backoff_base",
        unit: "ms",
        digits: MS,
        min: 1_000,
        max: 60_000 * MILLI,
        get: |s| Some(s.backoff_base.0),
        set: |s, v| s.backoff_base = Nanos(v),
    },
    Num {
        key: "backoff_cap",
        unit: "ms",
        digits: MS,
        min: 1_000,
        max: 600_000 * MILLI,
        get: |s| Some(s.backoff_cap.0),
        set: |s, v| s.backoff_cap = Nanos(v),
    },
    Num {
        key: "bucket",
        unit: "s",
        digits: S,
        min: MILLI,
        max: 3_600 * SEC,
        get: |s| Some(s.bucket.0),
        set: |s, v| s.bucket = Nanos(v),
    },
];

/// An enumerated key: its accepted names, in the order printed.
macro_rules! names {
    ($($name:literal => $value:expr),+ $(,)?) => { &[$(($name, $value)),+] };
}
pub(super) const ALGOS: &[(&str, Algorithm)] = &crate::sim::products::ALGO_NAMES;
pub(super) const TRAFFIC: &[(&str, TrafficShape)] = names!("constant" => TrafficShape::Constant, "poisson" => TrafficShape::Poisson,
    "bursts" => TrafficShape::Bursts, "seam" => TrafficShape::Seam, "clients" => TrafficShape::Clients, "trace" => TrafficShape::Trace);
pub(super) const STORES: &[(&str, StoreMode)] = names!("local" => StoreMode::Local, "race" => StoreMode::Race, "atomic" => StoreMode::Atomic, "async" => StoreMode::Async, "sync" => StoreMode::Sync, "replica_read" => StoreMode::ReplicaRead);
pub(super) const BALANCERS: &[(&str, Balancer)] = names!("rr" => Balancer::RoundRobin, "random" => Balancer::Random);
pub(super) const RETRIES: &[(&str, RetryPolicy)] = names!("none" => RetryPolicy::GiveUp, "exact" => RetryPolicy::Exact, "jitter" => RetryPolicy::Jitter, "backoff" => RetryPolicy::Backoff);
pub(super) const FAILS: &[(&str, FailMode)] = names!("open" => FailMode::Open, "closed" => FailMode::Closed);
pub(super) const BOOLS: &[(&str, bool)] = names!("0" => false, "1" => true, "false" => false, "true" => true);

/// The keys every algorithm shares, in the order listed.
const SHARED_KEYS: [&str; 27] = [
    "algo",
    "capacity",
    "refill",
    "limit",
    "window",
    "count_rejected",
    "rate",
    "traffic",
    "duration",
    "seed",
    "burst_on",
    "burst_off",
    "clients",
    "nodes",
    "lb",
    "store",
    "rtt",
    "timeout",
    "fail",
    "outage",
    "retry",
    "retries",
    "headroom",
    "jitter",
    "backoff_base",
    "backoff_cap",
    "bucket",
];

/// Every key of the query format, comma-separated: the shared keys, then the products' own.
pub fn known_keys() -> String {
    let products = crate::sim::products::PRODUCT_KEYS.iter().map(|k| k.key);
    SHARED_KEYS.iter().copied().chain(products).collect::<Vec<_>>().join(", ")
}

/// Whether `key` is one of the query format's keys: a shared key, or a product's.
pub fn is_key(key: &str) -> bool {
    SHARED_KEYS.contains(&key) || product_key(key).is_some()
}

pub(super) fn name_of<T: PartialEq + Copy>(table: &[(&'static str, T)], v: T) -> &'static str {
    table.iter().find(|(_, x)| *x == v).map_or("?", |(n, _)| n)
}

impl Num {
    /// A product's numeric key as a [`Num`] (its value lives in the scenario's product options,
    /// which [`crate::sim::products::ProductOptions`] reads and writes by key, so this one's
    /// `get` and `set` are not used).
    pub(super) fn of_product(key: &ProductKey) -> Option<Num> {
        match key.kind {
            KeyKind::Num { unit, digits, min, max } => {
                Some(Num { key: key.key, unit, digits, min, max, get: |_| None, set: |_, _| {} })
            }
            _ => None,
        }
    }

    /// Its range, as a problem names it.
    pub(super) fn range(&self) -> Range {
        Range { min: self.min, max: self.max, digits: self.digits, unit: self.unit }
    }

    /// Parses a value as [`Range::read`] does.
    pub(super) fn parse(&self, value: &str) -> Result<u64, (NumberWhy, Option<u64>)> {
        self.range().read(value)
    }
}

impl Range {
    /// Reads a value of this range (a link's, a number field's): an integer with its fractional
    /// digits; one that is not a number in range is `Err((why, clamped))`, with the value in
    /// range nearest to it if there is one (a number too large or out of range). A negative
    /// number is out of range (below every key's minimum), not "not a number".
    ///
    /// ```
    /// use ratelimit_playground::sim::query::{number_range, NumberWhy};
    /// let capacity = number_range("capacity").unwrap();
    /// assert_eq!(capacity.read("500"), Ok(500));
    /// assert_eq!(capacity.read("-5"), Err((NumberWhy::OutOfRange, Some(1))));
    /// assert_eq!(capacity.read("2000000"), Err((NumberWhy::OutOfRange, Some(1_000_000))));
    /// assert_eq!(number_range("refill").unwrap().read("12.345"), Ok(12_345));
    /// ```
    pub fn read(&self, value: &str) -> Result<u64, (NumberWhy, Option<u64>)> {
        if let Some(Ok(_)) = value.strip_prefix('-').map(|n| parse_fixed(n, self.digits)) {
            return Err((NumberWhy::OutOfRange, Some(self.min)));
        }
        let v = parse_fixed(value, self.digits)
            .map_err(|e| (NumberWhy::Unreadable(e), (e == DecimalError::TooLarge).then_some(self.max)))?;
        if v < self.min || v > self.max {
            return Err((NumberWhy::OutOfRange, Some(v.clamp(self.min, self.max))));
        }
        Ok(v)
    }
}

/// The numeric key named `key` and where its value goes: a shared key's own setter, or the
/// product options for a product's key.
pub(super) fn num(key: &str) -> Option<(Num, Option<&'static ProductKey>)> {
    match NUMS.iter().find(|n| n.key == key) {
        Some(n) => Some((*n, None)),
        None => product_key(key).and_then(|k| Some((Num::of_product(k)?, Some(k)))),
    }
}

/// The range of numeric key `key` (shared or a product's): what its number field allows.
///
/// ```
/// use ratelimit_playground::sim::query::number_range;
/// let r = number_range("refill").unwrap();
/// assert_eq!((r.min, r.max, r.digits, r.unit), (1, 1_000_000_000, 3, "tokens/s"));
/// assert!(number_range("algo").is_none());
/// ```
pub fn number_range(key: &str) -> Option<Range> {
    num(key).map(|(n, _)| n.range())
}
