//! The live throughput chart: a HiDPI canvas redrawn only when a simulated second completes, the
//! simulation restarts, the colour scheme changes or the window is resized — never every frame.

use leptos::ev;
use leptos::html::Canvas;
use leptos::prelude::*;

use super::playground::{Playground, CHART_SECONDS};
use crate::chart::canvas::draw_throughput_on;

/// Admitted vs rejected requests per second over the last 60 simulated seconds.
#[component]
pub fn ThroughputChart(
    /// The page state to read from.
    playground: Playground,
    /// Whether the page is in dark mode (the chart re-reads its colours from CSS when it flips).
    #[prop(into)]
    dark: Signal<bool>,
) -> impl IntoView {
    let pg = playground;
    let canvas = NodeRef::<Canvas>::new();
    let (resized, set_resized) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_resized.update(|n| *n += 1));
    on_cleanup(move || listener.remove());

    let data_key = Memo::new(move |_| pg.snapshot.with(|s| (s.generation, s.completed_buckets)));
    Effect::new(move |_| {
        // `.get()`, not `.track()`: tracking a memo never read leaves it uncomputed, so it would
        // never subscribe to the snapshot and the chart would stop redrawing after the first time.
        let _ = data_key.get();
        dark.track();
        resized.track();
        if let Some(canvas) = canvas.get() {
            if let Err(e) = draw_throughput_on(&canvas, &pg.chart_window()) {
                leptos::logging::warn!("chart not drawn: {e}");
            }
        }
    });

    view! {
        <figure class="panel chart-card">
            <figcaption>
                <span class="chart-title">"Throughput"</span>
                <span class="chart-sub">
                    {format!("requests per simulated second, last {CHART_SECONDS} s")}
                </span>
            </figcaption>
            <canvas
                id="chart"
                node_ref=canvas
                role="img"
                aria-label="Line chart of admitted requests per second (solid blue line) and rejected requests per second (dashed orange line) over the last 60 simulated seconds"
            ></canvas>
        </figure>
    }
}
