//! The keys under the cluster's pictures: what each mark of the swimlane and of the topology
//! means, in the words the page's cards show under them and the still writes, each with the ink
//! its mark is drawn in. Plain Rust, tested natively.

use crate::sim::StoreMode;

/// The ink of a key's mark, as the picture draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyInk {
    /// The text colour.
    Plain,
    /// Admitted's.
    Admitted,
    /// Rejected's.
    Rejected,
    /// A request on its way in.
    Incoming,
    /// A store operation.
    Operation,
    /// The quota left.
    Quota,
    /// Sent to a store that is down.
    Lost,
}

/// One entry: its words (the mark first) and ink.
pub type KeyItem = (&'static str, KeyInk);

/// The swimlane's key for `mode`, with the failover's marks when the scenario has one, and the
/// responses' marks last.
///
/// ```
/// use ratelimit_playground::present::cluster::keys::{swimlane_key, KeyInk};
/// use ratelimit_playground::sim::StoreMode;
/// let race = swimlane_key(StoreMode::Race, false);
/// assert_eq!(race[0], ("● GET", KeyInk::Plain));
/// assert!(race.contains(&("◯ two GETs of the same value", KeyInk::Rejected)));
/// assert_eq!(race.last(), Some(&("✕ 429", KeyInk::Rejected)));
/// ```
pub fn swimlane_key(mode: StoreMode, failover: bool) -> Vec<KeyItem> {
    use KeyInk::{Admitted, Plain, Rejected};
    let mut key: Vec<KeyItem> = match mode {
        StoreMode::Race => vec![
            ("● GET", Plain),
            ("■ SET", Plain),
            ("■ a SET that overwrote…", Rejected),
            ("□ …this node's update", Rejected),
            ("◯ two GETs of the same value", Rejected),
        ],
        StoreMode::Atomic => {
            vec![
                ("◆ script admitted", Admitted),
                ("◆ script rejected", Rejected),
                ("one at a time at the store", Plain),
            ]
        }
        StoreMode::Async => vec![("▲ increment (the node did not wait for it)", Plain)],
        StoreMode::ReplicaRead => {
            vec![("● GET from the replica", Plain), ("▲ increment at the primary (no wait)", Plain)]
        }
        StoreMode::Sync => vec![
            ("◆ INCR, then under the limit", Admitted),
            ("◆ INCR, at the limit", Rejected),
            ("▲ a node's sync (INCRBY)", Plain),
        ],
        StoreMode::Local => vec![("No store: each node decides alone.", Plain)],
    };
    if failover {
        key.push(("┆ failover · ◯ a write it lost", Rejected));
    }
    key.extend([("▮ 200", Admitted), ("✕ 429", Rejected)]);
    key
}

/// The topology's key, with the mark of a request sent to a store that is down when the
/// scenario has an outage.
///
/// ```
/// use ratelimit_playground::present::cluster::keys::topology_key;
/// assert_eq!(topology_key(false).len(), 5);
/// assert_eq!(topology_key(true).last().unwrap().0, "◯ sent to a store that is down");
/// ```
pub fn topology_key(outage: bool) -> Vec<KeyItem> {
    let mut key = vec![
        ("○ on its way in", KeyInk::Incoming),
        ("● admitted", KeyInk::Admitted),
        ("✕ rejected (429)", KeyInk::Rejected),
        ("• store operation", KeyInk::Operation),
        ("▬ quota left", KeyInk::Quota),
    ];
    if outage {
        key.push(("◯ sent to a store that is down", KeyInk::Lost));
    }
    key
}
