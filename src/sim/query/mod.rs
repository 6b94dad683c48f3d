//! The scenario's URL query format: `algo=token_bucket&capacity=10&refill=5&rate=12`.
//!
//! One table of keys serves parsing, printing and validation, so the app's share links, the
//! CLI's `--query` and the README describe the same contract. Strict parsing (the CLI) fails on
//! the first problem; lenient parsing (the app) clamps or ignores and reports every problem.

mod keys;

use super::scenario::{Outage, Scenario, TrafficShape};
use super::time::SimTime;
use crate::sim::products::{product_key, KeyKind, ProductKey, PRODUCT_KEYS};
use crate::sim::support::decimal::{format_fixed, parse_fixed};
use keys::{clip, err, name_of, Num, ALGOS, BALANCERS, BOOLS, FAILS, NUMS, RETRIES, S, SEC, STORES, TRAFFIC};
use std::fmt;

pub use keys::KEYS;

/// The message for `traffic=trace` without arrival times (the web page replaces it with its own).
pub const TRACE_WITHOUT_TIMES: &str = "trace needs a trace file (--trace FILE, or paste one in the app)";

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
    utf8_lossy(out)
}

/// `bytes` as text, each invalid UTF-8 sequence replaced by U+FFFD, as
/// `String::from_utf8_lossy` does: the sequence replaced is the one `Utf8Error::error_len`
/// names, the maximal subpart std's lossy decoding replaces too. Written with `from_utf8`, which
/// every module has, rather than std's lossy iterator, which only this would bring into the
/// page (−0.2 KB brotli).
pub fn utf8_lossy(bytes: Vec<u8>) -> String {
    let bytes = match String::from_utf8(bytes) {
        Ok(text) => return text,
        Err(e) => e.into_bytes(),
    };
    let mut out = String::with_capacity(bytes.len() + 2);
    let mut rest = &bytes[..];
    loop {
        match std::str::from_utf8(rest) {
            Ok(valid) => return out + valid,
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                out += std::str::from_utf8(valid).unwrap_or_default();
                out.push('\u{FFFD}');
                rest = after.get(e.error_len().unwrap_or(after.len())..).unwrap_or_default();
            }
        }
    }
}

/// How [`parse`] treats a problem.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Strict,
    Lenient,
}

/// A query's pairs, each key and value percent-decoded (`k` alone is `k=`).
fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    let query = query.strip_prefix('?').unwrap_or(query);
    query.split('&').filter(|p| !p.is_empty()).map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (percent_decode(k), percent_decode(v))
    })
}

/// Sets an enumerated or structured key from `value`. `None`: `key` is not one of them;
/// `Some(Err(names))`: `value` is not allowed, and `names` are the values that are (empty for
/// `outage`, which is not a list of names). Builds no message, so [`Scenario::from_query_plain`]
/// carries none.
fn set_named(sc: &mut Scenario, key: &str, value: &str) -> Option<Result<(), Vec<&'static str>>> {
    fn set<T: Copy>(field: &mut T, table: &[(&'static str, T)], value: &str) -> Result<(), Vec<&'static str>> {
        match table.iter().find(|(n, _)| *n == value) {
            Some(&(_, v)) => {
                *field = v;
                Ok(())
            }
            None => Err(table.iter().map(|(n, _)| *n).collect()),
        }
    }
    Some(match key {
        "algo" => set(&mut sc.algo, ALGOS, value),
        "traffic" => set(&mut sc.traffic, TRAFFIC, value),
        "store" => set(&mut sc.store, STORES, value),
        "lb" => set(&mut sc.lb, BALANCERS, value),
        "retry" => set(&mut sc.retry, RETRIES, value),
        "fail" => set(&mut sc.fail, FAILS, value),
        "count_rejected" => set(&mut sc.count_rejected, BOOLS, value),
        "outage" => outage_of(value).map(|o| sc.outage = o).ok_or_else(Vec::new),
        _ => match product_key(key)? {
            k @ ProductKey { kind: KeyKind::Names(names), .. } => {
                let mut v = 0;
                set(&mut v, names, value).map(|()| sc.product.set(k, v))
            }
            _ => return None,
        },
    })
}

/// The numeric key named `key` and where its value goes: a shared key's own setter, or the
/// product options for a product's key.
fn num(key: &str) -> Option<(Num, Option<&'static ProductKey>)> {
    match NUMS.iter().find(|n| n.key == key) {
        Some(n) => Some((*n, None)),
        None => product_key(key).and_then(|k| Some((Num::of_product(k)?, Some(k)))),
    }
}

/// Sets a numeric key's value: through its setter, or in the product options.
fn set_num(sc: &mut Scenario, num: &Num, product: Option<&ProductKey>, v: u64) {
    match product {
        Some(k) => sc.product.set(k, v),
        None => (num.set)(sc, v),
    }
}

fn parse(query: &str, mode: Mode) -> Result<(Scenario, Vec<ParamError>), ParamError> {
    let mut sc = Scenario::default();
    let mut notices = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in pairs(query) {
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
        if let Some((num, product)) = num(&key) {
            match num.parse(&value) {
                Ok(v) => set_num(&mut sc, &num, product, v),
                Err((mut e, clamped)) => {
                    if let Some(c) = clamped.filter(|_| mode == Mode::Lenient) {
                        set_num(&mut sc, &num, product, c);
                        e.message = format!("{}; using {}", e.message, format_fixed(c, num.digits));
                    } else if mode == Mode::Lenient {
                        let default = match product {
                            Some(k) => Some(k.default),
                            None => (num.get)(&Scenario::default()),
                        };
                        let default = default.map(|v| format_fixed(v, num.digits));
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
        let result = match set_named(&mut sc, &key, &value) {
            Some(Ok(())) => Ok(()),
            Some(Err(names)) if names.is_empty() => Err(outage_error(&value)),
            Some(Err(names)) => Err(err(&key, format!("'{}' is not one of {}", clip(&value), names.join(" | ")))),
            None => Err(err(&key, format!("is not a known parameter; known: {}", KEYS.join(", ")))),
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

/// `outage=START-END` in seconds, `START < END ≤ 86400`, or `none` (or empty): `None` if it is
/// neither.
fn outage_of(value: &str) -> Option<Option<Outage>> {
    if value == "none" || value.is_empty() {
        return Some(None);
    }
    let (a, b) = value.split_once('-')?;
    let (a, b) = (parse_fixed(a, S).ok()?, parse_fixed(b, S).ok()?);
    (a < b && b <= 86_400 * SEC).then_some(Some(Outage { start: SimTime(a), end: SimTime(b) }))
}

/// Why an `outage` value was refused.
fn outage_error(value: &str) -> ParamError {
    err(
        "outage",
        format!("'{}' is not START-END in seconds with START < END ≤ 86400 (e.g. 10-20), or none", clip(value)),
    )
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

    /// The scenario of a query [`Scenario::from_query`] accepts, without saying why another is
    /// refused: no message is built, so code that only runs clean queries (the page's first
    /// module, which hands any other address to the whole page) carries no message text.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// for q in ["algo=gcra&capacity=20&refill=2.5", "nodes=40", "capacity=1.5", "rate=2&rate=3", "x=1"] {
    ///     assert_eq!(Scenario::from_query_plain(q), Scenario::from_query(q).ok());
    /// }
    /// ```
    pub fn from_query_plain(query: &str) -> Option<Scenario> {
        let mut sc = Scenario::default();
        let mut seen: Vec<String> = Vec::new();
        for (key, value) in pairs(query) {
            if seen.contains(&key) {
                return None;
            }
            match num(&key) {
                Some((num, product)) => set_num(&mut sc, &num, product, num.parse_plain(&value)?),
                None => set_named(&mut sc, &key, &value)?.ok()?,
            }
            seen.push(key);
        }
        sc.cross_check().is_empty().then_some(sc)
    }

    /// Checks every field against the ranges of the query format, and the fields against each other.
    pub fn validate(&self) -> Result<(), ParamError> {
        let products = PRODUCT_KEYS.iter().filter_map(|k| Some((Num::of_product(k)?, Some(self.product.get(k)))));
        for (num, v) in NUMS.iter().map(|n| (*n, (n.get)(self))).chain(products) {
            if let Some(v) = v {
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
            out.push(err("traffic", TRACE_WITHOUT_TIMES.into()));
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
        // The product knobs: in the full form only for a product model (they change nothing else).
        let product = all && self.algo.is_product();
        let mut put = |k: &str, v: String, default: String| {
            if product || v != default {
                out.push(format!("{k}={v}"));
            }
        };
        for key in &PRODUCT_KEYS {
            let shown = |v: u64| match key.kind {
                KeyKind::Num { digits, .. } => format_fixed(v, digits),
                KeyKind::Names(_) => key.name_of(v).unwrap_or_default().to_string(),
            };
            put(key.key, shown(self.product.get(key)), shown(key.default));
        }
        out
    }
}
