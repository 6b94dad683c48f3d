//! [`Shared`]: what every node of a run shares — the store mode, the limiter's keys and where
//! they live, the clock, the fail mode, the replica's ledger and each node's clock offset — and
//! the counts the nodes keep together ([`Key`]'s operations and admissions, each server's load).

use super::clock::Clock;
use super::layout::Layout;
use crate::sim::StoreMode;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

/// One key of the run's limiter (several with `shards`): its commands, the link (server) it
/// lives on, and what it served.
pub struct Key {
    /// Its name and commands.
    pub layout: Layout,
    /// The link it is on at the start: the server's, or its primary's in a cluster.
    pub link: usize,
    /// Store operations sent to it: a read, a write, a script.
    pub ops: AtomicU64,
    /// Requests admitted on it.
    pub admitted: AtomicU64,
}

impl Key {
    /// A key with `layout`, on `link`.
    pub fn new(layout: Layout, link: usize) -> Key {
        Key { layout, link, ops: AtomicU64::new(0), admitted: AtomicU64::new(0) }
    }
}

/// What every node shares.
pub struct Shared {
    /// The scenario's store mode.
    pub mode: StoreMode,
    /// The limiter's keys: one, or `shards` of them, request `id` counting on key
    /// `sim::shards::key_of(id, K)`, as in the engine.
    pub keys: Vec<Key>,
    /// Store operations each server (link) answered, redirects included.
    pub server_ops: Vec<AtomicU64>,
    /// SHA1 of the script the mode runs (atomic: the exported script; async: the increment).
    pub sha: String,
    /// The run's clock.
    pub clock: Clock,
    /// How long a node waits for a reply before deciding by the fail mode (wall time).
    pub timeout: Duration,
    /// Fail open (admit) on a timeout.
    pub fail_open: bool,
    /// Rejected requests consume quota too.
    pub count_rejected: bool,
    /// No reply for this long with requests waiting is a dead server (wall time): [`STALL`]
    /// beyond `timeout` and the round trip. Writes that block this long fail too.
    pub stall: Duration,
    /// The ledger's key, when writes at the primary are followed by `RPUSH <ledger> <id>` (with
    /// a replica: see [`super::replica`]).
    pub ledger: Option<String>,
    /// The ledger's pushes the primary has acknowledged, all nodes together.
    pub acked: AtomicU64,
    /// Each node's clock offset, scenario ns (`skew`): a node stamps its requests with its own
    /// time, as the engine's nodes do.
    pub offsets: Vec<i64>,
}
