//! [`Problem`]: a parameter of an address or a `--query` that was not used as given, as a typed
//! value — which key, what was wrong, the range allowed, what was used instead. The parser
//! (`sim::query`, and `present::share::link` for the page's own keys) makes them; they become
//! words only where they are shown (`words.rs`): the CLI's error, the page's notice. A reader
//! that only needs to know whether there was one collects them in a [`Clean`], which never makes
//! them, so a module that reads addresses only that way carries neither the problems nor the
//! words.

use crate::sim::support::decimal::DecimalError;

/// A parameter that was not used as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The key, as given (decoded).
    pub key: String,
    /// What was wrong with it.
    pub kind: Kind,
    /// What was used instead.
    pub used: Used,
}

/// What was wrong with a parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// No reader knows the key.
    Unknown,
    /// The key is given again (this is the later one).
    Repeated,
    /// A number that is not one, or outside its range.
    Number {
        /// The value, as given.
        value: String,
        /// Why it was not used as given.
        why: NumberWhy,
        /// What the key allows.
        range: Range,
    },
    /// A value that is not one of the key's names.
    NotOneOf {
        /// The value, as given.
        value: String,
        /// The names allowed, in the order listed.
        names: Vec<&'static str>,
    },
    /// A value that is not `0` or `1` (nor `false` or `true`).
    NotAFlag {
        /// The value, as given.
        value: String,
    },
    /// Names in a comma-separated list that are not known.
    UnknownItems {
        /// The names not known, as given.
        items: Vec<String>,
        /// What each should have been, singular (`card`, `control`).
        item: &'static str,
        /// The names known, in the order listed.
        known: Vec<&'static str>,
    },
    /// `outage` (or `spike`) that is not `START-END` in seconds (nor `none`).
    Outage {
        /// The value, as given.
        value: String,
    },
    /// `backoff_cap` below `backoff_base`.
    BackoffCapBelowBase,
    /// `traffic=trace` without the trace's arrival times.
    TraceWithoutTimes,
    /// `store=sync` (Kong's `policy: redis`) with an algorithm other than Kong's.
    SyncNeedsKong,
    /// A moment (`t`) that is not a time in seconds from 0 to `max`, or is past it.
    Moment {
        /// The value, as given.
        value: String,
        /// The latest moment, in seconds.
        max: u64,
        /// Whether it is a time past `max` (then `max` is used), rather than not a time at all.
        late: bool,
    },
    /// Text longer than `max` characters.
    TooLong {
        /// The most characters kept.
        max: usize,
    },
}

/// Why a number was not used as given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberWhy {
    /// It could not be read as a number of the key's precision (see [`DecimalError`]).
    Unreadable(DecimalError),
    /// It is a number, outside the range.
    OutOfRange,
}

/// The range of a numeric key: from `min` to `max`, integers with `digits` fractional digits
/// (`1500` with 3 digits is 1.5), in `unit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Range {
    /// The smallest value allowed.
    pub min: u64,
    /// The largest value allowed.
    pub max: u64,
    /// The fractional digits of its values.
    pub digits: u32,
    /// Its unit, or empty.
    pub unit: &'static str,
}

/// What was used instead of a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Used {
    /// Nothing: the reader refuses the whole query (the CLI's `--query`).
    Nothing,
    /// The parameter was ignored: the value before it stands.
    Ignored,
    /// This value (an integer with `digits` fractional digits): a number clamped into range.
    Value {
        /// The value.
        value: u64,
        /// Its fractional digits.
        digits: u32,
    },
    /// The key's default: this value (as in [`Used::Value`]), or one not written as a number.
    Default(Option<(u64, u32)>),
    /// The last of the values given.
    Last,
    /// Constant traffic: a link cannot carry a replayed trace's times.
    Constant,
    /// The page's starting scenario, because the link's could not be run.
    Base,
    /// What the key allows nearest to it: a moment at 0 or at its latest, a text cut.
    Nearest,
}

/// Where a reader puts the problems it finds. Each comes as a closure, called only by a reader
/// that keeps them: [`Clean`] never calls it, so a module that reads addresses only that way
/// builds no problem.
pub trait Problems {
    /// A parameter was not used as given.
    fn add(&mut self, problem: impl FnOnce() -> Problem);
}

impl Problems for Vec<Problem> {
    fn add(&mut self, problem: impl FnOnce() -> Problem) {
        self.push(problem());
    }
}

/// Problems that are only noted as there or not: whether an address reads cleanly.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clean {
    found: bool,
}

impl Clean {
    /// Whether no problem was added.
    pub fn is_clean(&self) -> bool {
        !self.found
    }
}

impl Problems for Clean {
    fn add(&mut self, _: impl FnOnce() -> Problem) {
        self.found = true;
    }
}

/// Why the engine will not run a scenario ([`crate::sim::Scenario::check`]): a field out of
/// the query format's range, or contradicting another. Its own type, with its own words
/// (`Invalid::error`), so that a module that only checks scenarios carries the words of these
/// three and not of every [`Problem`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Invalid {
    /// The field `key` holds `value` (an integer with `range.digits` fractional digits).
    OutOfRange {
        /// The query key of the field.
        key: &'static str,
        /// Its value.
        value: u64,
        /// What the key allows.
        range: Range,
    },
    /// `backoff_cap` below `backoff_base`.
    BackoffCapBelowBase,
    /// `traffic=trace` without the trace's arrival times.
    TraceWithoutTimes,
    /// `store=sync` (Kong's `policy: redis`) with an algorithm other than Kong's.
    SyncNeedsKong,
}

impl Invalid {
    /// The problem a reader reports for it, having used `used` instead.
    pub fn problem(self, used: Used) -> Problem {
        match self {
            Invalid::OutOfRange { key, value, range } => {
                let value = crate::sim::support::decimal::format_fixed(value, range.digits);
                Problem::new(key, Kind::Number { value, why: NumberWhy::OutOfRange, range }, used)
            }
            Invalid::BackoffCapBelowBase => Problem::new("backoff_cap", Kind::BackoffCapBelowBase, used),
            Invalid::TraceWithoutTimes => Problem::new("traffic", Kind::TraceWithoutTimes, used),
            Invalid::SyncNeedsKong => Problem::new("store", Kind::SyncNeedsKong, used),
        }
    }
}

impl Problem {
    /// A problem with `key`.
    pub fn new(key: &str, kind: Kind, used: Used) -> Problem {
        Problem { key: key.to_string(), kind, used }
    }
}
