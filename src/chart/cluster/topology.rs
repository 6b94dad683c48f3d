//! The cluster's topology at one instant: requests on their way from the clients through the load
//! balancer to a node, store operations in flight between the nodes and the store (with their real
//! timing), answers on their way back, and how much quota each holder of state has left. Plain
//! data built from [`Traces`]; [`super::topology_draw`] draws it.
//!
//! The trip from the clients to a node takes no simulated time (the engine's load balancer adds no
//! delay), so the picture gives it a visual duration `tau`: a request is drawn travelling during
//! the `tau` before it arrives, and its answer during the `tau` after it. The page therefore shows
//! the cluster `tau` behind the engine while playing, and exactly at the engine's time when paused.

use super::trace::{Link, Traces};
use crate::sim::{Nanos, SimTime, StoreMode};

/// What a dot on a node ↔ store link is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DotKind {
    /// A GET, SET or script, or its reply.
    Op,
    /// An increment (store = async), or its reply.
    Increment,
    /// An operation travelling to a store that is down: no reply will come.
    Unanswered,
}

/// A dot on the link between `node` and the store: `at` is 0 at the node and 1 at the store.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OpDot {
    /// The node.
    pub node: u8,
    /// Position along the link.
    pub at: f64,
    /// What it is.
    pub kind: DotKind,
}

/// The picture at one instant.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Topology {
    /// Nodes behind the load balancer.
    pub nodes: usize,
    /// Where the limiter state lives.
    pub mode: StoreMode,
    /// Whether the store is down at this instant.
    pub store_down: bool,
    /// Requests on their way in: the node, and the position from the clients (0) to it (1).
    pub inbound: Vec<(u8, f64)>,
    /// Answers on their way out: the node, the position from it (0) to the clients (1), admitted.
    pub outbound: Vec<(u8, f64, bool)>,
    /// Store operations in flight.
    pub ops: Vec<OpDot>,
    /// Each node's quota left (0–1), where the nodes hold state (store = local or async).
    pub node_quota: Vec<f64>,
    /// The store's quota left (0–1), where there is a store.
    pub store_quota: Option<f64>,
    /// With sharded counters (`shards`), each key's quota left (0–1), drawn side by side in
    /// place of the store's.
    pub key_quota: Vec<f64>,
    /// A lost update just happened at the store: 1 at once, fading to 0.
    pub lost_flash: f64,
}

/// Position of `t` within `[start, start + len)`, if it is in there.
fn within(t: SimTime, start: SimTime, len: Nanos) -> Option<f64> {
    let (t, s, l) = (t.as_nanos(), start.as_nanos(), len.as_nanos());
    (l > 0 && t >= s && t - s < l).then(|| (t - s) as f64 / l as f64)
}

impl Topology {
    /// The cluster of `nodes` in `mode` at instant `t`, from `traces`, drawing the trip to a node
    /// over `tau` (see the module docs). Quotas are left empty for the caller to fill in.
    pub fn at(traces: &Traces, t: SimTime, tau: Nanos, link: &Link, mode: StoreMode, nodes: usize) -> Self {
        let mut topo = Topology { nodes, mode, store_down: link.down_at(t), ..Topology::default() };
        let tau_ns = tau.as_nanos().max(1);
        let (up, down) = (link.up, link.down);
        let mut push = |node: u8, start: SimTime, len: Nanos, towards_store: bool, kind: DotKind| {
            if let Some(f) = within(t, start, len) {
                topo.ops.push(OpDot { node, at: if towards_store { f } else { 1.0 - f }, kind });
            }
        };
        let mut last_lost = None;
        for r in &traces.requests {
            if let Some(ta) = r.arrived {
                let ahead = ta.as_nanos().saturating_sub(t.as_nanos());
                if ta >= t && ahead <= tau_ns {
                    topo.inbound.push((r.node, 1.0 - ahead as f64 / tau_ns as f64));
                }
                if ta <= t && matches!(mode, StoreMode::Race | StoreMode::Atomic | StoreMode::ReplicaRead) {
                    let lost = r.first.is_none() && link.down_at(ta + up);
                    push(r.node, ta, up, true, if lost { DotKind::Unanswered } else { DotKind::Op });
                }
            }
            if let Some((tg, _)) = r.first {
                push(r.node, tg, down, false, DotKind::Op);
                match r.set {
                    Some((ts, lost_update)) => {
                        push(r.node, SimTime(ts.as_nanos().saturating_sub(up.as_nanos())), up, true, DotKind::Op);
                        push(r.node, ts, down, false, DotKind::Op);
                        if lost_update && ts <= t {
                            last_lost = last_lost.max(Some(ts));
                        }
                    }
                    None if r.timed_out.is_some() => push(r.node, tg + down, up, true, DotKind::Unanswered),
                    None => {}
                }
            }
            if let Some((td, allowed)) = r.decided {
                if td <= t && t.as_nanos() - td.as_nanos() < tau_ns {
                    topo.outbound.push((r.node, (t.as_nanos() - td.as_nanos()) as f64 / tau_ns as f64, allowed));
                }
            }
        }
        for &(ti, node) in &traces.increments {
            push(node, SimTime(ti.as_nanos().saturating_sub(up.as_nanos())), up, true, DotKind::Increment);
            // Only the edge design's increments are answered (with the store's state).
            if mode != StoreMode::ReplicaRead {
                push(node, ti, down, false, DotKind::Increment);
            }
        }
        if let Some(ts) = last_lost {
            let age = (t.as_nanos() - ts.as_nanos()) as f64 / (tau_ns as f64 / 2.0);
            topo.lost_flash = (1.0 - age).max(0.0);
        }
        topo
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Scenario, Simulation};

    fn picture(q: &str, at_ms: u64, tau_ms: u64) -> Topology {
        let sc = Scenario::from_query(q).unwrap();
        let mut sim = Simulation::new(&sc);
        sim.step_until(SimTime::from_nanos((at_ms + tau_ms) * 1_000_000));
        let traces = Traces::from_events(sim.metrics().events());
        let t = SimTime::from_nanos(at_ms * 1_000_000);
        Topology::at(&traces, t, Nanos::from_millis(tau_ms), &Link::of(&sc), sc.store, sc.nodes as usize)
    }

    #[test]
    fn a_get_in_flight_is_on_its_way_to_the_store_and_the_next_request_on_its_way_in() {
        // One request per second, 100 ms round trip: at 20 ms the first GET is 40 % of the way up.
        let topo = picture("nodes=2&store=race&rtt=100&rate=1", 20, 1000);
        assert_eq!(topo.ops, vec![OpDot { node: 0, at: 0.4, kind: DotKind::Op }]);
        assert_eq!(topo.inbound.len(), 1);
        let (node, f) = topo.inbound[0];
        assert!(node == 1 && (f - 0.02).abs() < 1e-12, "the request arriving at 1 s has just left the clients");
        assert!(topo.outbound.is_empty(), "nothing answered yet");
    }

    #[test]
    fn an_operation_sent_into_an_outage_is_drawn_unanswered() {
        let topo = picture("nodes=2&store=atomic&rtt=100&rate=1&outage=0-10", 20, 10);
        assert_eq!(topo.ops.len(), 1);
        assert_eq!(topo.ops[0].kind, DotKind::Unanswered);
        assert!(topo.store_down);
    }

    #[test]
    fn local_decisions_go_straight_back_to_the_clients() {
        let topo = picture("nodes=3&rate=10", 150, 100);
        assert!(topo.ops.is_empty());
        assert_eq!(topo.outbound.len(), 1, "{:?}", topo.outbound);
        assert!(topo.outbound[0].2, "admitted");
    }
}
