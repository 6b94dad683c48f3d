//! The query keys of the shared store's failures ([`crate::sim::replica`]): a failover to a
//! lagging replica, and how far the replica lags (which `store=replica_read` reads from).
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

/// Every key of the store's failures, in the order the query format prints them.
pub const KEYS: [ProductKey; 2] = [FAILOVER, REPLICA_LAG];

/// When the failover happens, if one does.
pub fn failover(o: &ProductOptions) -> Option<SimTime> {
    Some(o.get(&FAILOVER)).filter(|&ms| ms > 0).map(|ms| SimTime(ms * 1_000_000))
}
