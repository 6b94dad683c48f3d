//! The live throughput chart: admitted and rejected per simulated second over the last minute,
//! the allowed rate, and the fixed window's 2 × limit burst called out when it happens. Redrawn
//! when a simulated second completes; its axes only when their range changes.

use leptos::prelude::*;

use super::playground::Playground;
use super::plot_canvas::{follow_legend, PlotCanvas};
use crate::chart::canvas::Layers;
use crate::chart::throughput::{draw_throughput_data, throughput_axes, throughput_legend};
use crate::present::chart_data::{self, THROUGHPUT_SECONDS};
use crate::present::seam::{seam_callout, SeamCallout};

/// The throughput card.
#[component]
pub fn ThroughputChart(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let redraw = Memo::new(move |_| pg.snapshot.with(|s| (s.generation << 40) ^ s.completed_buckets));
    let legend = RwSignal::new(throughput_legend(true));
    let render = move |layers: &mut Layers, env: u64| {
        let Some(data) =
            pg.with_runner(|r| r.sims().first().map(|s| chart_data::throughput(s, THROUGHPUT_SECONDS))).flatten()
        else {
            return Ok(());
        };
        let axes = throughput_axes(&data, data.y_max(), false);
        follow_legend(legend, &axes.legend);
        layers.draw(&axes, env, |plot, style| draw_throughput_data(plot, &data, style).map_err(|e| e.to_string()))
    };
    let over = Memo::new(move |_| {
        pg.snapshot.with(|s| s.main().filter(|c| c.over_limit()).map(|c| (c.peak, c.limit, c.seam)))
    });
    let callout = move || {
        over.get().map(|(peak, limit, seam)| {
            let SeamCallout { head, rest } =
                seam_callout(peak, limit, seam, pg.scenario.with(|s| s.effective_window()));
            view! {
                <p class="callout" id="seam-callout" role="status">
                    <strong>{head}</strong>
                    {rest}
                </p>
            }
        })
    };
    // After "Run this config": what the product did against the textbook, while its run is shown.
    let ran_callout = move || {
        pg.ran.get().map(|said| {
            view! {
                <p class="callout ran" id="ran-callout" role="status">
                    <strong>"Ran the configuration: "</strong>{said}
                </p>
            }
        })
    };
    let label = "Step chart of admitted requests per second (solid line) and rejected requests per second (dashed line) over the run so far, up to its last 60 simulated seconds, with the allowed rate as a dotted line";
    view! {
        <figure class="panel chart-card throughput-card">
            <figcaption>
                <span class="chart-title">"Throughput"</span>
                <span class="chart-sub">{format!("requests per simulated second, up to the last {THROUGHPUT_SECONDS} s")}</span>
            </figcaption>
            {ran_callout}
            {callout}
            <PlotCanvas id="chart" label=label.to_string() redraw=redraw render=render class="plot-tall"
                legend=Signal::from(legend) />
        </figure>
    }
}
