//! [`Problem`]s in words, made only where they are shown: [`Problem::error`] for the CLI, which
//! refuses the query, and [`Problem::notice`] for the page, which says what it used instead.

use super::problem::{Invalid, Kind, NumberWhy, Problem, Range, Used};
use super::{known_keys, ParamError};
use crate::sim::support::decimal::{format_fixed, DecimalError};
use crate::sim::support::quote::clip;

/// The message for `traffic=trace` without arrival times, as the CLI says it.
pub const TRACE_WITHOUT_TIMES: &str = "trace needs a trace file (--trace FILE, or paste one in the app)";

impl Problem {
    /// The problem as the CLI refuses a query with it: what was wrong and what is allowed.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// let (_, problems) = Scenario::read("nodes=40&bogus=1");
    /// assert_eq!(problems[0].error().to_string(), "nodes: 40 is out of range; allowed: from 1 to 16 nodes");
    /// assert!(problems[1].error().message.starts_with("is not a known parameter; known: algo, capacity"));
    /// ```
    pub fn error(&self) -> ParamError {
        let message = match self.kind {
            Kind::Unknown => format!("is not a known parameter; known: {}", known_keys()),
            _ => self.what(),
        };
        ParamError { param: self.key.clone(), message }
    }

    /// The problem as the page's notice says it: what was wrong, what is allowed and what the
    /// page used instead.
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// let (_, problems) = Scenario::read("nodes=40&rate=x&bogus=1");
    /// let words: Vec<String> = problems.iter().map(|p| p.notice().to_string()).collect();
    /// assert_eq!(words, [
    ///     "nodes: 40 is out of range; allowed: from 1 to 16 nodes; using 16",
    ///     "rate: 'x' is not a number; allowed: from 0.001 to 100000 requests/s; using the default, 8",
    ///     "bogus: is not a known parameter (see the query keys in the README); ignored",
    /// ]);
    /// ```
    pub fn notice(&self) -> ParamError {
        let message = match (&self.kind, self.used) {
            (Kind::Unknown, _) => "is not a known parameter (see the query keys in the README)".to_string(),
            (Kind::TraceWithoutTimes, Used::Constant) => "a replayed trace is not part of a link (its arrival \
                 times are not in the address): showing constant traffic; paste the trace again under Traffic → \
                 Replay my traffic"
                .to_string(),
            _ => self.what(),
        };
        let used = match (&self.kind, self.used) {
            (_, Used::Nothing | Used::Last | Used::Constant) => String::new(),
            (_, Used::Ignored) => "; ignored".into(),
            (_, Used::Value { value, digits }) => format!("; using {}", format_fixed(value, digits)),
            (_, Used::Default(Some((value, digits)))) => {
                format!("; using the default, {}", format_fixed(value, digits))
            }
            (_, Used::Default(None)) => "; using the default".into(),
            (_, Used::Base) => "; the page's starting scenario is used".into(),
            (Kind::Moment { max, late: true, .. }, Used::Nearest) => format!("; using {max}"),
            (Kind::Moment { .. }, Used::Nearest) => "; opening at 0".into(),
            (Kind::TooLong { .. }, Used::Nearest) => "; cut there".into(),
            (Kind::BackoffCapBelowBase, Used::Nearest) => "; using backoff_base".into(),
            (Kind::SyncNeedsKong, Used::Nearest) => "; using async".into(),
            (_, Used::Nearest) => String::new(),
        };
        ParamError { param: self.key.clone(), message: message + &used }
    }

    /// What was wrong, and what is allowed.
    fn what(&self) -> String {
        match &self.kind {
            Kind::Unknown => "is not a known parameter".into(),
            Kind::Repeated => "is given more than once; the last value is used".into(),
            Kind::Number { value, why: NumberWhy::OutOfRange, range } => out_of_range(&clip(value, 32), range),
            Kind::Number { value, why: NumberWhy::Unreadable(e), range } => {
                let why = match e {
                    DecimalError::TooPrecise(0) => "must be a whole number".to_string(),
                    DecimalError::TooPrecise(d) => format!("has more than {d} decimal places"),
                    DecimalError::TooLarge => "is too large".to_string(),
                    DecimalError::NotANumber => "is not a number".to_string(),
                };
                format!("'{}' {why}; allowed: {}", clip(value, 32), range_words(range))
            }
            Kind::NotOneOf { value, names } => format!("'{}' is not one of {}", clip(value, 32), names.join(" | ")),
            Kind::NotAFlag { value } => format!("'{}' is not 0 or 1", clip(value, 32)),
            Kind::UnknownItems { items, item, known } => {
                let names: Vec<String> = items.iter().map(|n| format!("'{}'", clip(n, 32))).collect();
                let what = if items.len() == 1 { format!("is not a {item}") } else { format!("are not {item}s") };
                format!("{} {what}; known: {}", names.join(", "), known.join(", "))
            }
            Kind::Outage { value } => format!(
                "'{}' is not START-END in seconds with START < END ≤ 86400 (e.g. 10-20), or none",
                clip(value, 32)
            ),
            Kind::BackoffCapBelowBase => BACKOFF_CAP_BELOW_BASE.into(),
            Kind::TraceWithoutTimes => TRACE_WITHOUT_TIMES.into(),
            Kind::SyncNeedsKong => SYNC_NEEDS_KONG.into(),
            Kind::Moment { value, max, late: true } => {
                format!("{} s is past the latest moment, {max} s", clip(value, 32))
            }
            Kind::Moment { value, max, late: false } => {
                format!("'{}' is not a time in seconds from 0 to {max}", clip(value, 32))
            }
            Kind::TooLong { max } => format!("is longer than {max} characters"),
        }
    }
}

impl Invalid {
    /// Why the engine will not run the scenario, in the CLI's words (a [`Problem::error`]'s).
    ///
    /// ```
    /// use ratelimit_playground::sim::Scenario;
    /// let sc = Scenario { nodes: 40, ..Scenario::default() };
    /// assert_eq!(sc.check().unwrap().error().to_string(), "nodes: 40 is out of range; allowed: from 1 to 16 nodes");
    /// ```
    pub fn error(&self) -> ParamError {
        let (key, message) = match *self {
            Invalid::OutOfRange { key, value, range } => {
                (key, out_of_range(&format_fixed(value, range.digits), &range))
            }
            Invalid::BackoffCapBelowBase => ("backoff_cap", BACKOFF_CAP_BELOW_BASE.into()),
            Invalid::TraceWithoutTimes => ("traffic", TRACE_WITHOUT_TIMES.into()),
            Invalid::SyncNeedsKong => ("store", SYNC_NEEDS_KONG.into()),
        };
        ParamError { param: key.to_string(), message }
    }
}

const BACKOFF_CAP_BELOW_BASE: &str = "must be at least backoff_base";

const SYNC_NEEDS_KONG: &str = "'sync' is Kong's policy: redis and runs with algo=kong only";

/// `40 is out of range; allowed: from 1 to 16 nodes`.
fn out_of_range(value: &str, range: &Range) -> String {
    format!("{value} is out of range; allowed: {}", range_words(range))
}

/// What a numeric key allows, in words: `from 1 to 16 nodes`.
pub fn range_words(r: &Range) -> String {
    let unit = if r.unit.is_empty() { String::new() } else { format!(" {}", r.unit) };
    format!("from {} to {}{unit}", format_fixed(r.min, r.digits), format_fixed(r.max, r.digits))
}
