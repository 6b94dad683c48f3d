//! The shared store: one copy of the limiter state, read and written by operations that take
//! time to get there and back.
//!
//! Three kinds of access, as real deployments use them:
//! - `GET` then `SET` of the whole state (store = race): separate operations, so two nodes can
//!   read the same value and the second write silently overwrites the first (a lost update);
//! - one scripted read-modify-write executed at the store (store = atomic: a Redis Lua script);
//! - a blind increment whose reply carries the store's current state (store = async);
//! - a read from the store's replica, then an increment at the primary (store = replica_read).
//!
//! A store may have a replica ([`Replica`]), which a failover promotes: every operation tells
//! the store when it reaches it, so the replica knows what it has received.

use super::decision::Verdict;
use super::limiter::{AnyLimiter, Limiter};
use super::replica::Replica;
use super::time::SimTime;
use std::any::Any;

/// The store and its single copy of the state.
#[derive(Debug)]
pub struct Store {
    state: AnyLimiter,
    /// Writes so far: a `SET` made from a read of an older version overwrites someone's update.
    version: u64,
    /// Its replica, if the scenario has one (`failover`, `store=replica_read`): a [`Replica`]
    /// behind `Any`, so that a module without the shared store carries none of its code (not
    /// even the code that drops it).
    replica: Option<Box<dyn Any>>,
}

/// What a `GET` returns: the state and the version it was read at.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The state as read.
    pub state: AnyLimiter,
    /// The store's write counter at the read.
    pub version: u64,
}

impl Store {
    /// A store holding `state`.
    pub fn new(state: AnyLimiter) -> Self {
        Store { state, version: 0, replica: None }
    }

    /// Gives the store `replica`.
    pub fn replicate(&mut self, replica: Replica) {
        self.replica = Some(Box::new(replica));
    }

    /// Its replica, if it has one.
    pub fn replica(&self) -> Option<&Replica> {
        self.replica.as_deref()?.downcast_ref()
    }

    fn replica_mut(&mut self) -> Option<&mut Replica> {
        self.replica.as_deref_mut()?.downcast_mut()
    }

    /// An operation reaches the store at `now`: a failover due by then happens first.
    fn reach(&mut self, now: SimTime) {
        let version = self.version;
        if let Some(r) = self.replica_mut().filter(|r| r.failover_due(now)) {
            if let Some((state, version)) = r.promote(version) {
                (self.state, self.version) = (state, version);
            }
        }
    }

    /// Makes a write at `now` with `op`, telling the replica (see [`Replica::wrote`]); `op`
    /// returns whether the write counted an admitted request.
    fn write<T>(
        &mut self,
        now: SimTime,
        consumes: Option<SimTime>,
        op: impl FnOnce(&mut AnyLimiter) -> (T, bool),
    ) -> T {
        self.reach(now);
        let (state, version) = (&self.state, self.version);
        if let Some(r) = self.replica.as_deref_mut().and_then(|r| r.downcast_mut::<Replica>()) {
            r.before_write(now, state, version);
        }
        let (out, admitted) = op(&mut self.state);
        if let Some(r) = self.replica_mut() {
            r.wrote(now, consumes, admitted);
        }
        self.version += 1;
        out
    }

    /// `GET` at `now`: a copy of the state.
    pub fn get(&mut self, now: SimTime) -> Snapshot {
        self.reach(now);
        Snapshot { state: self.state.clone(), version: self.version }
    }

    /// A read of the replica at `now` (of the primary once none is left to read from), and
    /// whether it missed a write the primary has made.
    pub fn read_replica(&mut self, now: SimTime) -> (Snapshot, bool) {
        self.reach(now);
        match self.replica_mut().and_then(|r| r.read(now)) {
            Some((state, stale)) => (Snapshot { state, version: self.version }, stale),
            None => (self.get(now), false),
        }
    }

    /// `SET` at `now`: replaces the state; returns whether this overwrote a write the setter
    /// never read. `admitted`: the new state counts one more admitted request.
    pub fn set(&mut self, now: SimTime, state: AnyLimiter, read_version: u64, admitted: bool) -> bool {
        self.reach(now);
        let lost_update = self.version != read_version;
        self.write(now, None, |s| {
            *s = state;
            ((), admitted)
        });
        lost_update
    }

    /// The atomic script at `now`: decide and record in one step, for a request timestamped `at`
    /// by its node.
    pub fn script(&mut self, now: SimTime, at: SimTime) -> Verdict {
        self.write(now, None, |s| {
            let d = s.check(at);
            (d, d.allowed)
        })
    }

    /// An increment at `now` from a node that already admitted at `at`; returns the resulting
    /// state.
    pub fn increment(&mut self, now: SimTime, at: SimTime) -> AnyLimiter {
        self.write(now, Some(at), |s| {
            s.consume(at);
            (s.clone(), true)
        })
    }

    /// The current state, for charts.
    pub fn state(&self) -> &AnyLimiter {
        &self.state
    }
}
