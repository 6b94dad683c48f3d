//! `store=sync`: Kong's `policy: redis` across nodes ([`crate::sim::products::kong::redis_policy`]
//! has the plugin's arithmetic). The events of it: a request's `INCR` and its reply, a node's
//! sync timer, the sync's `INCRBY` pipeline and its end.
//!
//! Part of the shared-store code ([`super::shared`]): only modules that run several nodes have it.

use super::events::{Attempt, Ev};
use super::Simulation;
use crate::sim::decision::{Status, Verdict};
use crate::sim::limiter::Gauge;
use crate::sim::metrics::EventKind;
use crate::sim::products::kong::redis_policy::{admits, window_of, KongNode, KongRedis};
use crate::sim::products::kong::{KongLimit, SYNC_RATE};
use crate::sim::products::policy::Policy;
use crate::sim::scenario::Scenario;
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
    /// Kong's Redis with `nodes` nodes that have read nothing yet, under `sc`'s policy.
    pub(super) fn new(sc: &Scenario, nodes: usize) -> Self {
        let sync_ms = sc.product.get(&SYNC_RATE);
        KongSync {
            limit: KongLimit::of(&Policy::of(sc)),
            sync_rate: Nanos::from_millis(sync_ms),
            redis: KongRedis::default(),
            nodes: vec![KongNode::default(); nodes],
            syncs: 0,
        }
    }

    /// Redis's count for the window at `now`.
    pub(super) fn gauge(&self, now: SimTime) -> Gauge {
        self.redis.gauge(&self.limit, now.as_nanos())
    }

    /// What is left by Redis's count at `now`.
    pub(super) fn status(&self, now: SimTime) -> Status {
        self.redis.status(&self.limit, now.as_nanos())
    }

    /// Each node's own count at `now`.
    pub(super) fn node_gauges(&self, now: SimTime) -> Vec<Gauge> {
        self.nodes.iter().map(|n| n.gauge(&self.limit, now.as_nanos())).collect()
    }

    /// The answer to a request of window `window` decided on `usage`, at `now`.
    fn verdict(&self, usage: i64, now: SimTime) -> Verdict {
        let allowed = admits(&self.limit, usage);
        let reset = self
            .limit
            .period_s
            .saturating_sub(now.as_nanos() / 1_000_000_000 - window_of(&self.limit, now.as_nanos()))
            .max(1);
        Verdict::new(allowed, (!allowed).then(|| Nanos::from_secs(reset)))
    }
}

fn kong(sim: &mut Simulation) -> &mut KongSync {
    sim.kong.as_mut().expect("store=sync keeps Kong's tables")
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
        sim.push(at + sim.up, Ev::KongIncr(a, window));
    } else {
        sim.push(at + sim.sc.timeout, Ev::Timeout(a));
    }
}

/// The node counts an admission in `window` and starts a sync unless one is pending.
fn admitted(sim: &mut Simulation, node: usize, window: u64, now: SimTime) {
    let k = kong(sim);
    if k.sync_rate > Nanos::ZERO && k.nodes[node].admitted(window) {
        let at = now + k.sync_rate;
        sim.push(at, Ev::KongSyncTimer(node));
    }
}

/// A request the store did not answer, admitted (fail open: Kong's `fault_tolerant`): counted
/// by its node all the same, as Kong's handler does.
pub(super) fn failed_open(sim: &mut Simulation, a: Attempt) {
    let window = window_of(&kong(sim).limit, a.at.as_nanos());
    admitted(sim, a.node as usize, window, a.at);
}

/// An event of Kong's at `now`.
pub(super) fn handle(sim: &mut Simulation, now: SimTime, ev: Ev) {
    match ev {
        Ev::KongIncr(a, window) => {
            let k = kong(sim);
            let before = k.redis.incr(window);
            let allowed = admits(&k.limit, before);
            sim.metrics.event(now, a.id, a.node as usize, EventKind::Script { allowed });
            sim.push(now + sim.down, Ev::KongReply(a, window, before));
        }
        Ev::KongReply(a, window, before) => {
            let k = kong(sim);
            let node = a.node as usize;
            let v = k.verdict(before, a.at);
            if k.sync_rate > Nanos::ZERO {
                k.nodes[node].read(window, before);
                if v.allowed {
                    admitted(sim, node, window, now);
                }
            }
            sim.decided(a, v, now, false);
        }
        Ev::KongSyncTimer(node) => {
            let k = kong(sim);
            if k.nodes[node].running {
                // `ngx.sleep(timeout / 2)` while the previous sync runs.
                sim.push(now + Nanos(sim.sc.timeout.as_nanos() / 2), Ev::KongSyncTimer(node));
                return;
            }
            let deltas = k.nodes[node].start_sync();
            if sim.answered(now) {
                sim.push(now + sim.up, Ev::KongFlush { node, deltas: deltas.into_boxed_slice() });
            } else {
                sim.push(now + sim.sc.timeout, Ev::KongSynced(node));
            }
        }
        Ev::KongFlush { node, deltas } => {
            let k = kong(sim);
            k.redis.incr_by(&deltas);
            let id = k.syncs;
            k.syncs += 1;
            sim.metrics.event(now, id, node, EventKind::Increment);
            sim.push(now + sim.down, Ev::KongSynced(node));
        }
        Ev::KongSynced(node) => kong(sim).nodes[node].end_sync(),
        _ => unreachable!("only Kong's events come here"),
    }
}
