//! The multi-node pictures read out of the engine: the swimlane of store operations and the
//! topology with requests in flight. Plain data for [`crate::chart`]'s drawing code, shared by the
//! page's canvases and the CLI's still (`--format svg`).

use crate::chart::cluster::swimlane::{span_for, Swimlane};
use crate::chart::cluster::topology::Topology;
use crate::chart::cluster::trace::{Link, Traces};
use crate::present::cluster::readout::quota_left;
use crate::sim::limiter::Limiter;
use crate::sim::{shards, Nanos, SimTime, Simulation, StoreMode};

/// The swimlane of `sim` now.
pub fn swimlane(sim: &Simulation) -> Swimlane {
    let sc = sim.scenario();
    let traces = Traces::from_events(sim.metrics().events());
    let waits = matches!(sc.store, StoreMode::Race | StoreMode::Atomic | StoreMode::ReplicaRead);
    Swimlane::from_traces(&traces, sim.now(), span_for(sc), &Link::of(sc), sc.nodes as usize, waits)
}

/// Real seconds a request takes to travel from the clients to its node on screen.
const TRAVEL_SECS: f64 = 0.4;

/// The picture of `sim` for the current playback: `running` at `speed` draws it `tau` behind.
pub fn picture(sim: &Simulation, running: bool, speed: f64) -> Topology {
    let sc = sim.scenario();
    let traces = Traces::from_events(sim.metrics().events());
    let now = sim.now();
    let held = traces.oldest.map_or(Nanos::ZERO, |o| now.since(o));
    let tau = Nanos::from_secs_f64(TRAVEL_SECS * speed).min(Nanos(held.as_nanos() / 2)).max(Nanos(1));
    let at = if running { SimTime(now.as_nanos().saturating_sub(tau.as_nanos())) } else { now };
    let mut topo = Topology::at(&traces, at, tau, &Link::of(sc), sc.store, sc.nodes as usize);
    if matches!(sc.store, StoreMode::Local | StoreMode::Async | StoreMode::Sync) {
        topo.node_quota = sim.node_gauges().iter().map(|g| quota_left(sc, g)).collect();
    }
    if sc.store != StoreMode::Local {
        topo.store_quota = Some(quota_left(sc, &sim.gauge()));
    }
    if let Some(shards) = sim.shards() {
        // Each key against its own share of the limit; the first key is the engine's store.
        let k = shards.ops.len();
        let others = shards.stores.iter().map(|s| s.state().gauge(now));
        let gauges = std::iter::once(sim.gauge()).chain(others);
        topo.key_quota = gauges.enumerate().map(|(i, g)| quota_left(&shards::scenario(sc, i, k), &g)).collect();
    }
    topo
}
