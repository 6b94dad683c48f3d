//! The shared-store modes (race, atomic, async): a request whose node asks the store, and the
//! store's side of it — GET then SET, the script, the edge's increment and its reply, and the
//! timeout when the store does not answer.
//!
//! The engine reaches this code only through [`OPS`], which [`Capabilities::with_shared_store`]
//! hands in: a module whose capabilities leave it out (neither first module runs several nodes)
//! links none of it, and refuses a scenario with a shared store instead of running it.
//!
//! [`Capabilities::with_shared_store`]: crate::sim::engine::capabilities::Capabilities::with_shared_store

use super::events::{Attempt, Ev};
use super::Simulation;
use crate::sim::decision::Verdict;
use crate::sim::limiter::Limiter;
use crate::sim::metrics::EventKind;
use crate::sim::replica::Replica;
use crate::sim::scenario::{FailMode, StoreMode};
use crate::sim::shards::{key_of, Shards};
use crate::sim::store::{Snapshot, Store};
use crate::sim::store_keys::{clock_offset, NOW};
use crate::sim::time::SimTime;

/// The shared store's operations: what [`Capabilities::with_shared_store`] gives an engine.
///
/// [`Capabilities::with_shared_store`]: crate::sim::engine::capabilities::Capabilities::with_shared_store
pub struct Ops {
    arrive: fn(&mut Simulation, Attempt, SimTime),
    handle: fn(&mut Simulation, SimTime, Ev),
}

/// The shared store's operations.
pub static OPS: Ops = Ops { arrive: arrive_shared, handle: handle_shared };

/// The shared store's operations of `sim`, which [`Capabilities::check`] made sure it has
/// before a scenario with a shared store could run.
///
/// [`Capabilities::check`]: crate::sim::engine::capabilities::Capabilities::check
fn ops(sim: &Simulation) -> &'static Ops {
    sim.caps.shared().expect("a scenario with a shared store runs only where the capabilities have it")
}

/// A request `a` arriving at `at` at a node whose state is in the store.
pub(super) fn arrive(sim: &mut Simulation, a: Attempt, at: SimTime) {
    (ops(sim).arrive)(sim, a, at)
}

/// An event of the shared store's at `now`.
pub(super) fn handle(sim: &mut Simulation, now: SimTime, ev: Ev) {
    (ops(sim).handle)(sim, now, ev)
}

/// What the shared store has beside its one copy of the state, if anything: a replica
/// (`failover`, `store=replica_read`), more keys (`shards`). Kept in the simulation's `extra`.
pub struct StoreSide {
    /// The replica and what its lag cost.
    pub replica: Option<Replica>,
    /// The limiter's other keys and what each served.
    pub shards: Option<Shards>,
}

/// The store an operation for request `id` reaches — its key's, with sharded counters — and the
/// replica, if the run has one; counts the operation on the key.
fn at_key(sim: &mut Simulation, id: u64) -> (&mut Store, Option<&mut Replica>) {
    match sim.extra.as_deref_mut().and_then(|e| e.downcast_mut::<StoreSide>()) {
        Some(StoreSide { replica, shards: Some(s) }) => {
            let k = key_of(id, s.ops.len());
            s.ops[k] += 1;
            (if k == 0 { &mut sim.store } else { &mut s.stores[k - 1] }, replica.as_mut())
        }
        Some(StoreSide { replica, shards: None }) => (&mut sim.store, replica.as_mut()),
        None => (&mut sim.store, None),
    }
}

/// With sharded counters, counts request `id`'s admission on its key.
fn admitted_on_key(sim: &mut Simulation, id: u64) {
    if let Some(s) =
        sim.extra.as_deref_mut().and_then(|e| e.downcast_mut::<StoreSide>()).and_then(|e| e.shards.as_mut())
    {
        let k = key_of(id, s.ops.len());
        s.admitted[k] += 1;
    }
}

/// What node `node`'s clock reads at `t` (`skew`).
fn node_clock(sim: &Simulation, node: usize, t: SimTime) -> SimTime {
    SimTime(t.as_nanos().saturating_add_signed(clock_offset(&sim.sc.product, node, sim.nodes.len())))
}

/// Whether the store's clock stamps what it applies (`now=server`), not the node's.
fn store_clock(sim: &Simulation) -> bool {
    sim.sc.product.get(&NOW) == 1
}

/// The time a request sent at `at` by `node` is decided at: the node's clock, or with
/// `now=server` the store's (`at_store`: when the store served it).
fn stamp(sim: &Simulation, node: u32, at: SimTime, at_store: SimTime) -> SimTime {
    if store_clock(sim) {
        at_store
    } else {
        node_clock(sim, node as usize, at)
    }
}

fn arrive_shared(sim: &mut Simulation, a: Attempt, at: SimTime) {
    let node = a.node as usize;
    if a.id == 0 && sim.sc.store != StoreMode::Sync {
        // The first request: the store gets its replica and its other keys, if the scenario
        // has them (the first key then holds its share of the limit only).
        let replica = Replica::of(&sim.sc);
        let shards = Shards::of(&sim.sc).map(|(shards, first)| {
            sim.store = Store::new(first);
            shards
        });
        sim.extra = (replica.is_some() || shards.is_some())
            .then(|| Box::new(StoreSide { replica, shards }) as Box<dyn std::any::Any>);
    }
    match sim.sc.store {
        StoreMode::Atomic | StoreMode::Race | StoreMode::ReplicaRead => {
            // A replica answers while its primary is down (`outage`): only the increments sent
            // to the primary are lost.
            let reads = sim.sc.store == StoreMode::ReplicaRead;
            if if reads { sim.sc.rtt <= sim.sc.timeout } else { sim.answered(at) } {
                let ev = if sim.sc.store == StoreMode::Atomic { Ev::Script(a) } else { Ev::Get(a) };
                sim.push(at + sim.up, ev);
            } else {
                sim.push(at + sim.sc.timeout, Ev::Timeout(a));
            }
        }
        StoreMode::Async => {
            // The node's own view runs on its own clock.
            let t = node_clock(sim, node, at);
            let v = sim.nodes[node].limiter.check(t);
            if v.allowed || sim.sc.count_rejected {
                let seq = sim.nodes[node].sent_increment(t);
                if !sim.lost(at) {
                    sim.push(at + sim.up, Ev::Increment { node, seq, at: t });
                }
            }
            sim.decided(a, v, at, true);
        }
        StoreMode::Sync => super::kong_sync::arrive(sim, a, at),
        StoreMode::Local => unreachable!("a local node decides alone"),
    }
}

fn handle_shared(sim: &mut Simulation, now: SimTime, ev: Ev) {
    match ev {
        Ev::Script(a) => {
            let (t, count_rejected) = (stamp(sim, a.node, a.at, now), sim.sc.count_rejected);
            let (store, replica) = at_key(sim, a.id);
            let d = store.script(now, t, count_rejected, replica);
            if d.allowed {
                admitted_on_key(sim, a.id);
            }
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Script { allowed: d.allowed });
            sim.push(now + sim.down, Ev::ScriptReply(a, d));
        }
        Ev::ScriptReply(a, d) | Ev::SetAck(a, d) => sim.decided(a, d, now, false),
        Ev::Get(a) => {
            let reads = sim.sc.store == StoreMode::ReplicaRead;
            let (store, replica) = at_key(sim, a.id);
            let snap = if reads { store.read_replica(now, replica).0 } else { store.get(now, replica) };
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Get { version: snap.version });
            sim.push(now + sim.down, Ev::GetReply(a, Box::new(snap)));
        }
        Ev::GetReply(a, snap) => {
            let Snapshot { mut state, version } = *snap;
            // The racy code: decide on the node from what was read, with the request's time (or
            // the store's `TIME`, read with the state).
            let t = stamp(sim, a.node, a.at, SimTime(now.as_nanos() - sim.down.as_nanos()));
            let d = state.check(t);
            if !(d.allowed || sim.sc.count_rejected) {
                sim.decided(a, d, now, false);
            } else if sim.sc.store == StoreMode::ReplicaRead {
                // Read from the replica: the node answers now and sends its increment to the
                // primary (which nothing answers that the node waits for).
                if !sim.lost(now) {
                    sim.push(now + sim.up, Ev::Increment { node: a.node as usize, seq: a.id, at: t });
                }
                sim.decided(a, d, now, false);
            } else if sim.answered(now) {
                sim.push(now + sim.up, Ev::Set(a, Box::new(state), version, d));
            } else {
                sim.push(now + sim.sc.timeout, Ev::Timeout(a));
            }
        }
        Ev::Set(a, state, version, d) => {
            let (store, replica) = at_key(sim, a.id);
            let lost_update = store.set(now, *state, version, replica);
            if d.allowed {
                admitted_on_key(sim, a.id);
            }
            sim.metrics.totals.lost_updates += u64::from(lost_update);
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Set { lost_update });
            sim.push(now + sim.down, Ev::SetAck(a, d));
        }
        Ev::Increment { node, seq, at } => {
            let at = if store_clock(sim) { now } else { at };
            // (Increments are never sharded: `seq` is no request's id.)
            let replica = sim.extra.as_deref_mut().and_then(|e| e.downcast_mut::<StoreSide>()?.replica.as_mut());
            let state = sim.store.increment(now, at, replica);
            sim.metrics.event(now, seq, node, EventKind::Increment);
            if sim.sc.store == StoreMode::Async {
                sim.push(now + sim.down, Ev::IncrementReply { node, seq, state: Box::new(state) });
            }
        }
        Ev::IncrementReply { node, seq, state } => sim.nodes[node].synced(seq, *state),
        Ev::Timeout(a) => {
            sim.metrics.totals.timeouts += 1;
            sim.metrics.event(now, a.id, a.node as usize, EventKind::TimedOut);
            let v = Verdict::new(sim.sc.fail == FailMode::Open, None);
            if v.allowed && sim.sc.store == StoreMode::Sync {
                super::kong_sync::failed_open(sim, a);
            }
            sim.decided(a, v, now, false);
        }
        Ev::Kong(ev) => super::kong_sync::handle(sim, now, ev),
        Ev::Retry(_) | Ev::Delayed(..) | Ev::Served(_) | Ev::GaveUp(..) | Ev::Spike => {
            unreachable!("a node's own events are handled by the engine")
        }
    }
}
