//! The shared store's replica, as Redis replicates: asynchronously, `replica_lag` behind its
//! primary. It matters in two ways ([`crate::sim::store_keys`]):
//! - **a failover** (`failover=T`): at T the replica is promoted and every node moves to it.
//!   It has the writes the primary acknowledged up to T − lag; the ones after are gone, so the
//!   counters roll back and the limiter admits again what it had already counted.
//! - **reads from the replica** (`store=replica_read`): each node reads the state there, decides,
//!   and sends its increment to the primary; what the replica has not received yet is a count
//!   the node does not see (a stale read).
//!
//! A write made at the store at w reaches the replica at w + lag (inclusive). Exact and cheap:
//! for a failover alone the replica keeps nothing but the primary's state just before the first
//! write it will not get (one copy); for reads it keeps the increments on their way (their times:
//! 16 bytes each, the increments of the last `replica_lag`, which the keys bound to 10 s).

use super::limiter::{AnyLimiter, Limiter};
use super::scenario::{Scenario, StoreMode};
use super::store_keys::{failover, REPLICA_LAG};
use super::time::{Nanos, SimTime};
use std::collections::VecDeque;

/// The replica of the store and what its lag cost.
#[derive(Clone, Debug)]
pub struct Replica {
    lag: Nanos,
    /// When it is promoted, until it has been.
    failover: Option<SimTime>,
    /// The primary's state as the replica holds it at the failover, once a write it will not
    /// get has been made.
    frozen: Option<AnyLimiter>,
    /// Writes it will not get that counted a request, until the failover loses them.
    missing: u64,
    /// Nodes read from it: its own state, and the increments on their way to it (the times they
    /// were made at the store and the request times they consume at), oldest first.
    reads: Option<(AnyLimiter, VecDeque<(SimTime, SimTime)>)>,
    /// Counted requests (admitted ones; with `count_rejected`, refused ones too) whose write the
    /// promoted replica never got. With GET then SET, a state read before the failover and
    /// written after it can carry them back: over-admission is then smaller.
    pub lost_increments: u64,
    /// Reads that missed a write the primary had already made.
    pub stale_reads: u64,
}

impl Replica {
    /// A replica of `state` lagging `lag` behind, promoted at `failover` if one is set; `reads`:
    /// nodes read from it.
    pub fn new(state: &AnyLimiter, lag: Nanos, failover: Option<SimTime>, reads: bool) -> Self {
        Replica {
            lag,
            failover,
            frozen: None,
            missing: 0,
            reads: reads.then(|| (state.clone(), VecDeque::new())),
            lost_increments: 0,
            stale_reads: 0,
        }
    }

    /// The replica `sc`'s shared store has, if any: with a failover, or read from (`store =
    /// replica_read`); none with nodes on their own (`store = local`) or Kong's counters (`sync`).
    ///
    /// ```
    /// use ratelimit_playground::sim::{replica::Replica, Scenario};
    /// let sc = |q| Scenario::from_query(q).unwrap();
    /// assert!(Replica::of(&sc("store=atomic&failover=10")).is_some());
    /// assert!(Replica::of(&sc("store=replica_read")).is_some());
    /// assert!(Replica::of(&sc("store=atomic")).is_none());
    /// assert!(Replica::of(&sc("failover=10")).is_none()); // store = local: nothing shared
    /// ```
    pub fn of(sc: &Scenario) -> Option<Replica> {
        let failover = failover(&sc.product);
        let reads = sc.store == StoreMode::ReplicaRead;
        let shared = !matches!(sc.store, StoreMode::Local | StoreMode::Sync);
        (shared && (reads || failover.is_some())).then(|| {
            let lag = Nanos(sc.product.get(&REPLICA_LAG) * 1_000);
            Replica::new(&sc.limiter(), lag, failover, reads)
        })
    }

    /// Whether the failover is due at `now` (it happens before anything else at that instant).
    pub fn failover_due(&self, now: SimTime) -> bool {
        self.failover.is_some_and(|t| t <= now)
    }

    /// Whether a write made at `now` misses the failover: it reaches the replica after the
    /// promotion.
    fn misses_failover(&self, now: SimTime) -> bool {
        self.failover.is_some_and(|t| now + self.lag > t)
    }

    /// The primary, holding `primary`, is about to make a write at `now`: if the replica will
    /// not get it, the replica keeps the primary as it is (once).
    pub fn before_write(&mut self, now: SimTime, primary: &AnyLimiter) {
        if self.reads.is_none() && self.frozen.is_none() && self.misses_failover(now) {
            self.frozen = Some(primary.clone());
        }
    }

    /// The primary made a write at `now`: a consume at `consumes` (an increment of store =
    /// async or replica_read), or any other (`None`: a SET or a script, replicated as its
    /// effect). `counted`: the write counted a request.
    pub fn wrote(&mut self, now: SimTime, consumes: Option<SimTime>, counted: bool) {
        if let Some((_, on_way)) = &mut self.reads {
            // Nodes read it: it keeps what is on its way, and is caught up at the promotion.
            on_way.extend(consumes.map(|at| (now, at)));
        } else {
            self.missing += u64::from(counted && self.misses_failover(now));
        }
    }

    /// Applies to its own copy the increments that reached it by `now`.
    fn catch_up(&mut self, now: SimTime) {
        let lag = self.lag;
        if let Some((copy, on_way)) = &mut self.reads {
            while let Some(&(_, at)) = on_way.front().filter(|&&(made, _)| made + lag <= now) {
                copy.consume(at);
                on_way.pop_front();
            }
        }
    }

    /// A node reads the state at `now`: the replica's copy, and whether it is stale. `None` if
    /// nodes do not read from it.
    pub fn read(&mut self, now: SimTime) -> Option<(AnyLimiter, bool)> {
        self.catch_up(now);
        let (copy, on_way) = self.reads.as_ref()?;
        let stale = !on_way.is_empty();
        self.stale_reads += u64::from(stale);
        Some((copy.clone(), stale))
    }

    /// The promotion, due at the failover: the state the new primary holds, if the replica
    /// missed a write (else the primary's stands), and what was lost is counted. Afterwards
    /// there is no replica to read from: nodes read the new primary.
    pub fn promote(&mut self) -> Option<AnyLimiter> {
        let at = self.failover.take()?;
        self.catch_up(at);
        match self.reads.take() {
            // Every increment still on its way counted a request.
            Some((copy, on_way)) => {
                self.lost_increments += on_way.len() as u64;
                Some(copy)
            }
            None => {
                self.lost_increments += std::mem::take(&mut self.missing);
                self.frozen.take()
            }
        }
    }
}
