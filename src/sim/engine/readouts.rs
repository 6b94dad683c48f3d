//! What a running [`Simulation`] says: the time reached, the scenario, the measurements, the
//! last answer and its headers, the deciding limiter's state, the busiest window, each node's
//! view, and what the store's replica, its shards and the server behind it did.

use super::{server, shared, Simulation};
use crate::sim::decision::{Decision, Quota, Verdict};
use crate::sim::limiter::{AnyLimiter, Gauge, Limiter};
use crate::sim::metrics::Metrics;
use crate::sim::scenario::{Scenario, StoreMode};
use crate::sim::time::SimTime;

impl Simulation {
    /// Simulated time reached.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.sc
    }

    /// Everything measured so far.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The answer to the most recent request decided, with the `remaining` and `reset` of the
    /// limiter that decided, as of that moment.
    pub fn last_decision(&self) -> Option<Decision> {
        self.last.map(|l| {
            let status = self.authority(l.node).status(l.at);
            Decision {
                allowed: l.verdict.allowed,
                remaining: status.remaining,
                reset: status.reset,
                retry_after: match l.verdict {
                    Verdict { allowed: true, .. } => None,
                    Verdict { retry_after: None, .. } if l.lazy => Some(status.wait),
                    v => v.retry_after,
                },
            }
        })
    }

    /// The limiter state that decides, at the current time: the store's, or node 0's when
    /// nothing is shared.
    pub fn gauge(&self) -> Gauge {
        self.authority(0).gauge(self.now)
    }

    /// The quota the deciding limiter advertises (`RateLimit-Policy`).
    pub fn quota(&self) -> Quota {
        self.authority(0).quota()
    }

    /// The answer to the decision `d` on the wire: its status (200, or the limiter's status for
    /// a rejection) and the headers the limiter sends.
    ///
    /// ```
    /// use ratelimit_playground::sim::{Decision, Nanos, Scenario, Simulation};
    /// let no = Decision { allowed: false, remaining: 0, reset: Nanos::from_secs(1), retry_after: Some(Nanos::from_secs(1)) };
    /// let answer = |q| Simulation::new(&Scenario::from_query(q).unwrap()).response(&no);
    /// assert_eq!(answer("algo=nginx&nginx_status=503"), (503, vec![]));
    /// assert_eq!(answer("algo=envoy"), (429, vec![("x-envoy-ratelimited", "true".to_string())]));
    /// assert_eq!(answer("algo=token_bucket").1.len(), 3);
    /// ```
    pub fn response(&self, d: &Decision) -> (u16, Vec<(&'static str, String)>) {
        let limiter = self.authority(0);
        (if d.allowed { 200 } else { limiter.reject_status() }, limiter.headers(d))
    }

    /// The most requests admitted in any interval of one window's length so far, and when that
    /// interval ended: `2 × limit` for a fixed window at the seam.
    pub fn peak_in_window(&self) -> (u64, SimTime) {
        (self.peak.peak(), self.peak.peak_at())
    }

    /// That interval cut at the window boundary inside it: what each of the two fixed windows
    /// it spans admitted of it (see [`crate::sim::peak::Seam`]).
    pub fn peak_seam(&self) -> crate::sim::peak::Seam {
        self.peak.seam()
    }

    /// Each node's own limiter (store = local) or view (store = async; store = sync: its own
    /// count) at the current time.
    pub fn node_gauges(&self) -> Vec<Gauge> {
        self.nodes.iter().map(|n| n.limiter.gauge(self.now)).collect()
    }

    /// What the scenario puts behind and around its limiter, if anything: its server, its
    /// clients' retry gate.
    pub fn behind(&self) -> Option<&server::Behind> {
        self.server.as_deref()?.downcast_ref::<server::Behind>()
    }

    /// The shared store's replica and what its lag cost so far, if the scenario has one
    /// (`failover`, `store=replica_read`).
    pub fn replica(&self) -> Option<&crate::sim::replica::Replica> {
        self.extra.as_deref()?.downcast_ref::<shared::StoreSide>()?.replica.as_ref()
    }

    /// The sharded limiter's keys beyond the first and what each served, if the scenario
    /// shards it (`shards`).
    pub fn shards(&self) -> Option<&crate::sim::shards::Shards> {
        self.extra.as_deref()?.downcast_ref::<shared::StoreSide>()?.shards.as_ref()
    }

    /// What the server behind the limiter did so far, if the run has one.
    pub fn server_stats(&self) -> Option<&crate::sim::server::ServerStats> {
        self.behind()?.backend.as_ref().map(crate::sim::server::Backend::stats)
    }

    /// Events processed so far: arrivals, retries, store operations and replies.
    pub fn events_processed(&self) -> u64 {
        self.events
    }

    /// Arrivals produced so far by the traffic source (not counting retries).
    pub fn arrivals_produced(&self) -> u64 {
        self.arrivals.produced()
    }

    /// The limiter that decides for `node`: the store's state, or the node's own when nothing
    /// is shared.
    pub(super) fn authority(&self, node: usize) -> &AnyLimiter {
        match self.sc.store {
            StoreMode::Local => &self.nodes[node].limiter,
            _ => self.store.state(),
        }
    }
}
