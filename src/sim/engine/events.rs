//! What the engine's events carry: one attempt of a request, the events of its life (the node's
//! and the shared store's), and the most recent decision.

use crate::sim::decision::Verdict;
use crate::sim::limiter::AnyLimiter;
use crate::sim::store::Snapshot;
use crate::sim::time::SimTime;

/// One attempt of a request: a new arrival or a retry.
#[derive(Clone, Copy, Debug)]
pub(super) struct Attempt {
    pub(super) id: u64,
    /// When it reached the load balancer (and its node: the LB adds no delay).
    pub(super) at: SimTime,
    /// 0 for a new request, k for its k-th retry.
    pub(super) retry: u32,
    pub(super) node: u32,
}

/// The most recent decision, kept cheaply; the full [`Decision`](crate::sim::decision::Decision)
/// is built when asked for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Last {
    pub(super) at: SimTime,
    pub(super) node: usize,
    pub(super) verdict: Verdict,
    /// A local decision whose Retry-After was skipped (no client retries): it can be computed
    /// later from the node's limiter, which nothing has changed since.
    pub(super) lazy: bool,
}

/// An event of a request's life, at the time the engine's queue holds it for.
#[derive(Debug)]
pub(super) enum Ev {
    Retry(Attempt),
    Get(Attempt),
    GetReply(Attempt, Box<Snapshot>),
    Set(Attempt, Box<AnyLimiter>, u64, Verdict),
    SetAck(Attempt, Verdict),
    Script(Attempt),
    ScriptReply(Attempt, Verdict),
    Increment {
        node: usize,
        seq: u64,
        at: SimTime,
    },
    IncrementReply {
        node: usize,
        seq: u64,
        state: Box<AnyLimiter>,
    },
    Timeout(Attempt),
    /// One of Kong's (store = sync).
    Kong(KongEv),
    /// An admitted request the limiter holds until now (nginx without `nodelay`).
    Delayed(Attempt, Verdict),
    /// A worker of the server behind the limiter finished this request.
    Served(crate::sim::server::Job),
    /// The client of this admitted attempt stops waiting for the server's answer (`true`: while
    /// the limiter still holds it in its queue).
    GaveUp(Attempt, bool),
    /// A spike's next request arrives (`spike=START-END`).
    Spike,
}

/// An event of Kong's `policy: redis` (store = sync): one variant of [`Ev`] for all of them, so
/// a module without the shared store has one arm for them, not five.
#[derive(Debug)]
pub(super) enum KongEv {
    /// Kong's usage script (`INCR`) for the request's window.
    Incr(Attempt, u64),
    /// Its reply: the window and the count before the increment.
    Reply(Attempt, u64, i64),
    /// A node's sync timer.
    SyncTimer(usize),
    /// A node's sync reaching Redis: its deltas by window.
    Flush(usize, Box<[(u64, i64)]>),
    /// A node's sync ended: it forgets its counts.
    Synced(usize),
}
