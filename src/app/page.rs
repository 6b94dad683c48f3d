//! The page: header, controls, counters and chart, wired to one [`Playground`] and its
//! animation loop.

use leptos::prelude::*;

use super::chart_view::ThroughputChart;
use super::controls::Controls;
use super::counters::Counters;
use super::media::use_media_query;
use super::playground::Playground;
use super::raf::use_raf_fn;
use crate::sim::Scenario;

/// The whole page. Starts paused when the user prefers reduced motion.
#[component]
pub fn App() -> impl IntoView {
    let reduced_motion = use_media_query("(prefers-reduced-motion: reduce)");
    let dark = use_media_query("(prefers-color-scheme: dark)");
    let pg = Playground::new(Scenario::default(), !reduced_motion.get_untracked());
    use_raf_fn(pg.running.into(), move |delta_ms| pg.advance(delta_ms));
    view! {
        <header class="site-header">
            <h1>"Rate limiter playground"</h1>
            <p class="lede">
                "A token bucket, simulated exactly and running live. Push the arrival rate past the refill rate and watch the excess get rejected."
            </p>
        </header>
        <main class="layout">
            <Controls playground=pg />
            <div class="results">
                <Counters playground=pg />
                <ThroughputChart playground=pg dark=dark />
            </div>
        </main>
    }
}
