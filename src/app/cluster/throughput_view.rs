//! The cluster's throughput: admitted and rejected per simulated second over the last minute, and
//! the rate one limiter allows as a dotted line — admitted above it is the cluster over-admitting.
//! Redrawn when a simulated second completes.

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::app::plot_canvas::{follow_legend, PlotCanvas};
use crate::chart::canvas::Layers;
use crate::chart::throughput::{draw_throughput_data, throughput_axes, throughput_legend, ThroughputWindow};
use crate::present::chart_data::THROUGHPUT_SECONDS;

/// The cluster's throughput card.
#[component]
pub fn ClusterThroughput(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let redraw = Memo::new(move |_| pg.snapshot.with(|s| (s.generation << 40) ^ s.completed_buckets));
    let legend = RwSignal::new(throughput_legend(true));
    let render = move |layers: &mut Layers, env: u64| {
        let data = pg.with_runner(|r| {
            r.sims().first().map(|sim| ThroughputWindow {
                allowed_rate: Some(sim.scenario().allowed_rate()),
                admitted_scale: true,
                ..ThroughputWindow::from_metrics(sim.metrics(), sim.now(), THROUGHPUT_SECONDS)
            })
        });
        let Some(data) = data.flatten() else { return Ok(()) };
        let axes = throughput_axes(&data, data.y_max(), false);
        follow_legend(legend, &axes.legend);
        layers.draw(&axes, env, |plot, style| draw_throughput_data(plot, &data, style).map_err(|e| e.to_string()))
    };
    let label = "Step chart of the admitted requests per second of the whole cluster (solid line) and the rejected ones (dashed line) over the run so far, up to its last 60 simulated seconds, with the rate one limiter allows as a dotted line";
    view! {
        <figure class="panel chart-card throughput-card cluster-throughput">
            <figcaption>
                <span class="chart-title">"Throughput of the cluster"</span>
                <span class="chart-sub">"per simulated second, scaled to what was admitted; above the dotted line is more than one limiter allows"</span>
            </figcaption>
            <PlotCanvas id="cluster-chart" label=label.to_string() redraw=redraw render=render class="plot"
                legend=Signal::from(legend) />
        </figure>
    }
}
