//! The scenario's URL query format: `algo=token_bucket&capacity=10&refill=5&rate=12`.
//!
//! One table of keys serves parsing, printing and validation, so the app's share links, the
//! CLI's `--query` and the README describe the same contract. Strict parsing (the CLI) fails on
//! the first problem; lenient parsing (the app) clamps or ignores and reports every problem.

mod keys;
mod pairs;
mod problem;
mod span;
mod words;

use super::scenario::{Scenario, TrafficShape};
use crate::sim::products::{product_key, KeyKind, ProductKey, PRODUCT_KEYS};
use crate::sim::support::decimal::format_fixed;
use keys::{name_of, num, Num, ALGOS, BALANCERS, BOOLS, FAILS, NUMS, RETRIES, S, STORES, TRAFFIC};
use span::{outage_of, span_of, span_text};
use std::fmt;

pub use keys::{is_key, known_keys, number_range};
pub use pairs::{pairs, raw_pairs};
pub use problem::{Clean, Invalid, Kind, NumberWhy, Problem, Problems, Range, Used};
pub use words::{range_words, TRACE_WITHOUT_TIMES};

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
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// The keys an address may hold besides the scenario's (the page's `view`, an embed's keys),
/// which [`read_query`] reads in the same pass as the scenario's, putting problems into `P`.
/// Taken as a trait object, so a module has one reader per kind of problems it keeps, whatever
/// keys its addresses hold (the whole page reads `--query`-like queries and its own links).
pub trait OtherKeys<P: Problems> {
    /// Whether `key` is one of them.
    fn knows(&self, key: &str) -> bool;
    /// Reads `key`'s value, adding a problem for what it cannot use as given.
    fn read(&mut self, key: &str, value: &str, problems: &mut P);
}

/// No other keys: a query that holds only the scenario's (the CLI's `--query`).
impl<P: Problems> OtherKeys<P> for () {
    fn knows(&self, _: &str) -> bool {
        false
    }

    fn read(&mut self, _: &str, _: &str, _: &mut P) {}
}

/// The one reader of a query (with or without the leading `?`): the scenario's keys into a
/// scenario, `other`'s keys into `other`, and a [`Problem`] into `problems` for each parameter
/// not used as given — unknown or repeated keys, values that are not allowed (ignored), numbers
/// out of range (clamped) or unreadable (the default), fields that contradict each other. `None`
/// if the query holds none of the scenario's keys.
#[inline(never)]
pub fn read_query<P: Problems>(query: &str, other: &mut dyn OtherKeys<P>, problems: &mut P) -> Option<Scenario> {
    let mut sc = Scenario::default();
    let mut any = false;
    let mut seen: Vec<String> = Vec::new();
    for (key, value) in pairs(query) {
        let scenario_key = is_key(&key);
        let known = scenario_key || other.knows(&key);
        if seen.contains(&key) {
            problems.add(|| Problem::new(&key, Kind::Repeated, Used::Last));
        } else if known {
            seen.push(key.clone());
        }
        if scenario_key {
            any = true;
            read_pair(&mut sc, &key, &value, problems);
        } else if known {
            other.read(&key, &value, problems);
        } else {
            problems.add(|| Problem::new(&key, Kind::Unknown, Used::Ignored));
        }
    }
    if sc.backoff_cap < sc.backoff_base {
        problems.add(|| Problem::new("backoff_cap", Kind::BackoffCapBelowBase, Used::Nearest));
        sc.backoff_cap = sc.backoff_base;
    }
    if sc.traffic == TrafficShape::Trace && sc.trace.is_none() {
        problems.add(|| Problem::new("traffic", Kind::TraceWithoutTimes, Used::Nothing));
    }
    if sc.fit_store() {
        problems.add(|| Problem::new("store", Kind::SyncNeedsKong, Used::Nearest));
    }
    any.then_some(sc)
}

/// Reads one of the scenario's keys into `sc`. What a problem says is worked out inside its
/// closure, which a [`Clean`] never calls, so the first modules carry none of it.
fn read_pair(sc: &mut Scenario, key: &str, value: &str, problems: &mut impl Problems) {
    if let Some((num, product)) = num(key) {
        match num.parse(value) {
            Ok(v) => set_num(sc, &num, product, v),
            Err((why, clamped)) => {
                if let Some(c) = clamped {
                    set_num(sc, &num, product, c);
                }
                problems.add(|| {
                    let used = match (clamped, product) {
                        (Some(c), _) => Used::Value { value: c, digits: num.digits },
                        (None, Some(k)) => Used::Default(Some((k.default, num.digits))),
                        (None, None) => Used::Default((num.get)(&Scenario::default()).map(|v| (v, num.digits))),
                    };
                    let kind = Kind::Number { value: value.to_string(), why, range: num.range() };
                    Problem::new(key, kind, used)
                });
            }
        }
        return;
    }
    match set_named(sc, key, value) {
        Some(true) => {}
        Some(false) => problems.add(|| {
            let value = value.to_string();
            let kind = match names_of(key) {
                Some(names) => Kind::NotOneOf { value, names },
                None => Kind::Outage { value },
            };
            Problem::new(key, kind, Used::Ignored)
        }),
        None => problems.add(|| Problem::new(key, Kind::Unknown, Used::Ignored)),
    }
}

/// Sets an enumerated or structured key from `value`. `None`: `key` is not one of them;
/// `Some(false)`: `value` is not allowed (see [`names_of`]).
fn set_named(sc: &mut Scenario, key: &str, value: &str) -> Option<bool> {
    fn set<T: Copy>(field: &mut T, table: &[(&'static str, T)], value: &str) -> bool {
        table.iter().find(|(n, _)| *n == value).map(|&(_, v)| *field = v).is_some()
    }
    Some(match key {
        "algo" => set(&mut sc.algo, ALGOS, value),
        "traffic" => set(&mut sc.traffic, TRAFFIC, value),
        "store" => set(&mut sc.store, STORES, value),
        "lb" => set(&mut sc.lb, BALANCERS, value),
        "retry" => set(&mut sc.retry, RETRIES, value),
        "fail" => set(&mut sc.fail, FAILS, value),
        "count_rejected" => set(&mut sc.count_rejected, BOOLS, value),
        "outage" => outage_of(value).map(|o| sc.outage = o).is_some(),
        _ => match product_key(key)? {
            k @ ProductKey { kind: KeyKind::Names(_), .. } => k.value_of(value).map(|v| sc.product.set(k, v)).is_some(),
            k @ ProductKey { kind: KeyKind::Span, .. } => {
                span_of(value, 3).map(|s| sc.product.set(k, s.map_or(0, |(a, b)| (a << 32) | b))).is_some()
            }
            _ => return None,
        },
    })
}

/// The values an enumerated key allows, in the order listed; `None` for another key (`outage`).
fn names_of(key: &str) -> Option<Vec<&'static str>> {
    fn names<T>(table: &[(&'static str, T)]) -> Vec<&'static str> {
        table.iter().map(|(n, _)| *n).collect()
    }
    Some(match key {
        "algo" => names(ALGOS),
        "traffic" => names(TRAFFIC),
        "store" => names(STORES),
        "lb" => names(BALANCERS),
        "retry" => names(RETRIES),
        "fail" => names(FAILS),
        "count_rejected" => names(BOOLS),
        _ => match product_key(key)?.kind {
            KeyKind::Names(table) => names(table),
            _ => return None,
        },
    })
}

/// Sets a numeric key's value: through its setter, or in the product options.
fn set_num(sc: &mut Scenario, num: &Num, product: Option<&ProductKey>, v: u64) {
    match product {
        Some(k) => sc.product.set(k, v),
        None => (num.set)(sc, v),
    }
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
        match Scenario::read(query) {
            (sc, problems) if problems.is_empty() => Ok(sc),
            (_, problems) => Err(problems[0].error()),
        }
    }

    /// Reads a query string leniently: out-of-range numbers are clamped, unknown keys and bad
    /// values ignored, and each such problem is returned, naming the parameter.
    pub fn read(query: &str) -> (Scenario, Vec<Problem>) {
        let mut problems = Vec::new();
        let sc = read_query(query, &mut (), &mut problems).unwrap_or_default();
        (sc, problems)
    }

    /// The scenario of a query [`Scenario::from_query`] accepts; `None` for any other, without
    /// saying why: the same reader, through [`Clean`], so a module that reads only queries it
    /// wrote (the log worker) carries no problem's words.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// for q in ["", "algo=gcra&capacity=20&refill=2.5", "nodes=40", "capacity=1.5", "rate=2&rate=3", "x=1"] {
    ///     assert_eq!(Scenario::read_clean(q), Scenario::from_query(q).ok(), "{q}");
    /// }
    /// ```
    pub fn read_clean(query: &str) -> Option<Scenario> {
        let mut clean = Clean::default();
        let sc = read_query(query, &mut (), &mut clean).unwrap_or_default();
        clean.is_clean().then_some(sc)
    }

    /// Checks every field against the ranges of the query format, and the fields against each other.
    pub fn validate(&self) -> Result<(), ParamError> {
        self.check().map_or(Ok(()), |e| Err(e.error()))
    }

    /// The first field out of the query format's range, or in contradiction with another.
    #[inline(never)]
    pub fn check(&self) -> Option<Invalid> {
        let shared = NUMS.iter().filter_map(|n| Some((*n, (n.get)(self)?)));
        let products = PRODUCT_KEYS.iter().filter_map(|k| Some((Num::of_product(k)?, self.product.get(k))));
        for (num, value) in shared.chain(products) {
            if value < num.min || value > num.max {
                return Some(Invalid::OutOfRange { key: num.key, value, range: num.range() });
            }
        }
        if self.backoff_cap < self.backoff_base {
            return Some(Invalid::BackoffCapBelowBase);
        }
        if self.traffic == TrafficShape::Trace && self.trace.is_none() {
            return Some(Invalid::TraceWithoutTimes);
        }
        if self.store_misfit() {
            return Some(Invalid::SyncNeedsKong);
        }
        None
    }

    /// The query string of every field that differs from the default, in a fixed order: the short,
    /// human-readable form for share links. Parsing it gives this scenario back.
    pub fn to_query(&self) -> String {
        self.query_pairs(false, "").join("&")
    }

    /// [`Scenario::to_query`] with `key` too, whatever its value: the form of the page's links,
    /// which always state `rate`.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// assert_eq!(Scenario::default().to_query_with("rate"), "rate=8");
    /// ```
    pub fn to_query_with(&self, key: &str) -> String {
        self.query_pairs(false, key).join("&")
    }

    /// The query string of every field, in a fixed order: the normalized form.
    pub fn to_query_full(&self) -> String {
        self.query_pairs(true, "").join("&")
    }

    fn query_pairs(&self, all: bool, also: &str) -> Vec<String> {
        let d = Scenario::default();
        let mut out = Vec::new();
        let mut put = |k: &str, v: String, default: String| {
            if all || v != default || k == also {
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
        put("outage", span_text(self.outage.map(|o| (o.start.0, o.end.0)), S), "none".into());
        // The product knobs: in the full form only for a product model (they change nothing else);
        // the server's, only with a server.
        // (The server's keys are the list's last, `workers` first.)
        let keys = &PRODUCT_KEYS;
        let servers = keys.len().saturating_sub(crate::sim::server::KEY_COUNT);
        let product = all && self.algo.is_product();
        let server = all && keys.get(servers).is_some_and(|workers| self.product.get(workers) > 0);
        for (i, key) in keys.iter().enumerate() {
            let shown = |v: u64| match key.kind {
                KeyKind::Num { digits, .. } => format_fixed(v, digits),
                KeyKind::Names(_) => key.name_of(v).unwrap_or_default().to_string(),
                KeyKind::Span => span_text(crate::sim::products::key::span(v), 3),
            };
            let full = if i >= servers { server } else { product };
            let (v, default) = (shown(self.product.get(key)), shown(key.default));
            if full || v != default {
                out.push(format!("{}={v}", key.key));
            }
        }
        out
    }
}
