//! The page: header, algorithm picker, parameters, playback and the chosen view, wired to one
//! [`Playground`] and its animation loop. The loop runs only while the user wants it to *and* the
//! page can be seen: not in a hidden tab, not with the playground scrolled out of view.

use leptos::html::Main;
use leptos::prelude::*;

use super::algo_picker::AlgoPicker;
use super::chart_env::provide_chart_env;
use super::cluster::{ClusterControls, ClusterView, ModeSwitch};
use super::compare_view::CompareView;
use super::controls::Controls;
use super::explain_view::Explanation;
use super::in_view::use_in_view;
use super::media::use_media_query;
use super::playback::Playback;
use super::playground::Playground;
use super::share::{apply_view, read_link, use_url_sync, EmbedApp, LinkNotice, ProductionPanel, ShareBar};
use super::single_view::SingleView;
use super::visibility::use_page_visible;
use super::whole_page::{focus_when_mounted, loading_view, take_handover};
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

/// What draws the multi-node view's parts on a page: the whole page's module draws them, the
/// light page stands in for them until it has handed over (see [`super::whole_page`]).
#[derive(Clone, Copy)]
pub struct MultiNode {
    /// The multi-node view.
    pub view: fn(Playground) -> AnyView,
    /// The cluster's parameter groups, above the limiter's.
    pub controls: fn(Playground) -> AnyView,
}

/// The whole page (`ratelimit-full`): every view, the multi-node one included.
#[component]
pub fn App() -> impl IntoView {
    let multi_node = MultiNode {
        view: |pg| view! { <ClusterView playground=pg /> }.into_any(),
        controls: |pg| view! { <ClusterControls playground=pg /> }.into_any(),
    };
    view! { <Page multi_node=multi_node /> }
}

/// What every visitor loads first (`ratelimit-playground`): every single-server view. Showing the
/// multi-node view hands over to the whole page ([`App`]).
#[component]
pub fn LightApp() -> impl IntoView {
    let multi_node = MultiNode { view: loading_view, controls: |_| ().into_any() };
    view! { <Page multi_node=multi_node /> }
}

/// The page. Starts paused (on a computed preview) when the user prefers reduced motion; started
/// by the light page's hand-over, it plays, at the speed, as the light page did.
/// An embed link opens [`EmbedPage`] in its own module instead (the loader picks).
#[component]
fn Page(
    /// How the multi-node view is drawn.
    multi_node: MultiNode,
) -> impl IntoView {
    let link = read_link(&first_scenario());
    let reduced_motion = use_media_query("(prefers-reduced-motion: reduce)");
    let dark = use_media_query("(prefers-color-scheme: dark)");
    provide_chart_env(dark);
    let calm = reduced_motion.get_untracked();
    let handover = take_handover();
    let running = handover.as_ref().map_or(!calm, |h| h.running);
    let pg = Playground::new(link.scenario.clone(), running);
    apply_view(pg, link.view);
    use_url_sync(pg);
    if let Some(h) = handover {
        pg.speed.set(h.speed);
        if let Some(id) = h.focus {
            focus_when_mounted(id);
        }
    } else if calm {
        pg.jump(REDUCED_MOTION_PREVIEW);
    }
    let playground_area = NodeRef::<Main>::new();
    let visible = use_page_visible();
    let in_view = use_in_view(playground_area);
    let seen = Signal::derive(move || visible.get() && in_view.get());
    pg.animate_while(seen);
    let single_or_cluster = move || {
        if pg.cluster.get() {
            (multi_node.view)(pg)
        } else {
            view! { <SingleView playground=pg /> }.into_any()
        }
    };
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
            <Controls playground=pg cluster=multi_node.controls />
            <div class="results">
                <Playback playground=pg held=Signal::derive(move || !seen.get()) />
                <Show when=move || pg.compare.get() fallback=single_or_cluster>
                    <CompareView playground=pg />
                </Show>
                <Explanation playground=pg />
                <super::logs::LogsPanel playground=pg />
                <ProductionPanel playground=pg />
            </div>
        </main>
    }
}
