//! `store=sync`: Kong's `policy: redis` across nodes ([`crate::sim::products::kong::redis_policy`]
//! has the plugin's arithmetic). The events of it: a request's `INCR` and its reply, a node's
//! sync timer, the sync's `INCRBY` pipeline and its end.
//!
//! Part of the shared-store code ([`super::shared`]): only modules that run several nodes have it.
//! The engine draws and reads the store's and the nodes' limiters; here they are kept as
//! pictures of Redis's newest counter and of each node's own count ([`Kong::holding`]).

use super::events::{Attempt, Ev, KongEv};
use super::Simulation;
use crate::sim::decision::Verdict;
use crate::sim::limiter::AnyLimiter;
use crate::sim::metrics::EventKind;
use crate::sim::products::kong::redis_policy::{admits, retry_after_s, window_of, KongNode, KongRedis};
use crate::sim::products::kong::{Kong, KongLimit, SYNC_RATE};
use crate::sim::products::policy::Policy;
use crate::sim::store::Store;
use crate::sim::time::{Nanos, SimTime};

/// Kong's Redis and its nodes' tables.
#[derive(Debug)]
pub(super) struct KongSync {
    limit: KongLimit,
    /// `sync_rate`; zero for Kong's `-1` (every request `INCR`s).
    sync_rate: Nanos,
    redis: KongRedis,
    nodes: Vec<KongNode>,
    /// Syncs sent so far: the id of the next one's store event.
    syncs: u64,
}

impl KongSync {
    /// A picture of a counter: `count` in the window starting at `start` (s), or none yet.
    fn picture(&self, counter: Option<(u64, i64)>) -> AnyLimiter {
        let (start, count) = counter.unwrap_or((u64::MAX, 0));
        AnyLimiter::product(Box::new(Kong::holding(self.limit, start, count.max(0) as u64)))
    }

    /// The answer to a request that arrived at `at`, decided on `usage`.
    fn verdict(&self, usage: i64, at: SimTime) -> Verdict {
        let allowed = admits(&self.limit, usage);
        let reset = retry_after_s(&self.limit, at.as_nanos());
        Verdict::new(allowed, (!allowed).then(|| Nanos::from_secs(reset)))
    }
}

/// Kong's tables, made at the first request.
fn kong(sim: &mut Simulation) -> &mut KongSync {
    if sim.extra.is_none() {
        let sc = &sim.sc;
        sim.extra = Some(Box::new(KongSync {
            limit: KongLimit::of(&Policy::of(sc)),
            sync_rate: Nanos::from_millis(sc.product.get(&SYNC_RATE)),
            redis: KongRedis::default(),
            nodes: vec![KongNode::default(); sim.nodes.len()],
            syncs: 0,
        }));
    }
    sim.extra.as_mut().and_then(|k| k.downcast_mut()).expect("made above")
}

/// Redis's counter changed: the store's picture follows.
fn redraw_store(sim: &mut Simulation) {
    let k = kong(sim);
    let picture = k.picture(k.redis.newest());
    sim.store = Store::new(picture);
}

/// Node `node`'s count changed: its picture follows.
fn redraw_node(sim: &mut Simulation, node: usize) {
    let k = kong(sim);
    let picture = k.picture(k.nodes[node].newest());
    sim.nodes[node].limiter = picture;
}

fn push(sim: &mut Simulation, at: SimTime, ev: KongEv) {
    sim.push(at, Ev::Kong(ev));
}

/// A request `a` arriving at `at`: decided on the node's cached usage, or sent to Redis.
pub(super) fn arrive(sim: &mut Simulation, a: Attempt, at: SimTime) {
    let k = kong(sim);
    let window = window_of(&k.limit, at.as_nanos());
    let cached = (k.sync_rate > Nanos::ZERO).then(|| k.nodes[a.node as usize].cached(window)).flatten();
    if let Some(usage) = cached {
        let v = k.verdict(usage, at);
        if v.allowed {
            admitted(sim, a.node as usize, window, at);
        }
        sim.decided(a, v, at, false);
    } else if sim.answered(at) {
        let at = at + sim.up;
        push(sim, at, KongEv::Incr(a, window));
    } else {
        sim.push(at + sim.sc.timeout, Ev::Timeout(a));
    }
}

/// The node counts an admission in `window` and starts a sync unless one is pending.
fn admitted(sim: &mut Simulation, node: usize, window: u64, now: SimTime) {
    let k = kong(sim);
    if k.sync_rate == Nanos::ZERO {
        return;
    }
    if k.nodes[node].admitted(window) {
        let at = now + k.sync_rate;
        push(sim, at, KongEv::SyncTimer(node));
    }
    redraw_node(sim, node);
}

/// A request the store did not answer, admitted (fail open: Kong's `fault_tolerant`): counted
/// by its node all the same, as Kong's handler does.
pub(super) fn failed_open(sim: &mut Simulation, a: Attempt) {
    let window = window_of(&kong(sim).limit, a.at.as_nanos());
    admitted(sim, a.node as usize, window, a.at);
}

/// An event of Kong's at `now`.
pub(super) fn handle(sim: &mut Simulation, now: SimTime, ev: KongEv) {
    match ev {
        KongEv::Incr(a, window) => {
            let k = kong(sim);
            let before = k.redis.incr(window);
            let allowed = admits(&k.limit, before);
            redraw_store(sim);
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Script { allowed });
            let at = now + sim.down;
            push(sim, at, KongEv::Reply(a, window, before));
        }
        KongEv::Reply(a, window, before) => {
            let k = kong(sim);
            let node = a.node as usize;
            let v = k.verdict(before, a.at);
            if k.sync_rate > Nanos::ZERO {
                k.nodes[node].read(window, before);
                redraw_node(sim, node);
                if v.allowed {
                    admitted(sim, node, window, now);
                }
            }
            sim.decided(a, v, now, false);
        }
        KongEv::SyncTimer(node) => {
            let k = kong(sim);
            if k.nodes[node].running {
                // `ngx.sleep(timeout / 2)` while the previous sync runs.
                let at = now + Nanos(sim.sc.timeout.as_nanos() / 2);
                push(sim, at, KongEv::SyncTimer(node));
                return;
            }
            let deltas = k.nodes[node].start_sync().into_boxed_slice();
            if sim.answered(now) {
                let at = now + sim.up;
                push(sim, at, KongEv::Flush(node, deltas));
            } else {
                let at = now + sim.sc.timeout;
                push(sim, at, KongEv::Synced(node));
            }
        }
        KongEv::Flush(node, deltas) => {
            let k = kong(sim);
            k.redis.incr_by(&deltas);
            let id = k.syncs;
            k.syncs += 1;
            redraw_store(sim);
            sim.metrics.event(now, id, node, EventKind::Increment);
            let at = now + sim.down;
            push(sim, at, KongEv::Synced(node));
        }
        KongEv::Synced(node) => {
            kong(sim).nodes[node].end_sync();
            redraw_node(sim, node);
        }
    }
}
