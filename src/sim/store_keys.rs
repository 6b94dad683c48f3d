//! The query keys of the shared store's failures ([`crate::sim::replica`]): a failover to a
//! lagging replica, how far the replica lags (which `store=replica_read` reads from), and the
//! nodes' skewed clocks.
//! Declared as [`ProductKey`]s, as the server's are ([`crate::sim::server::keys`]): the first
//! modules, which run no shared store, carry none of their table and hand a link that sets one
//! over to the whole page.

use crate::sim::products::key::{KeyKind, ProductKey};
use crate::sim::products::options::ProductOptions;
use crate::sim::time::SimTime;

/// `failover`, seconds to the ms (0.001–86 400; 0, the default: none): when the store's primary
/// dies and its replica, `replica_lag` behind, is promoted; every node moves to it at once.
pub const FAILOVER: ProductKey =
    ProductKey { key: "failover", kind: KeyKind::Num { unit: "s", digits: 3, min: 0, max: 86_400_000 }, default: 0 };

/// `replica_lag`, ms to the µs (0–10 000; 50 ms by default): how far behind its primary the
/// store's replica is — a write made at the primary at t reaches it at t + lag.
pub const REPLICA_LAG: ProductKey = ProductKey {
    key: "replica_lag",
    kind: KeyKind::Num { unit: "ms", digits: 3, min: 0, max: 10_000_000 },
    default: 50_000,
};

/// `skew`, ms to the µs (0–10 000; 0, the default): how far apart the nodes' clocks are. Node i
/// of n is `−skew + 2 · skew · i ÷ (n − 1)` off (spread evenly over ±skew), and stamps its
/// requests with its own time — as the exported scripts and many libraries take `now` from the
/// caller — unless `now=server`.
pub const SKEW: ProductKey =
    ProductKey { key: "skew", kind: KeyKind::Num { unit: "ms", digits: 3, min: 0, max: 10_000_000 }, default: 0 };

/// `now=node|server` (node): whose clock a shared limiter's time comes from — the node that
/// sends the request, or the store (a script reading Redis `TIME`; a read or an increment
/// stamped where the store applies it). An edge node's own view always runs on its own clock.
pub const NOW: ProductKey = ProductKey { key: "now", kind: KeyKind::Names(&[("node", 0), ("server", 1)]), default: 0 };

/// `shards`, keys (1–16; 1, the default): how many keys of a Redis Cluster one limiter is split
/// over, each allowed a share of the limit ([`crate::sim::shards`]).
pub const SHARDS: ProductKey =
    ProductKey { key: "shards", kind: KeyKind::Num { unit: "keys", digits: 0, min: 1, max: 16 }, default: 1 };

/// Every key of the store's failures, in the order the query format prints them.
pub const KEYS: [ProductKey; 5] = [FAILOVER, REPLICA_LAG, SKEW, NOW, SHARDS];

/// Node `node`'s clock offset among `nodes`, ns: spread evenly over ±`skew`, 0 with one node.
///
/// ```
/// use ratelimit_playground::sim::{store_keys::clock_offset, Scenario};
/// let sc = Scenario::from_query("nodes=3&store=atomic&skew=200").unwrap();
/// let off: Vec<i64> = (0..3).map(|i| clock_offset(&sc.product, i, 3)).collect();
/// assert_eq!(off, [-200_000_000, 0, 200_000_000]);
/// assert_eq!(clock_offset(&sc.product, 0, 1), 0);
/// ```
pub fn clock_offset(o: &ProductOptions, node: usize, nodes: usize) -> i64 {
    let skew = (o.get(&SKEW) * 1_000) as i64;
    if nodes < 2 {
        return 0;
    }
    -skew + 2 * skew * node as i64 / (nodes as i64 - 1)
}

/// When the failover happens, if one does.
pub fn failover(o: &ProductOptions) -> Option<SimTime> {
    Some(o.get(&FAILOVER)).filter(|&ms| ms > 0).map(|ms| SimTime(ms * 1_000_000))
}
