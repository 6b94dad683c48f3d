//! [`PolicyKeys`]: the two numbers of a policy that the sizing assistant varies and the page's
//! "Apply this policy" sets — a bucket's `capacity` and `refill`, or a window's `limit` and
//! `window` — with their text, the query format's (`capacity=20&refill=2`, `limit=100&window=60`),
//! written and read back here only. The text is what the log report and the CLI show, and what
//! the sizing table's Apply button carries from the log worker to the page.
//!
//! Not a [`crate::sim::products::Policy`]: that one is derived from a whole scenario (a bucket's
//! window is its time to refill, a window's rate is rounded to 0.001/s) and names which window
//! algorithm it is, which this text does not say; these are the exact values the scenario holds.

use std::fmt;

use crate::sim::products::ALGO_NAMES;
use crate::sim::query::raw_pairs;
use crate::sim::support::decimal::{format_fixed, parse_fixed};
use crate::sim::{Nanos, Rate, Scenario};

/// A policy's numbers, as the scenario holds them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PolicyKeys {
    /// A token bucket's (GCRA's, a bucket product's): `capacity` tokens refilled at `refill`.
    Bucket {
        /// Tokens at most: the burst.
        capacity: u64,
        /// Tokens added per second.
        refill: Rate,
    },
    /// A window algorithm's: at most `limit` requests per `window`.
    Window {
        /// Requests per window.
        limit: u64,
        /// The window's length.
        window: Nanos,
    },
}

/// What the policies on one line of the sizing chart share: a bucket's capacity or a window's
/// length ([`PolicyKeys::line`]). Shown as its key (`capacity=50`, `window=60`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// Buckets of this capacity.
    Capacity(u64),
    /// Windows of this length.
    Window(Nanos),
}

/// A window's length as the query format writes it: seconds, to the nanosecond.
fn secs(window: Nanos) -> String {
    format_fixed(window.as_nanos(), 9)
}

impl PolicyKeys {
    /// The keys of `sc`'s algorithm (a product's, under its options): the window's limit and
    /// length that its limiter runs for a window algorithm, its capacity and refill otherwise.
    pub fn of(sc: &Scenario) -> PolicyKeys {
        if sc.algo.is_window(&sc.product) {
            PolicyKeys::Window { limit: sc.effective_limit(), window: sc.effective_window() }
        } else {
            PolicyKeys::Bucket { capacity: sc.capacity, refill: sc.refill }
        }
    }

    /// Sets these two numbers on `sc`, leaving everything else (the algorithm, the other pair).
    pub fn apply(self, sc: &mut Scenario) {
        match self {
            PolicyKeys::Bucket { capacity, refill } => (sc.capacity, sc.refill) = (capacity, refill),
            PolicyKeys::Window { limit, window } => (sc.limit, sc.window) = (Some(limit), Some(window)),
        }
    }

    /// The line of the sizing chart this policy is on.
    pub fn line(self) -> Line {
        match self {
            PolicyKeys::Bucket { capacity, .. } => Line::Capacity(capacity),
            PolicyKeys::Window { window, .. } => Line::Window(window),
        }
    }

    /// Reads the text [`PolicyKeys`] is shown as (its `Display`), and nothing else.
    ///
    /// ```
    /// use ratelimit_playground::sim::logs::policy::PolicyKeys;
    /// use ratelimit_playground::sim::{Nanos, Rate};
    /// let bucket = PolicyKeys::Bucket { capacity: 20, refill: Rate::from_milli(2_500) };
    /// assert_eq!(bucket.to_string(), "capacity=20&refill=2.5");
    /// assert_eq!(PolicyKeys::parse("capacity=20&refill=2.5"), Some(bucket));
    /// let window = PolicyKeys::Window { limit: 100, window: Nanos::from_secs(60) };
    /// assert_eq!(PolicyKeys::parse(&window.to_string()), Some(window));
    /// assert_eq!(PolicyKeys::parse("refill=2.5&capacity=20"), None);
    /// ```
    pub fn parse(text: &str) -> Option<PolicyKeys> {
        let mut pairs = raw_pairs(text);
        let (a, b) = (pairs.next()?, pairs.next()?);
        if pairs.next().is_some() {
            return None;
        }
        let n = |v: &str, digits| parse_fixed(v, digits).ok();
        match (a.0, b.0) {
            ("capacity", "refill") => Some(PolicyKeys::Bucket { capacity: n(a.1, 0)?, refill: Rate::parse(b.1).ok()? }),
            ("limit", "window") => Some(PolicyKeys::Window { limit: n(a.1, 0)?, window: Nanos(n(b.1, 9)?) }),
            _ => None,
        }
    }
}

impl fmt::Display for PolicyKeys {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PolicyKeys::Bucket { capacity, refill } => write!(f, "capacity={capacity}&refill={refill}"),
            PolicyKeys::Window { limit, window } => write!(f, "limit={limit}&window={}", secs(window)),
        }
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Line::Capacity(capacity) => write!(f, "capacity={capacity}"),
            Line::Window(window) => write!(f, "window={}", secs(window)),
        }
    }
}

/// The policy of `sc` as the log report names it, in its link's words: its algorithm, its
/// bucket's numbers, and a window's limit and length where the scenario sets them.
///
/// ```
/// use ratelimit_playground::sim::logs::policy::label;
/// use ratelimit_playground::sim::Scenario;
/// let sc = Scenario::from_query("algo=gcra&capacity=5&refill=1&rate=8&seed=1").unwrap();
/// assert_eq!(label(&sc), "algo=gcra&capacity=5&refill=1");
/// ```
pub fn label(sc: &Scenario) -> String {
    let algo = ALGO_NAMES.iter().find(|(_, a)| *a == sc.algo).map_or("", |(name, _)| name);
    let mut out = format!("algo={algo}&{}", PolicyKeys::Bucket { capacity: sc.capacity, refill: sc.refill });
    if let Some(limit) = sc.limit {
        out.push_str(&format!("&limit={limit}"));
    }
    if let Some(window) = sc.window {
        out.push_str(&format!("&{}", Line::Window(window)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scenarios of every algorithm and product with a bucket and a window set, from the
    /// smallest numbers the query format takes to the largest.
    fn scenarios() -> Vec<Scenario> {
        let numbers = [
            "capacity=10&refill=2.5&limit=30&window=0.5",
            "capacity=1&refill=0.001&limit=1&window=0.001",
            "capacity=1000000&refill=1000000&limit=100000&window=86400",
            "capacity=7&refill=0.25&limit=12&window=1.000000001",
        ];
        let query = |name: &str, n: &str| format!("algo={name}&{n}");
        ALGO_NAMES
            .iter()
            .flat_map(|(name, _)| numbers.map(|n| Scenario::from_query(&query(name, n)).unwrap()))
            .collect()
    }

    /// The pairs of `query` under `keys`, in its order.
    fn pairs_of(query: &str, keys: &[&str]) -> String {
        query.split('&').filter(|p| keys.contains(&p.split('=').next().unwrap())).collect::<Vec<_>>().join("&")
    }

    #[test]
    fn a_policy_reads_back_as_written_in_the_query_formats_words() {
        for sc in scenarios() {
            let keys = PolicyKeys::of(&sc);
            assert_eq!(PolicyKeys::parse(&keys.to_string()), Some(keys), "{keys}");
            let names: &[&str] = match keys {
                PolicyKeys::Bucket { .. } => &["capacity", "refill"],
                PolicyKeys::Window { .. } => &["limit", "window"],
            };
            assert_eq!(keys.to_string(), pairs_of(&sc.to_query_full(), names), "as the scenario's link writes them");
            let line = keys.line().to_string();
            assert!(keys.to_string().split('&').any(|pair| pair == line), "{line} is one of {keys}'s pairs");
        }
        for bad in ["", "capacity=20", "capacity=20&refill=x", "limit=1.5&window=2", "capacity=1&window=2"] {
            assert_eq!(PolicyKeys::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn applying_a_policy_sets_its_two_numbers_only() {
        let bucket = PolicyKeys::Bucket { capacity: 3, refill: Rate::from_milli(1_500) };
        let window = PolicyKeys::Window { limit: 9, window: Nanos::from_secs(2) };
        for sc in scenarios() {
            for keys in [bucket, window] {
                let mut applied = sc.clone();
                keys.apply(&mut applied);
                let mut expected = sc.clone();
                match keys {
                    PolicyKeys::Bucket { .. } => (expected.capacity, expected.refill) = (3, Rate::from_milli(1_500)),
                    PolicyKeys::Window { .. } => {
                        (expected.limit, expected.window) = (Some(9), Some(Nanos::from_secs(2)))
                    }
                }
                assert_eq!(applied, expected);
            }
        }
    }

    #[test]
    fn the_label_is_the_scenarios_policy_keys_as_its_link_writes_them() {
        let keys = ["algo", "capacity", "refill", "limit", "window"];
        let unset = ["", "capacity=3", "limit=4", "window=2", "algo=fixed_window&refill=0.5&limit=8"];
        let all = scenarios().into_iter().chain(unset.map(|q| Scenario::from_query(q).unwrap()));
        for sc in all {
            assert_eq!(label(&sc), pairs_of(&sc.to_query_full(), &keys));
        }
    }
}
