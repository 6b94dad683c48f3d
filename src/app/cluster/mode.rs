//! Switching the page between one server and the multi-node view, and the switch itself: a
//! two-option radio group next to the algorithm picker (the algorithm still comes from the
//! picker; Compare all leaves the multi-node view).

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::present::cluster::presets;
use crate::sim::Scenario;

impl Playground {
    /// Shows the multi-node view (`on`) or one server, adapting the scenario (see
    /// [`presets::enter`] and [`presets::leave`]) and restarting the simulation.
    pub fn set_cluster(&self, on: bool) {
        if on {
            self.compare.set(false);
            self.scenario.update(presets::enter);
        } else {
            self.scenario.update(presets::leave);
        }
        self.cluster.set(on);
        self.restart();
    }

    /// Replaces the whole scenario with `sc` (a preset) and restarts from t = 0.
    pub fn load(&self, sc: Scenario) {
        if sc.validate().is_ok() {
            self.scenario.set(sc);
            self.reset();
        }
    }
}

/// "One server | Multi-node": where the limiter runs.
#[component]
pub fn ModeSwitch(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let option = move |on: bool, id: &'static str, label: &'static str| {
        let chosen = move || pg.cluster.get() == on;
        view! {
            <label class="pick" class:chosen=chosen>
                <input type="radio" name="mode" id=id prop:checked=chosen on:change=move |_| pg.set_cluster(on) />
                <span>{label}</span>
            </label>
        }
    };
    view! {
        <fieldset class="picker mode-switch">
            <legend class="mode-legend">"Runs on"</legend>
            {option(false, "mode-single", "One server")}
            {option(true, "mode-cluster", "Multi-node cluster")}
        </fieldset>
    }
}
