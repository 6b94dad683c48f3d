//! The request strip: each decision of the last seconds on one line — admitted above, rejected
//! below, retries as rings. It has no text on its canvas, so it is redrawn whenever events happen.

use leptos::html::Canvas;
use leptos::prelude::*;

use super::chart_env::use_chart_env;
use super::hooks::in_view::use_in_view;
use super::playground::Playground;
use crate::chart::canvas::Surface;
use crate::chart::strip::draw_strip;
use crate::present::chart_data;
use crate::present::units::format_secs;

/// The request-strip card.
#[component]
pub fn RequestStrip(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let env = use_chart_env();
    let canvas = NodeRef::<Canvas>::new();
    let surface = StoredValue::new_local(None::<Surface>);
    // From the readout (ten a second, with the other numbers): text that changed every frame
    // made the browser lay out and paint the page again every frame, in view or not.
    let span = Memo::new(move |_| pg.readout.with(|s| s.strip_secs));
    let seen = use_in_view(canvas);
    Effect::new(move |_| {
        pg.snapshot.with(|s| (s.generation, s.events));
        if !env.draws(seen) {
            return; // drawn when it comes back into view
        }
        let key = env.key();
        let Some(c) = canvas.get() else { return };
        let Some(strip) = pg.with_runner(|r| r.sims().first().map(chart_data::strip)).flatten() else { return };
        surface.update_value(|s| {
            let s = s.get_or_insert_with(|| Surface::new(c));
            if let Err(e) = s.draw(key, |root, style| draw_strip(root, &strip, style).map_err(|e| e.to_string())) {
                leptos::logging::warn!("request strip not drawn: {e}");
            }
        });
    });
    view! {
        <figure class="panel chart-card strip-card">
            <figcaption>
                <span class="chart-title">"Requests"</span>
                <span class="chart-sub">{move || format!("each decision of the last {}", format_secs(span.get()))}</span>
            </figcaption>
            <div class="strip">
                <div class="strip-lanes" aria-hidden="true">
                    <span>"200"</span>
                    <span>"429"</span>
                </div>
                <canvas id="strip" node_ref=canvas role="img"
                    aria-label="Each request as a mark: admitted requests as bars in the upper lane, rejected ones as crosses in the lower lane, retries as rings"></canvas>
            </div>
            <p class="strip-key" aria-hidden="true">
                <span class="key-admitted">"▮ admitted"</span>
                <span class="key-rejected">"✕ rejected (429)"</span>
                <span class="key-retry">"○ retry"</span>
                <span class="key-time">{move || format!("← {} · now →", format_secs(span.get()))}</span>
            </p>
        </figure>
    }
}
