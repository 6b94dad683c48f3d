//! The inner-state chart: what the limiter holds over the last 20 simulated seconds, sampled by
//! the engine every 50 ms. Redrawn when a few new samples arrived; its axes only when the range
//! they need changes.

use leptos::prelude::*;

use super::playground::Playground;
use super::plot_canvas::PlotCanvas;
use crate::chart::canvas::Layers;
use crate::chart::state::{draw_state_data, state_axes, state_legend, StateKind};
use crate::present::chart_data;
use crate::present::runner::{SAMPLE_EVERY, STATE_SPAN_SECS};

/// Samples that must arrive before the chart redraws: 2 (100 ms of simulated time).
const REDRAW_EVERY: u64 = 2;

/// The inner-state card.
#[component]
pub fn StateChart(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let redraw = Memo::new(move |_| {
        pg.snapshot.with(|s| (s.generation << 40) ^ (s.sampled_to / SAMPLE_EVERY.as_nanos() / REDRAW_EVERY))
    });
    let render = move |layers: &mut Layers, env: u64| {
        let Some(data) = pg.with_runner(|r| r.sims().first().map(chart_data::state)).flatten() else {
            return Ok(());
        };
        layers
            .draw(&state_axes(&data), env, |plot, style| draw_state_data(plot, &data, style).map_err(|e| e.to_string()))
    };
    let kind = Memo::new(move |_| StateKind::of(pg.textbook()));
    let title = move || match kind.get() {
        StateKind::Tokens => "Tokens in the bucket",
        StateKind::WindowCount => "Count in the current window",
        StateKind::Weighted => "Weighted estimate and its two counters",
        StateKind::LogCount => "Admitted in the last window (the log)",
        StateKind::Queue => "Requests waiting in the queue",
    };
    let label =
        Signal::derive(move || format!("Line chart over the last {STATE_SPAN_SECS} simulated seconds: {}", title()));
    view! {
        <figure class="panel chart-card">
            <figcaption>
                <span class="chart-title">"Inner state"</span>
                <span class="chart-sub">{title}</span>
            </figcaption>
            <PlotCanvas id="state-chart" label=label redraw=redraw render=render
                legend=Signal::derive(move || state_legend(kind.get())) />
        </figure>
    }
}
