//! The page's state handle: the scenario, the running simulation, and a snapshot of the engine's
//! numbers for the view. It is a bag of `Copy` reactive handles, so components take it by value.
//! Nothing here decides anything about rate limiting: every number comes from the engine.

use leptos::prelude::*;

use crate::chart::throughput::ThroughputWindow;
use crate::sim::{Nanos, Scenario, Simulation};

/// Longest real time one animation frame may advance, so a background tab that resumes after a
/// minute steps the simulation by 100 ms × speed instead of bursting a minute at once.
pub const MAX_FRAME_MS: f64 = 100.0;

/// Seconds of simulated history the chart shows.
pub const CHART_SECONDS: u64 = 60;

/// What the view shows of the engine, refreshed once per animation frame.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Snapshot {
    /// Bumped on every restart, so views keyed on it redraw.
    pub generation: u64,
    /// Current simulated time in seconds.
    pub now_secs: f64,
    /// Requests that arrived.
    pub requests: u64,
    /// Requests the limiter admitted.
    pub admitted: u64,
    /// Requests the limiter rejected.
    pub rejected: u64,
    /// Admitted ÷ decided, as the engine computes it.
    pub pass_ratio: f64,
    /// Metrics buckets completed (the chart redraws when this changes).
    pub completed_buckets: u64,
}

/// Reactive handles for the playground. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Playground {
    /// The scenario being simulated.
    pub scenario: RwSignal<Scenario>,
    /// Whether the animation loop advances the simulation.
    pub running: RwSignal<bool>,
    /// Simulated seconds per real second.
    pub speed: RwSignal<f64>,
    /// The engine's numbers as of the latest frame.
    pub snapshot: RwSignal<Snapshot>,
    /// Why the last scenario change was refused, if it was.
    pub error: RwSignal<Option<String>>,
    sim: StoredValue<Simulation, LocalStorage>,
}

impl Playground {
    /// Starts a playground on `scenario` (assumed valid), paused or running.
    pub fn new(scenario: Scenario, running: bool) -> Self {
        Playground {
            sim: StoredValue::new_local(Simulation::new(&scenario)),
            scenario: RwSignal::new(scenario),
            running: RwSignal::new(running),
            speed: RwSignal::new(1.0),
            snapshot: RwSignal::new(Snapshot::default()),
            error: RwSignal::new(None),
        }
    }

    /// Applies `change` to a copy of the scenario; if the result validates, restarts the
    /// simulation from t = 0 on it, otherwise keeps the old one and records the error.
    pub fn edit(&self, change: impl FnOnce(&mut Scenario)) {
        let mut next = self.scenario.get_untracked();
        change(&mut next);
        match next.validate() {
            Ok(()) => self.restart_with(next),
            Err(e) => self.error.set(Some(e.to_string())),
        }
    }

    /// Restarts the current scenario from t = 0.
    pub fn restart(&self) {
        self.restart_with(self.scenario.get_untracked());
    }

    fn restart_with(&self, scenario: Scenario) {
        self.sim.set_value(Simulation::new(&scenario));
        let generation = self.snapshot.get_untracked().generation + 1;
        self.snapshot.set(Snapshot { generation, ..Snapshot::default() });
        self.error.set(None);
        self.scenario.set(scenario);
    }

    /// Advances simulated time by `real_ms` (clamped to [`MAX_FRAME_MS`]) × speed and refreshes
    /// the snapshot from the engine.
    pub fn advance(&self, real_ms: f64) {
        let sim_secs = real_ms.clamp(0.0, MAX_FRAME_MS) / 1000.0 * self.speed.get_untracked();
        let generation = self.snapshot.get_untracked().generation;
        let snapshot = self.sim.try_update_value(|sim| {
            sim.step_until(sim.now() + Nanos::from_secs_f64(sim_secs));
            let totals = &sim.metrics().totals;
            Snapshot {
                generation,
                now_secs: sim.now().as_secs_f64(),
                requests: totals.requests,
                admitted: totals.admitted,
                rejected: totals.rejected,
                pass_ratio: totals.pass_ratio(),
                completed_buckets: sim.now().as_nanos() / sim.metrics().bucket_width.as_nanos().max(1),
            }
        });
        if let Some(snapshot) = snapshot {
            self.snapshot.set(snapshot);
        }
    }

    /// The last [`CHART_SECONDS`] of completed buckets, read from the engine without tracking.
    pub fn chart_window(&self) -> ThroughputWindow {
        self.sim
            .try_with_value(|sim| ThroughputWindow::from_metrics(sim.metrics(), sim.now(), CHART_SECONDS))
            .unwrap_or_default()
    }
}
