//! A query's `key=value` pairs: the one place a query is split, for the scenario's reader
//! ([`super::read_query`]), the loader's route, the page's handover and the exports.

use super::percent_decode;

/// A query's pairs as written, in order: split at each `&`, each pair at its first `=` (a key
/// without `=` has the empty value), with a leading `?` and empty pairs left out. Nothing is
/// decoded: for text the crate wrote itself, or to look at a query as typed.
///
/// ```
/// use ratelimit_playground::sim::query::raw_pairs;
/// let pairs: Vec<_> = raw_pairs("?a=1&&b&c=x%20y=z").collect();
/// assert_eq!(pairs, [("a", "1"), ("b", ""), ("c", "x%20y=z")]);
/// ```
pub fn raw_pairs(query: &str) -> impl Iterator<Item = (&str, &str)> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query.split('&').filter(|p| !p.is_empty()).map(|pair| pair.split_once('=').unwrap_or((pair, "")))
}

/// A query's pairs as `URLSearchParams` holds them: [`raw_pairs`], each key and value
/// percent-decoded ([`percent_decode`]).
///
/// ```
/// use ratelimit_playground::sim::query::pairs;
/// let pairs: Vec<(String, String)> = pairs("algo=sliding%5Fwindow&note=a+b&rate").collect();
/// assert_eq!(pairs[0], ("algo".into(), "sliding_window".into()));
/// assert_eq!(pairs[1], ("note".into(), "a b".into()));
/// assert_eq!(pairs[2], ("rate".into(), String::new()));
/// ```
pub fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
    raw_pairs(query).map(|(k, v)| (percent_decode(k), percent_decode(v)))
}
