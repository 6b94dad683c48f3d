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
//! A store may have a replica ([`Replica`], kept by the engine's shared-store code, so a module
//! without it carries none of it), which a failover promotes: every operation says when it
//! reaches the store and passes the replica, so it knows what it has received.

use super::decision::Verdict;
use super::limiter::{AnyLimiter, Limiter};
use super::replica::Replica;
use super::time::SimTime;

/// The store and its single copy of the state.
#[derive(Clone, Debug)]
pub struct Store {
    state: AnyLimiter,
    /// Writes so far: a `SET` made from a read of an older version overwrites someone's update.
    version: u64,
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
        Store { state, version: 0 }
    }

    /// An operation reaches the store at `now`: a failover of its `replica` due by then happens
    /// first.
    fn reach(&mut self, now: SimTime, replica: &mut Option<&mut Replica>) {
        if let Some(r) = replica.as_deref_mut().filter(|r| r.failover_due(now)) {
            if let Some(state) = r.promote() {
                // A new version: a SET of a state read before the failover overwrites one it
                // never read.
                (self.state, self.version) = (state, self.version + 1);
            }
        }
    }

    /// Makes a write at `now` with `op`, telling the `replica` (see [`Replica::wrote`]); `op`
    /// returns whether the write counted a request.
    fn write<T>(
        &mut self,
        now: SimTime,
        mut replica: Option<&mut Replica>,
        consumes: Option<SimTime>,
        op: impl FnOnce(&mut AnyLimiter) -> (T, bool),
    ) -> T {
        self.reach(now, &mut replica);
        if let Some(r) = replica.as_deref_mut() {
            r.before_write(now, &self.state);
        }
        let (out, admitted) = op(&mut self.state);
        if let Some(r) = replica {
            r.wrote(now, consumes, admitted);
        }
        self.version += 1;
        out
    }

    /// `GET` at `now`: a copy of the state.
    pub fn get(&mut self, now: SimTime, mut replica: Option<&mut Replica>) -> Snapshot {
        self.reach(now, &mut replica);
        Snapshot { state: self.state.clone(), version: self.version }
    }

    /// A read of the `replica` at `now` (of the primary once none is left to read from), and
    /// whether it missed a write the primary has made.
    pub fn read_replica(&mut self, now: SimTime, mut replica: Option<&mut Replica>) -> (Snapshot, bool) {
        self.reach(now, &mut replica);
        match replica.and_then(|r| r.read(now)) {
            Some((state, stale)) => (Snapshot { state, version: self.version }, stale),
            None => (self.get(now, None), false),
        }
    }

    /// `SET` at `now`: replaces the state; returns whether this overwrote a write the setter
    /// never read. Every SET counts its request (an admitted one, or with `count_rejected` any).
    pub fn set(
        &mut self,
        now: SimTime,
        state: AnyLimiter,
        read_version: u64,
        mut replica: Option<&mut Replica>,
    ) -> bool {
        self.reach(now, &mut replica);
        let lost_update = self.version != read_version;
        self.write(now, replica, None, |s| {
            *s = state;
            ((), true)
        });
        lost_update
    }

    /// The atomic script at `now`: decide and record in one step, for a request timestamped `at`
    /// by its node; `count_rejected`: a refused request counts too.
    pub fn script(
        &mut self,
        now: SimTime,
        at: SimTime,
        count_rejected: bool,
        replica: Option<&mut Replica>,
    ) -> Verdict {
        self.write(now, replica, None, |s| {
            let d = s.check(at);
            (d, d.allowed || count_rejected)
        })
    }

    /// An increment at `now` from a node that already admitted at `at`; returns the resulting
    /// state.
    pub fn increment(&mut self, now: SimTime, at: SimTime, replica: Option<&mut Replica>) -> AnyLimiter {
        self.write(now, replica, Some(at), |s| {
            s.consume(at);
            (s.clone(), true)
        })
    }

    /// The current state, for charts.
    pub fn state(&self) -> &AnyLimiter {
        &self.state
    }
}
