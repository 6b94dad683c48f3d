//! The page's state handle: the scenario (one signal, ready to be serialised), the view (one
//! algorithm or all), playback, the running engine and a snapshot of its numbers for the view. It
//! is a bag of `Copy` reactive handles, so components take it by value. Nothing here decides
//! anything about rate limiting: every number comes from the engine.

use leptos::prelude::*;

use super::hooks::raf::use_raf_fn;
use crate::present::clock::{FixedStep, STEP};
use crate::present::folds::Folds;
use crate::present::options::View;
use crate::present::runner::Runner;
use crate::present::share::link::LinkView;
use crate::present::snapshot::Snapshot;
use crate::sim::{Algorithm, Capabilities, Nanos, Scenario};

/// Longest stretch a paused edit re-runs at once, so dragging a slider stays responsive.
const REPLAY_CAP: Nanos = Nanos::from_secs(60);

/// Real milliseconds between refreshes of [`Playground::readout`] while playing: ten a second,
/// enough for a clock in tenths, and text that changes every frame would re-lay-out the page
/// every frame.
const READOUT_EVERY_MS: f64 = 100.0;

/// Reactive handles for the playground. Cheap to copy.
#[derive(Clone, Copy)]
pub struct Playground {
    /// The scenario being simulated.
    pub scenario: RwSignal<Scenario>,
    /// Whether all algorithms run side by side.
    pub compare: RwSignal<bool>,
    /// Whether the user wants the simulation to play (the loop also waits for the page to be
    /// visible and in view).
    pub running: RwSignal<bool>,
    /// Simulated seconds per real second.
    pub speed: RwSignal<f64>,
    /// The engine's numbers as of the latest change of simulated time: what the charts draw.
    pub snapshot: RwSignal<Snapshot>,
    /// The same numbers for text (counters, clock, headers), with the last response (formatted
    /// only for this, not every frame): [`snapshot`](Self::snapshot)'s at most ten times a second
    /// while playing, and exactly its instant whenever paused, stepped, jumped or restarted.
    pub readout: RwSignal<Snapshot>,
    /// Why the last scenario change was refused, if it was.
    pub error: RwSignal<Option<String>>,
    /// Whether the multi-node view is shown (see [`super::cluster`]).
    pub cluster: RwSignal<bool>,
    /// The step of the learner's tour shown (from 1), while the tour is shown
    /// ([`crate::present::tour`]).
    pub tour: RwSignal<Option<usize>>,
    /// Which panels are open, per view, where panels fold (the page's; in an embed, `None`:
    /// every card it shows is open). See [`super::fold`].
    pub folds: RwSignal<Option<Folds>>,
    /// What the product "Run this config" opened did against the textbook: the throughput card
    /// says it until the scenario changes again (see `share::production::run_and_show`).
    pub ran: RwSignal<Option<String>>,
    /// The parts of the engine this module has: a scenario needing another runs nothing here
    /// (its view hands it to the whole page).
    pub caps: Capabilities,
    runner: StoredValue<Runner, LocalStorage>,
    clock: StoredValue<FixedStep, LocalStorage>,
    /// Real milliseconds since `readout` was last refreshed.
    readout_age: StoredValue<f64, LocalStorage>,
}

impl Playground {
    /// Starts a playground on `scenario` (assumed valid), paused or running, whose engine has
    /// the parts `caps` give.
    pub fn new(scenario: Scenario, running: bool, caps: Capabilities) -> Self {
        let runner = Runner::with(&scenario, false, caps);
        let snapshot = runner.snapshot(0);
        let readout = runner.readout(0);
        Playground {
            caps,
            runner: StoredValue::new_local(runner),
            clock: StoredValue::new_local(FixedStep::new()),
            cluster: RwSignal::new(crate::present::cluster::presets::is_cluster(&scenario)),
            scenario: RwSignal::new(scenario),
            compare: RwSignal::new(false),
            tour: RwSignal::new(None),
            folds: RwSignal::new(None),
            ran: RwSignal::new(None),
            running: RwSignal::new(running),
            speed: RwSignal::new(1.0),
            readout: RwSignal::new(readout),
            snapshot: RwSignal::new(snapshot),
            error: RwSignal::new(None),
            readout_age: StoredValue::new_local(0.0),
        }
    }

    /// Runs the animation loop while the user wants it to play and `seen` (the page is visible
    /// and the playground in view). Whenever the loop stops, the text catches up with the charts,
    /// so paused or held it shows exactly the instant they show.
    pub fn animate_while(&self, seen: Signal<bool>) {
        let pg = *self;
        let active = Signal::derive(move || pg.running.get() && seen.get());
        use_raf_fn(active, move |delta_ms| pg.frame(delta_ms));
        Effect::new(move |_| {
            if !active.get() {
                pg.refresh_readout();
            }
        });
    }

    fn refresh_readout(&self) {
        self.readout_age.set_value(0.0);
        let generation = self.snapshot.with_untracked(|s| s.generation);
        let Some(readout) = self.runner.try_with_value(|r| r.readout(generation)) else { return };
        if self.readout.with_untracked(|r| *r != readout) {
            self.readout.set(readout);
        }
    }

    /// What is shown: the scenario's algorithm, or the comparison.
    pub fn view(&self) -> View {
        if self.compare.get() {
            View::Compare
        } else {
            View::Single(self.scenario.with(|s| s.algo))
        }
    }

    /// What the page shows, as a link's `view` key spells it (tracked).
    pub fn link_view(&self) -> LinkView {
        if self.compare.get() {
            LinkView::Compare
        } else if self.cluster.get() {
            LinkView::Cluster
        } else {
            LinkView::Single
        }
    }

    /// Shows `view`: picks the algorithm, or switches to comparing all of them.
    pub fn set_view(&self, view: View) {
        match view {
            View::Compare => {
                // Compare mode is five single limiters: it leaves the multi-node view.
                self.compare.set(true);
                self.cluster.set(false);
                self.scenario.update(crate::present::cluster::presets::leave);
            }
            View::Single(algo) => {
                self.compare.set(false);
                self.scenario.update(|s| {
                    s.algo = algo;
                    // Kong's own store mode leaves with Kong.
                    s.fit_store();
                });
            }
        }
        self.restart();
    }

    /// Applies `change` to a copy of the scenario; if the result validates, restarts the
    /// simulation on it, otherwise keeps the old one and records the error.
    pub fn edit(&self, change: impl FnOnce(&mut Scenario)) {
        let mut next = self.scenario.get_untracked();
        change(&mut next);
        match next.validate() {
            Ok(()) => {
                self.scenario.set(next);
                self.restart();
            }
            Err(e) => self.error.set(Some(e.to_string())),
        }
    }

    /// Starts the current scenario over. While playing it starts from t = 0; while paused it is
    /// re-run at once up to where it was (at most a minute), so an edit shows its effect without
    /// animation.
    pub fn restart(&self) {
        // A new run: what "Run this config" said was about the one before.
        self.ran.set(None);
        let was = self.runner.with_value(|r| r.now());
        let mut runner = Runner::with(&self.scenario.get_untracked(), self.compare.get_untracked(), self.caps);
        if !self.running.get_untracked() {
            runner.jump(was.since(crate::sim::SimTime::ZERO).min(REPLAY_CAP));
        }
        self.install(runner);
    }

    /// Runs `scenario` (valid: a story's or a tour step's, held so by their tests) from t = 0,
    /// playing: one new run, not an edit's replay followed by a reset.
    pub fn play_from_start(&self, scenario: Scenario) {
        self.scenario.set(scenario);
        self.reset();
        self.running.set(true);
    }

    /// Starts over from t = 0, whether playing or not.
    pub fn reset(&self) {
        self.install(Runner::with(&self.scenario.get_untracked(), self.compare.get_untracked(), self.caps));
    }

    fn install(&self, runner: Runner) {
        let generation = self.snapshot.with_untracked(|s| s.generation) + 1;
        let snapshot = runner.snapshot(generation);
        self.runner.set_value(runner);
        self.clock.update_value(FixedStep::reset);
        self.error.set(None);
        self.snapshot.set(snapshot);
        self.refresh_readout();
    }

    /// One animation frame of `real_ms`: runs the whole fixed steps it releases.
    pub fn frame(&self, real_ms: f64) {
        let speed = self.speed.get_untracked();
        let steps = self.clock.try_update_value(|c| c.tick(real_ms, speed)).unwrap_or(0);
        self.readout_age.update_value(|age| *age += real_ms);
        if steps > 0 {
            self.change(|r| r.advance(Nanos(STEP.as_nanos() * u64::from(steps))), false);
        }
    }

    /// Pauses and runs exactly the next event.
    pub fn step(&self) {
        self.running.set(false);
        self.change(
            |r| {
                r.step_event();
            },
            true,
        );
    }

    /// Pauses and goes back to the last event before now (the run replayed from t = 0, the last
    /// stretch event by event): Step undone.
    pub fn step_back(&self) {
        self.running.set(false);
        let now = self.runner.with_value(|r| r.now());
        self.install(Runner::before(&self.scenario.get_untracked(), self.compare.get_untracked(), now, self.caps));
    }

    /// Pauses and goes back to `at` from t = 0: an embed's Reset to the moment it opened on.
    pub fn back_to(&self, at: Nanos) {
        self.running.set(false);
        self.reset();
        self.jump_by(at);
    }

    /// Fast-forward: computes `secs` of simulated time at once.
    pub fn jump(&self, secs: u64) {
        self.jump_by(Nanos::from_secs(secs));
    }

    /// Fast-forwards by `by` of simulated time at once.
    pub fn jump_by(&self, by: Nanos) {
        self.change(|r| r.jump(by), true);
        self.clock.update_value(FixedStep::reset);
    }

    /// Applies `f` to the engine and shows the result: in the charts at once, and in the text at
    /// once too if `at_once` (a step or a jump), else at most ten times a second while playing.
    fn change(&self, f: impl FnOnce(&mut Runner), at_once: bool) {
        let generation = self.snapshot.with_untracked(|s| s.generation);
        let snapshot = self.runner.try_update_value(|r| {
            f(r);
            r.snapshot(generation)
        });
        if let Some(snapshot) = snapshot {
            self.snapshot.set(snapshot);
            if at_once || !self.running.get_untracked() || self.readout_age.get_value() >= READOUT_EVERY_MS {
                self.refresh_readout();
            }
        }
    }

    /// Reads the engine without tracking anything (charts call this inside their effects, keyed
    /// on the snapshot fields that say when to redraw).
    pub fn with_runner<T>(&self, f: impl FnOnce(&Runner) -> T) -> Option<T> {
        self.runner.try_with_value(f)
    }

    /// The single view's algorithm (the first column's in compare mode).
    pub fn algorithm(&self) -> Algorithm {
        self.scenario.with(|s| s.algo)
    }

    /// The textbook algorithm the single view's algorithm is (a product model's own, e.g. the
    /// token bucket for nginx): what its charts and controls are shaped by.
    pub fn textbook(&self) -> Algorithm {
        self.scenario.with(|s| s.algo.textbook(&s.product))
    }
}
