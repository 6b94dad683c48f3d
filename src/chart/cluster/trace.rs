//! The engine's recent events regrouped by request, for the cluster's topology and swimlane: when
//! each request arrived, when its store operations reached the store, whether it timed out, and
//! when it was answered. The ring is bounded, so the oldest requests may be only partly known.

use std::collections::HashMap;

use crate::sim::{Event, EventKind, Nanos, Outage, Scenario, SimTime};

/// The first store operation of a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstOp {
    /// A GET (store = race) that read the store at `version`.
    Get {
        /// The store's write counter at the read.
        version: u64,
    },
    /// The atomic script (store = atomic) and what it decided.
    Script {
        /// 200 or 429.
        allowed: bool,
    },
}

/// What the ring holds of one request (one attempt: a retry is a request of its own).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RequestTrace {
    /// The engine's id of the attempt.
    pub request: u64,
    /// The node it was sent to.
    pub node: u8,
    /// When it reached the node.
    pub arrived: Option<SimTime>,
    /// Its first store operation, when it reached the store.
    pub first: Option<(SimTime, FirstOp)>,
    /// Its SET (store = race), when it reached the store, and whether it was a lost update.
    pub set: Option<(SimTime, bool)>,
    /// When the node gave up waiting for the store.
    pub timed_out: Option<SimTime>,
    /// When it was answered, and whether it was admitted.
    pub decided: Option<(SimTime, bool)>,
}

/// The recent requests and the store-mode = async increments (which carry no request id).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Traces {
    /// Requests in the order their first event was recorded.
    pub requests: Vec<RequestTrace>,
    /// Increments as they reached the store: when, and from which node.
    pub increments: Vec<(SimTime, u8)>,
    /// When the oldest event held was recorded.
    pub oldest: Option<SimTime>,
}

impl Traces {
    /// Regroups `events` (oldest first).
    pub fn from_events<'a>(events: impl Iterator<Item = &'a Event>) -> Self {
        let mut out = Traces::default();
        let mut index: HashMap<u64, usize> = HashMap::with_capacity(256);
        for e in events {
            out.oldest.get_or_insert(e.at);
            if e.kind == EventKind::Increment {
                out.increments.push((e.at, e.node));
                continue;
            }
            let i = *index.entry(e.request).or_insert_with(|| {
                out.requests.push(RequestTrace {
                    request: e.request,
                    node: e.node,
                    arrived: None,
                    first: None,
                    set: None,
                    timed_out: None,
                    decided: None,
                });
                out.requests.len() - 1
            });
            let r = &mut out.requests[i];
            match e.kind {
                EventKind::Arrived { .. } => r.arrived = Some(e.at),
                EventKind::Get { version } => r.first = Some((e.at, FirstOp::Get { version })),
                EventKind::Script { allowed } => r.first = Some((e.at, FirstOp::Script { allowed })),
                EventKind::Set { lost_update } => r.set = Some((e.at, lost_update)),
                EventKind::TimedOut => r.timed_out = Some(e.at),
                EventKind::Decided { allowed, .. } => r.decided = Some((e.at, allowed)),
                EventKind::Increment => {}
            }
        }
        out
    }
}

/// The timing of the node ↔ store link: the engine's split of the round trip, and the outage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Node to store.
    pub up: Nanos,
    /// Store back to node.
    pub down: Nanos,
    /// How long a node waits for an answer.
    pub timeout: Nanos,
    /// When the store is down.
    pub outage: Option<Outage>,
    /// When the store's replica is promoted, and how far behind it is: a write that reaches the
    /// primary in the lag before is lost (`failover`).
    pub failover: Option<(SimTime, Nanos)>,
}

impl Link {
    /// The link of `sc`, split as the engine splits it (`up` = ⌊rtt / 2⌋).
    pub fn of(sc: &Scenario) -> Self {
        let up = Nanos(sc.rtt.as_nanos() / 2);
        let failover = crate::sim::replica::Replica::of(sc)
            .and_then(|_| crate::sim::store_keys::failover(&sc.product))
            .map(|t| (t, Nanos(sc.product.get(&crate::sim::store_keys::REPLICA_LAG) * 1_000)));
        Link { up, down: Nanos(sc.rtt.as_nanos() - up.as_nanos()), timeout: sc.timeout, outage: sc.outage, failover }
    }

    /// Whether an operation reaching the store at `t` finds it down.
    pub fn down_at(&self, t: SimTime) -> bool {
        self.outage.is_some_and(|o| o.start <= t && t < o.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Simulation;

    #[test]
    fn a_racing_request_is_regrouped_with_its_get_set_and_answer() {
        let sc = Scenario::from_query("nodes=2&store=race&rtt=10&rate=1").unwrap();
        let mut sim = Simulation::new(&sc);
        sim.step_until(SimTime::from_nanos(50_000_000));
        let t = Traces::from_events(sim.metrics().events());
        let r = t.requests[0];
        assert_eq!(r.arrived, Some(SimTime::ZERO));
        assert_eq!(r.first, Some((SimTime::from_nanos(5_000_000), FirstOp::Get { version: 0 })));
        assert_eq!(r.set, Some((SimTime::from_nanos(15_000_000), false)));
        assert_eq!(r.decided, Some((SimTime::from_nanos(20_000_000), true)));
        assert_eq!(Link::of(&sc).up, Nanos::from_millis(5));
    }
}
