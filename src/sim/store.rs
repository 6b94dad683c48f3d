//! The shared store: one copy of the limiter state, read and written by operations that take
//! time to get there and back.
//!
//! Three kinds of access, as real deployments use them:
//! - `GET` then `SET` of the whole state (store = race): separate operations, so two nodes can
//!   read the same value and the second write silently overwrites the first (a lost update);
//! - one scripted read-modify-write executed at the store (store = atomic: a Redis Lua script);
//! - a blind increment whose reply carries the store's current state (store = async).

use super::decision::Verdict;
use super::limiter::{AnyLimiter, Limiter};
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

    /// `GET`: a copy of the state.
    pub fn get(&self) -> Snapshot {
        Snapshot { state: self.state.clone(), version: self.version }
    }

    /// `SET`: replaces the state; returns whether this overwrote a write the setter never read.
    pub fn set(&mut self, state: AnyLimiter, read_version: u64) -> bool {
        let lost_update = self.version != read_version;
        self.state = state;
        self.version += 1;
        lost_update
    }

    /// The atomic script: decide and record in one step, for a request timestamped `at` by its node.
    pub fn script(&mut self, at: SimTime) -> Verdict {
        let d = self.state.check(at);
        self.version += 1;
        d
    }

    /// An increment from a node that already admitted at `at`; returns the resulting state.
    pub fn increment(&mut self, at: SimTime) -> AnyLimiter {
        self.state.consume(at);
        self.version += 1;
        self.state.clone()
    }

    /// The current state, for charts.
    pub fn state(&self) -> &AnyLimiter {
        &self.state
    }
}
