//! The steady-state chart: the pass ratio since t = 0 converging on the engine's prediction, with
//! the first rejection marked (and, for a bucket under constant overload, C ÷ (λ − r)).

use leptos::prelude::*;

use super::playground::Playground;
use super::plot_canvas::PlotCanvas;
use crate::chart::canvas::Layers;
use crate::chart::convergence::{convergence_axes, convergence_legend, draw_convergence_data};
use crate::present::chart_data;

/// The steady-state card.
#[component]
pub fn ConvergenceChart(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    // A point every 50 ms of simulated time at most; redraw at most every 100 ms of it.
    let redraw = Memo::new(move |_| pg.snapshot.with(|s| (s.generation << 40) ^ (s.now.as_nanos() / 100_000_000)));
    let render = move |layers: &mut Layers, env: u64| {
        let Some(data) = pg.with_runner(chart_data::convergence).flatten() else { return Ok(()) };
        layers.draw(&convergence_axes(&data), env, |plot, style| {
            draw_convergence_data(plot, &data, style).map_err(|e| e.to_string())
        })
    };
    let label = Signal::derive(move || {
        format!(
            "Line chart of the pass ratio since the start converging on the predicted {}",
            chart_data::predicted_label(pg.algorithm())
        )
    });
    let legend = Memo::new(move |_| {
        let (predicted, first, predicted_first) = pg.snapshot.with(|s| {
            s.main().map_or((false, false, false), |c| {
                (c.predicted.is_some(), c.totals.first_rejection.is_some(), c.predicted_first.is_some())
            })
        });
        let label = predicted.then(|| chart_data::predicted_label(pg.algorithm()));
        convergence_legend(label, first, predicted_first)
    });
    let subtitle = move || {
        let predicted = pg.snapshot.with(|s| s.main().is_some_and(|c| c.predicted.is_some()));
        if predicted {
            format!("pass ratio since t = 0 vs {}", chart_data::predicted_label(pg.algorithm()))
        } else {
            "pass ratio since t = 0 (no formula for this traffic)".to_string()
        }
    };
    view! {
        <figure class="panel chart-card">
            <figcaption>
                <span class="chart-title">"Steady state"</span>
                <span class="chart-sub">{subtitle}</span>
            </figcaption>
            <PlotCanvas id="convergence-chart" label=label redraw=redraw render=render legend=legend />
        </figure>
    }
}
