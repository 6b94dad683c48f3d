//! The single-algorithm view: throughput (first, so the running chart is the first thing under
//! the playback bar), counters, inner state, steady state, the request strip and the last
//! response.

use leptos::prelude::*;

use super::convergence_view::ConvergenceChart;
use super::playground::Playground;
use super::response::LastResponse;
use super::state_view::StateChart;
use super::stats::Stats;
use super::strip_view::RequestStrip;
use super::throughput_view::ThroughputChart;

/// Everything shown for one algorithm.
#[component]
pub fn SingleView(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    view! {
        <ThroughputChart playground=pg />
        <Stats playground=pg />
        <div class="pair">
            <StateChart playground=pg />
            <ConvergenceChart playground=pg />
        </div>
        <div class="pair pair-wide">
            <RequestStrip playground=pg />
            <LastResponse playground=pg />
        </div>
    }
}
