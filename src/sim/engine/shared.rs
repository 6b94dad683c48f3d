//! The shared-store modes (race, atomic, async): a request whose node asks the store, and the
//! store's side of it — GET then SET, the script, the edge's increment and its reply, and the
//! timeout when the store does not answer.
//!
//! Natively this is always here. In the browser a module has it only once its entry has called
//! [`install`], as with the product models ([`crate::sim::products::models`]): neither first
//! module (the page's one server, a frame's) runs several nodes — each hands a multi-node link or
//! switch over to the whole page, which installs it — so their wasm carries none of this code.

use super::events::{Attempt, Ev};
use super::Simulation;
use crate::sim::decision::Verdict;
use crate::sim::limiter::Limiter;
use crate::sim::metrics::EventKind;
use crate::sim::replica::Replica;
use crate::sim::scenario::{FailMode, StoreMode};
use crate::sim::store::Snapshot;
use crate::sim::store_keys::{clock_offset, NOW};
use crate::sim::time::SimTime;

/// Makes the shared-store modes available to this module's engine. Idempotent.
pub fn install() {
    #[cfg(target_arch = "wasm32")]
    let _ = INSTALLED.set((arrive_shared, handle_shared));
}

#[cfg(target_arch = "wasm32")]
type Ops = (fn(&mut Simulation, Attempt, SimTime), fn(&mut Simulation, SimTime, Ev));

#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::OnceLock<Ops> = std::sync::OnceLock::new();

/// A request `a` arriving at `at` at a node whose state is in the store. In a module without
/// the shared store (a first module, for the moment between a switch to the multi-node view and
/// the whole page taking over) the request is counted as arriving and nothing more.
pub(super) fn arrive(sim: &mut Simulation, a: Attempt, at: SimTime) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(arrive, _)) = INSTALLED.get() {
        arrive(sim, a, at);
    }
    #[cfg(not(target_arch = "wasm32"))]
    arrive_shared(sim, a, at)
}

/// An event of the shared store's at `now` (none without the shared store: see [`arrive`]).
pub(super) fn handle(sim: &mut Simulation, now: SimTime, ev: Ev) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(_, handle)) = INSTALLED.get() {
        handle(sim, now, ev);
    }
    #[cfg(not(target_arch = "wasm32"))]
    handle_shared(sim, now, ev)
}

/// The store's replica, if the run has one.
fn replica(extra: &mut Option<Box<dyn std::any::Any>>) -> Option<&mut Replica> {
    extra.as_deref_mut()?.downcast_mut()
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
        // The first request: the store gets its replica, if the scenario has one.
        sim.extra = Replica::of(&sim.sc).map(|r| Box::new(r) as Box<dyn std::any::Any>);
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
            let t = stamp(sim, a.node, a.at, now);
            let d = sim.store.script(now, t, sim.sc.count_rejected, replica(&mut sim.extra));
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Script { allowed: d.allowed });
            sim.push(now + sim.down, Ev::ScriptReply(a, d));
        }
        Ev::ScriptReply(a, d) | Ev::SetAck(a, d) => sim.decided(a, d, now, false),
        Ev::Get(a) => {
            let snap = if sim.sc.store == StoreMode::ReplicaRead {
                sim.store.read_replica(now, replica(&mut sim.extra)).0
            } else {
                sim.store.get(now, replica(&mut sim.extra))
            };
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
            let lost_update = sim.store.set(now, *state, version, replica(&mut sim.extra));
            sim.metrics.totals.lost_updates += u64::from(lost_update);
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Set { lost_update });
            sim.push(now + sim.down, Ev::SetAck(a, d));
        }
        Ev::Increment { node, seq, at } => {
            let at = if store_clock(sim) { now } else { at };
            let state = sim.store.increment(now, at, replica(&mut sim.extra));
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
