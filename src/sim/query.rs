//! The scenario's URL query format: `algo=token_bucket&capacity=10&refill=5&rate=12`.
//!
//! One table of keys serves parsing, printing and validation, so the app's share links, the
//! CLI's `--query` and the README describe the same contract. Strict parsing (the CLI) fails on
//! the first problem; lenient parsing (the app) clamps or ignores and reports every problem.

use super::decimal::{format_fixed, parse_fixed, DecimalError};
use super::rate::Rate;
use super::scenario::{Algorithm, Balancer, FailMode, Outage, RetryPolicy, Scenario, StoreMode, TrafficShape};
use super::time::{Nanos, SimTime};
use std::fmt;

/// A parameter that was not accepted as given, named, with what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// The query key.
    pub param: String,
    /// What was wrong and what is allowed (and, when lenient, what was used instead).
    pub message: String,
}

impl fmt::Display for ParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.param, self.message)
    }
}

impl std::error::Error for ParamError {}

/// A numeric key: its value is a decimal with `digits` fractional digits, held as an integer.
struct Num {
    key: &'static str,
    unit: &'static str,
    digits: u32,
    min: u64,
    max: u64,
    get: fn(&Scenario) -> Option<u64>,
    set: fn(&mut Scenario, u64),
}

const S: u32 = 9; // seconds, to the nanosecond
const MS: u32 = 6; // milliseconds, to the nanosecond
const SEC: u64 = 1_000_000_000;
const MILLI: u64 = 1_000_000;

/// Every numeric key, in the order printed.
const NUMS: &[Num] = &[
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
const ALGOS: &[(&str, Algorithm)] = names!("token_bucket" => Algorithm::TokenBucket, "fixed_window" => Algorithm::FixedWindow,
    "sliding_window" => Algorithm::SlidingWindow, "sliding_log" => Algorithm::SlidingLog, "gcra" => Algorithm::Gcra);
const TRAFFIC: &[(&str, TrafficShape)] = names!("constant" => TrafficShape::Constant, "poisson" => TrafficShape::Poisson,
    "bursts" => TrafficShape::Bursts, "seam" => TrafficShape::Seam, "clients" => TrafficShape::Clients, "trace" => TrafficShape::Trace);
const STORES: &[(&str, StoreMode)] = names!("local" => StoreMode::Local, "race" => StoreMode::Race, "atomic" => StoreMode::Atomic, "async" => StoreMode::Async);
const BALANCERS: &[(&str, Balancer)] = names!("rr" => Balancer::RoundRobin, "random" => Balancer::Random);
const RETRIES: &[(&str, RetryPolicy)] = names!("none" => RetryPolicy::GiveUp, "exact" => RetryPolicy::Exact, "jitter" => RetryPolicy::Jitter, "backoff" => RetryPolicy::Backoff);
const FAILS: &[(&str, FailMode)] = names!("open" => FailMode::Open, "closed" => FailMode::Closed);
const BOOLS: &[(&str, bool)] = names!("0" => false, "1" => true, "false" => false, "true" => true);

/// Every key the query format knows.
pub const KEYS: &[&str] = &[
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

fn name_of<T: PartialEq + Copy>(table: &[(&'static str, T)], v: T) -> &'static str {
    table.iter().find(|(_, x)| *x == v).map_or("?", |(n, _)| n)
}

fn choose<T: Copy>(key: &str, table: &[(&'static str, T)], value: &str) -> Result<T, ParamError> {
    table.iter().find(|(n, _)| *n == value).map(|&(_, v)| v).ok_or_else(|| {
        let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
        err(key, format!("'{}' is not one of {}", clip(value), names.join(" | ")))
    })
}

fn err(key: &str, message: String) -> ParamError {
    ParamError { param: key.to_string(), message }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 32 {
        format!("{}…", s.chars().take(32).collect::<String>())
    } else {
        s.to_string()
    }
}

impl Num {
    fn range(&self) -> String {
        let unit = if self.unit.is_empty() { String::new() } else { format!(" {}", self.unit) };
        format!("from {} to {}{unit}", format_fixed(self.min, self.digits), format_fixed(self.max, self.digits))
    }

    /// Parses a value; an out-of-range number is `Err((message, clamped))`.
    fn parse(&self, value: &str) -> Result<u64, (ParamError, Option<u64>)> {
        let v = parse_fixed(value, self.digits).map_err(|e| {
            let why = match e {
                DecimalError::TooPrecise(0) => "must be a whole number".to_string(),
                DecimalError::TooPrecise(d) => format!("has more than {d} decimal places"),
                DecimalError::TooLarge => "is too large".to_string(),
                DecimalError::NotANumber => "is not a number".to_string(),
            };
            let clamped = (e == DecimalError::TooLarge).then_some(self.max);
            (err(self.key, format!("'{}' {why}; allowed: {}", clip(value), self.range())), clamped)
        })?;
        if v < self.min || v > self.max {
            let clamped = v.clamp(self.min, self.max);
            return Err((
                err(self.key, format!("{} is out of range; allowed: {}", clip(value), self.range())),
                Some(clamped),
            ));
        }
        Ok(v)
    }
}

/// Decodes one query component: `%XX` escapes and `+` for a space (invalid escapes stay as
/// they are, invalid UTF-8 becomes U+FFFD).
///
/// ```
/// use ratelimit_playground::sim::query::percent_decode;
/// assert_eq!(percent_decode("sliding%5Fwindow+x%zz"), "sliding_window x%zz");
/// ```
pub fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() => {
                let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
                i += 2;
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How [`parse`] treats a problem.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Strict,
    Lenient,
}

fn parse(query: &str, mode: Mode) -> Result<(Scenario, Vec<ParamError>), ParamError> {
    let mut sc = Scenario::default();
    let mut notices = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let (key, value) = (percent_decode(k), percent_decode(v));
        let mut problem = |e: ParamError| {
            if mode == Mode::Strict {
                Err(e)
            } else {
                notices.push(e);
                Ok(())
            }
        };
        if seen.contains(&key) {
            problem(err(&key, "is given more than once; the last value is used".into()))?;
        } else if KEYS.contains(&key.as_str()) {
            seen.push(key.clone());
        }
        if let Some(num) = NUMS.iter().find(|n| n.key == key) {
            match num.parse(&value) {
                Ok(v) => (num.set)(&mut sc, v),
                Err((mut e, clamped)) => {
                    if let Some(c) = clamped.filter(|_| mode == Mode::Lenient) {
                        (num.set)(&mut sc, c);
                        e.message = format!("{}; using {}", e.message, format_fixed(c, num.digits));
                    } else if mode == Mode::Lenient {
                        let default = (num.get)(&Scenario::default()).map(|v| format_fixed(v, num.digits));
                        e.message = match default {
                            Some(v) => format!("{}; using the default, {v}", e.message),
                            None => format!("{}; using the default", e.message),
                        };
                    }
                    problem(e)?;
                }
            }
            continue;
        }
        let result = match key.as_str() {
            "algo" => choose(&key, ALGOS, &value).map(|v| sc.algo = v),
            "traffic" => choose(&key, TRAFFIC, &value).map(|v| sc.traffic = v),
            "store" => choose(&key, STORES, &value).map(|v| sc.store = v),
            "lb" => choose(&key, BALANCERS, &value).map(|v| sc.lb = v),
            "retry" => choose(&key, RETRIES, &value).map(|v| sc.retry = v),
            "fail" => choose(&key, FAILS, &value).map(|v| sc.fail = v),
            "count_rejected" => choose(&key, BOOLS, &value).map(|v| sc.count_rejected = v),
            "outage" => parse_outage(&value).map(|o| sc.outage = o),
            _ => Err(err(&key, format!("is not a known parameter; known: {}", KEYS.join(", ")))),
        };
        if let Err(mut e) = result {
            if mode == Mode::Lenient {
                e.message.push_str("; ignored");
            }
            problem(e)?;
        }
    }
    for e in sc.cross_check() {
        if mode == Mode::Strict {
            return Err(e);
        }
        notices.push(e);
    }
    sc.backoff_cap = sc.backoff_cap.max(sc.backoff_base);
    Ok((sc, notices))
}

/// `outage=START-END` in seconds, `START < END`, or `none`.
fn parse_outage(value: &str) -> Result<Option<Outage>, ParamError> {
    if value == "none" || value.is_empty() {
        return Ok(None);
    }
    let bad = || {
        err(
            "outage",
            format!("'{}' is not START-END in seconds with START < END ≤ 86400 (e.g. 10-20), or none", clip(value)),
        )
    };
    let (a, b) = value.split_once('-').ok_or_else(bad)?;
    let (a, b) = (parse_fixed(a, S).map_err(|_| bad())?, parse_fixed(b, S).map_err(|_| bad())?);
    if a >= b || b > 86_400 * SEC {
        return Err(bad());
    }
    Ok(Some(Outage { start: SimTime(a), end: SimTime(b) }))
}

impl Scenario {
    /// Parses a query string, failing on the first unknown key, bad value or out-of-range number.
    ///
    /// ```
    /// use ratelimit_playground::sim::{Algorithm, Rate, Scenario};
    /// let sc = Scenario::from_query("algo=gcra&capacity=20&refill=2.5").unwrap();
    /// assert_eq!((sc.algo, sc.capacity, sc.refill), (Algorithm::Gcra, 20, Rate::from_milli(2500)));
    /// let e = Scenario::from_query("nodes=40").unwrap_err();
    /// assert_eq!(e.to_string(), "nodes: 40 is out of range; allowed: from 1 to 16 nodes");
    /// ```
    pub fn from_query(query: &str) -> Result<Scenario, ParamError> {
        parse(query, Mode::Strict).map(|(sc, _)| sc)
    }

    /// Parses a query string leniently: out-of-range numbers are clamped, unknown keys and bad
    /// values ignored, and each such problem is returned as a notice naming the parameter.
    pub fn from_query_lenient(query: &str) -> (Scenario, Vec<ParamError>) {
        parse(query, Mode::Lenient).expect("lenient parsing reports problems instead of failing")
    }

    /// Checks every field against the ranges of the query format, and the fields against each other.
    pub fn validate(&self) -> Result<(), ParamError> {
        for num in NUMS {
            if let Some(v) = (num.get)(self) {
                if v < num.min || v > num.max {
                    let shown = format_fixed(v, num.digits);
                    return Err(err(num.key, format!("{shown} is out of range; allowed: {}", num.range())));
                }
            }
        }
        match self.cross_check().into_iter().next() {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Problems between fields (lenient parsing raises `backoff_cap` to `backoff_base`).
    fn cross_check(&self) -> Vec<ParamError> {
        let mut out = Vec::new();
        if self.backoff_cap < self.backoff_base {
            out.push(err("backoff_cap", "must be at least backoff_base".into()));
        }
        if self.traffic == TrafficShape::Trace && self.trace.is_none() {
            out.push(err("traffic", "trace needs a trace file (--trace FILE, or paste one in the app)".into()));
        }
        out
    }

    /// The query string of every field that differs from the default, in a fixed order: the short,
    /// human-readable form for share links. Parsing it gives this scenario back.
    pub fn to_query(&self) -> String {
        self.query_pairs(false).join("&")
    }

    /// The query string of every field, in a fixed order: the normalized form.
    pub fn to_query_full(&self) -> String {
        self.query_pairs(true).join("&")
    }

    fn query_pairs(&self, all: bool) -> Vec<String> {
        let d = Scenario::default();
        let mut out = Vec::new();
        let mut put = |k: &str, v: String, default: String| {
            if all || v != default {
                out.push(format!("{k}={v}"));
            }
        };
        put("algo", name_of(ALGOS, self.algo).into(), name_of(ALGOS, d.algo).into());
        for num in NUMS {
            let shown = |s: &Scenario| (num.get)(s).map(|v| format_fixed(v, num.digits));
            if let Some(v) = shown(self) {
                put(num.key, v, shown(&d).unwrap_or_default());
            }
        }
        put("count_rejected", u8::from(self.count_rejected).to_string(), "0".into());
        put("traffic", name_of(TRAFFIC, self.traffic).into(), name_of(TRAFFIC, d.traffic).into());
        put("lb", name_of(BALANCERS, self.lb).into(), name_of(BALANCERS, d.lb).into());
        put("store", name_of(STORES, self.store).into(), name_of(STORES, d.store).into());
        put("fail", name_of(FAILS, self.fail).into(), name_of(FAILS, d.fail).into());
        put("retry", name_of(RETRIES, self.retry).into(), name_of(RETRIES, d.retry).into());
        let outage = self
            .outage
            .map_or("none".to_string(), |o| format!("{}-{}", format_fixed(o.start.0, S), format_fixed(o.end.0, S)));
        put("outage", outage, "none".into());
        out
    }
}
