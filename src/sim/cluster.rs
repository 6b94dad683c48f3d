//! The cluster: nodes behind a load balancer, each with its own limiter or a view of the store's.

use super::limiter::{AnyLimiter, Limiter};
use super::rng::SimRng;
use super::scenario::{Balancer, Scenario};
use super::time::SimTime;
use std::collections::VecDeque;

/// Increments a node keeps unacknowledged at most (store = async, during a long outage).
const MAX_PENDING: usize = 65_536;

/// One application server.
#[derive(Clone, Debug)]
pub struct Node {
    /// store = local: its own limiter. store = async: its view of the shared state.
    /// Unused in the other modes, where the state lives in the store.
    pub limiter: AnyLimiter,
    /// store = async: increments sent but not yet reflected in a reply, `(sequence, timestamp)`.
    pending: VecDeque<(u64, SimTime)>,
    next_seq: u64,
}

impl Node {
    /// A node with a fresh limiter.
    pub fn new(limiter: AnyLimiter) -> Self {
        Node { limiter, pending: VecDeque::new(), next_seq: 0 }
    }

    /// Remembers an increment sent to the store; returns its sequence number.
    pub fn sent_increment(&mut self, at: SimTime) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        if self.pending.len() == MAX_PENDING {
            self.pending.pop_front();
        }
        self.pending.push_back((seq, at));
        seq
    }

    /// When increment `seq`, still unacknowledged, was made.
    pub fn pending_at(&self, seq: u64) -> Option<SimTime> {
        self.pending.iter().find(|&&(s, _)| s == seq).map(|&(_, at)| at)
    }

    /// Adopts the store's state from the reply to increment `seq`, then re-applies the
    /// increments sent after it, which the store had not seen yet when it replied.
    pub fn synced(&mut self, seq: u64, state: AnyLimiter) {
        self.limiter = state;
        while self.pending.front().is_some_and(|&(s, _)| s <= seq) {
            self.pending.pop_front();
        }
        for &(_, at) in &self.pending {
            self.limiter.consume(at);
        }
    }
}

/// Picks the node for each request.
#[derive(Clone, Debug)]
pub struct LoadBalancer {
    policy: Balancer,
    nodes: usize,
    next: usize,
    rng: SimRng,
}

impl LoadBalancer {
    /// A balancer over `sc.nodes` nodes; `rng` is its own stream of the run's RNG.
    pub fn new(sc: &Scenario, rng: SimRng) -> Self {
        LoadBalancer { policy: sc.lb, nodes: sc.nodes.max(1) as usize, next: 0, rng }
    }

    /// The node for the next request.
    #[inline(always)]
    pub fn pick(&mut self) -> usize {
        match self.policy {
            Balancer::RoundRobin => {
                let n = self.next;
                self.next = if n + 1 == self.nodes { 0 } else { n + 1 };
                n
            }
            Balancer::Random => self.rng.below(self.nodes as u64) as usize,
        }
    }
}
