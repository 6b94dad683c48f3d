//! The page: header, algorithm picker, parameters, playback and the chosen view, wired to one
//! [`Playground`] and its animation loop. The loop runs only while the user wants it to *and* the
//! page can be seen: not in a hidden tab, not with the playground scrolled out of view.

use leptos::html::Main;
use leptos::prelude::*;

use super::algo_picker::AlgoPicker;
use super::chart_env::provide_chart_env;
use super::cluster::{ModeSwitch, SingleOrCluster};
use super::compare_view::CompareView;
use super::controls::Controls;
use super::explain_view::Explanation;
use super::in_view::use_in_view;
use super::media::use_media_query;
use super::playback::Playback;
use super::playground::Playground;
use super::share::{apply_view, read_link, use_url_sync, EmbedApp, LinkNotice, ProductionPanel, ShareBar};
use super::visibility::use_page_visible;
use crate::sim::{Rate, Scenario};

/// Simulated seconds computed at once when the user prefers reduced motion, so the page opens
/// on a finished picture instead of an animation.
const REDUCED_MOTION_PREVIEW: u64 = 30;

/// The scenario the page opens with: arrivals above the refill rate, so the first rejection,
/// the steady state and the 429s are all there to see within seconds.
fn first_scenario() -> Scenario {
    Scenario { rate: Rate::per_sec(8), ..Scenario::default() }
}

/// What a frame shows (`?embed=1`): the compact layout of [`EmbedApp`]. It is built as a wasm
/// module of its own (`ratelimit-frame`), which the page's loader starts for embed links, so a
/// blog post's frames do not load the whole page, nor the page the frame's code.
#[component]
pub fn EmbedPage() -> impl IntoView {
    view! { <EmbedApp link=read_link(&first_scenario()) /> }
}

/// The whole page. Starts paused (on a computed preview) when the user prefers reduced motion.
/// An embed link opens [`EmbedPage`] in its own module instead (the loader picks).
#[component]
pub fn App() -> impl IntoView {
    let link = read_link(&first_scenario());
    let reduced_motion = use_media_query("(prefers-reduced-motion: reduce)");
    let dark = use_media_query("(prefers-color-scheme: dark)");
    provide_chart_env(dark);
    let calm = reduced_motion.get_untracked();
    let pg = Playground::new(link.scenario.clone(), !calm);
    apply_view(pg, link.view);
    use_url_sync(pg);
    if calm {
        pg.jump(REDUCED_MOTION_PREVIEW);
    }
    let playground_area = NodeRef::<Main>::new();
    let visible = use_page_visible();
    let in_view = use_in_view(playground_area);
    let seen = Signal::derive(move || visible.get() && in_view.get());
    pg.animate_while(seen);
    view! {
        <header class="site-header">
            <h1>"Rate limiter playground"</h1>
            <p class="lede">
                "Five rate-limiting algorithms, and the limiters people run, simulated exactly and running live. Move a slider and watch which requests get through, which get a 429, and why."
            </p>
            <AlgoPicker playground=pg />
            <super::controls::ProductControls playground=pg />
            <ModeSwitch playground=pg />
            <ShareBar playground=pg />
            <LinkNotice notices=link.notices />
        </header>
        <main class="layout" node_ref=playground_area>
            <Controls playground=pg />
            <div class="results">
                <Playback playground=pg held=Signal::derive(move || !seen.get()) />
                <Show when=move || pg.compare.get() fallback=move || view! { <SingleOrCluster playground=pg /> }>
                    <CompareView playground=pg />
                </Show>
                <Explanation playground=pg />
                <super::logs::LogsPanel playground=pg />
                <ProductionPanel playground=pg />
            </div>
        </main>
    }
}
