//! The messages between the runner's threads: the [`Attempt`]s the dispatcher hands the nodes,
//! what a node's inbox receives ([`Msg`]: arrivals, replies from its links, the failover), and
//! what nodes [`Report`] back.

use super::resp::Reply;
use crate::sim::Verdict;

/// One attempt of a request, as the dispatcher hands it to a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Attempt {
    /// Unique per attempt.
    pub id: u64,
    /// Arrival at the node, scenario ns (the node's clock as the request came in).
    pub at: u64,
    /// 0 for a new request, k for its k-th retry.
    pub retry: u32,
    /// The node the load balancer picked.
    pub node: u32,
}

/// What a node thread is told.
pub enum Msg {
    /// A request arrives.
    Arrive(Attempt),
    /// The next reply on the node's link to the primary ([`PRIMARY`]) or the replica.
    Reply(usize, Reply),
    /// The replica has been promoted: write there from now on.
    Failover,
    /// The connection ended.
    Closed(String),
    /// The run is over: close the connection and return.
    Stop,
}

/// What a node reports to the dispatcher.
pub enum Report {
    /// A request was answered.
    Decided {
        /// The attempt.
        a: Attempt,
        /// When, scenario ns.
        at: u64,
        /// The answer.
        verdict: Verdict,
        /// Decided by the fail mode because the store did not answer within `timeout`.
        timed_out: bool,
    },
    /// A SET overwrote a write its GET had not seen.
    LostUpdate,
    /// A read of the replica missed a write the primary had acknowledged before it was sent.
    StaleRead,
    /// The run cannot go on.
    Failed(String),
}
