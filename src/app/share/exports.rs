//! The export buttons: the current chart as PNG, the series as CSV, the scenario as JSON. Each
//! file is made in the page and saved through an `<a download>`; nothing leaves the browser.

use leptos::prelude::*;

use super::download::{text_blob, use_download};
use super::png::{compose, to_png};
use crate::app::chart_env::use_chart_env;
use crate::app::playground::Playground;
use crate::chart::throughput::throughput_legend;
use crate::present::options::algorithm_label;
use crate::present::share::export::{scenario_json, series_csv};
use crate::present::share::link::scenario_query;
use crate::present::units::format_secs;

/// File names of the three exports.
pub const PNG_NAME: &str = "ratelimit-chart.png";
/// See [`PNG_NAME`].
pub const CSV_NAME: &str = "ratelimit-series.csv";
/// See [`PNG_NAME`].
pub const JSON_NAME: &str = "ratelimit-scenario.json";

/// PNG, CSV and JSON buttons, with a line saying what was saved.
#[component]
pub fn ExportButtons(
    /// The page state to export.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let download = use_download();
    let saved = RwSignal::new(None::<String>);
    let save_text = move |text: String, mime: &str, name: &'static str| {
        if let Some(blob) = text_blob(&text, mime) {
            download(&blob, name);
            saved.set(Some(format!("Saved {name}.")));
        }
    };
    let env = use_chart_env();
    // Charts scrolled out of view are not drawn: have them all drawn first.
    let on_png = move |_| {
        env.with_every_chart_drawn(move || {
            let Some(results) = document().query_selector(".results").ok().flatten() else { return };
            let caption = untrack(|| {
                let (algo, t) = (algorithm_label(pg.algorithm()), pg.snapshot.with(|s| s.now.as_secs_f64()));
                let what = if pg.compare.get() { "all five algorithms".to_string() } else { algo.to_string() };
                format!(
                    "Rate limiter playground · {what} · t = {} · {}",
                    format_secs(t),
                    pg.scenario.with(scenario_query)
                )
            });
            let Some(canvas) = compose(&results, &throughput_legend(true), &caption) else {
                let _ = saved.try_set(Some("No chart to save in this view.".into()));
                return;
            };
            to_png(&canvas, move |blob| match blob {
                Some(blob) => {
                    download(&blob, PNG_NAME);
                    let _ = saved.try_set(Some(format!("Saved {PNG_NAME}.")));
                }
                None => {
                    let _ = saved.try_set(Some("The browser could not encode the chart.".into()));
                }
            });
        });
    };
    let on_csv = move |_| {
        let csv = pg.with_runner(|r| series_csv(r.sims())).unwrap_or_default();
        save_text(csv, "text/csv", CSV_NAME);
    };
    let on_json = move |_| {
        let json = untrack(|| pg.scenario.with(|sc| scenario_json(sc, pg.link_view())));
        save_text(json, "application/json", JSON_NAME);
    };
    view! {
        <div class="exports" role="group" aria-label="Export">
            <span class="share-label">"Export"</span>
            <button type="button" id="export-png" on:click=on_png title="The chart as shown, as a PNG image">"PNG"</button>
            <button type="button" id="export-csv" on:click=on_csv title="The series the page holds (up to 2 minutes), as CSV">"CSV"</button>
            <button type="button" id="export-json" on:click=on_json title="The scenario, as JSON">"JSON"</button>
            <span class="copy-status" id="export-status" role="status">{move || saved.get()}</span>
        </div>
    }
}
