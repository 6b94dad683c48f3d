//! Policies in words for the log report: "burst 10 at 5/s", "100 per 60 s", rather than the
//! query keys a link writes (which the report shows beside them, to copy).

use crate::present::options::algorithm_label;
use crate::sim::logs::policy::PolicyKeys;
use crate::sim::support::decimal::format_fixed;
use crate::sim::Scenario;

/// A policy in words: a bucket's burst and rate, or a window's limit and length.
///
/// ```
/// use ratelimit_playground::present::log_report::words::policy_words;
/// use ratelimit_playground::sim::logs::policy::PolicyKeys;
/// use ratelimit_playground::sim::{Nanos, Rate};
/// assert_eq!(policy_words(&PolicyKeys::Bucket { capacity: 10, refill: Rate::from_milli(2_500) }), "burst 10 at 2.5/s");
/// assert_eq!(policy_words(&PolicyKeys::Window { limit: 100, window: Nanos::from_secs(60) }), "100 per 60 s");
/// ```
pub fn policy_words(p: &PolicyKeys) -> String {
    match *p {
        PolicyKeys::Bucket { capacity, refill } => format!("burst {capacity} at {}/s", format_fixed(refill.milli(), 3)),
        PolicyKeys::Window { limit, window } => format!("{limit} per {} s", format_fixed(window.as_nanos(), 9)),
    }
}

/// The scenario's policy in words, with its algorithm: "Token bucket, burst 10 at 1/s".
///
/// ```
/// use ratelimit_playground::present::log_report::words::scenario_words;
/// use ratelimit_playground::sim::Scenario;
/// let sc = |q| Scenario::from_query(q).unwrap();
/// assert_eq!(scenario_words(&sc("capacity=10&refill=1")), "Token bucket, burst 10 at 1/s");
/// assert_eq!(scenario_words(&sc("algo=sliding_window&limit=100&window=60")), "Sliding window counter, 100 per 60 s");
/// ```
pub fn scenario_words(sc: &Scenario) -> String {
    format!("{}, {}", algorithm_label(sc.algo), policy_words(&PolicyKeys::of(sc)))
}
