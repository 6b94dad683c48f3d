//! The learner's tour on the page ([`crate::present::tour`]): one step at a time, its title,
//! what to watch (the engine's numbers for the step's scenario), the playback bar and the one
//! chart that shows it, with ‹ Back and Next › and a way out to the full page with the step's
//! scenario loaded. The address follows the step (`tour=path&step=N`, see
//! [`super::share::url_sync`]).

use leptos::prelude::*;

use super::cluster::swimlane_view::SwimlaneCard;
use super::cluster::throughput_view::ClusterThroughput;
use super::playground::Playground;
use super::throughput_view::ThroughputChart;
use crate::present::share::link::tour_query;
use crate::present::tour::{step, Chart, STEPS};

/// Shows step `n` (from 1) of the tour: its scenario from t = 0, playing, in its view.
pub fn go_to(pg: Playground, n: usize) {
    let Some(s) = step(n) else { return };
    pg.tour.set(Some(n));
    pg.compare.set(false);
    pg.cluster.set(s.multi_node());
    pg.play_from_start(s.scenario());
}

/// Starts the tour at its first step, from the top of the page.
pub fn start(pg: Playground) {
    go_to(pg, 1);
    window().scroll_to_with_x_and_y(0.0, 0.0);
}

/// Leaves the tour: the full page, on the step's scenario as it is now.
pub fn leave(pg: Playground) {
    pg.tour.set(None);
}

/// The header's offer of the tour: a link to its first step, which starts it in place where this
/// page draws the tour (`start`), and is followed as a link where it does not (the light page:
/// the loader starts the whole page for it; it links none of the tour's steps).
#[component]
pub fn TourOffer(
    /// The page state.
    playground: Playground,
    /// What starts the tour in place, where this page draws it.
    start: Option<fn(Playground)>,
) -> impl IntoView {
    let pg = playground;
    let href = format!("?{}", tour_query(1));
    let click = move |ev: leptos::ev::MouseEvent| {
        if let Some(start) = start.filter(|_| !(ev.ctrl_key() || ev.meta_key() || ev.shift_key())) {
            ev.prevent_default();
            start(pg);
        }
    };
    view! {
        <p class="tour-offer" id="tour-offer">
            <a href=href on:click=click>"New to rate limiting? Take the tour"</a>
            {format!(": {} steps, one chart each.", STEPS.len())}
        </p>
    }
}

/// The tour's step: where it is in the tour, what to watch, the way on, and its chart with the
/// playback bar under it.
#[component]
pub fn TourStep(
    /// The page state (its `tour` is the step shown).
    playground: Playground,
    /// The playback bar, drawn under the chart.
    playback: AnyView,
) -> impl IntoView {
    let pg = playground;
    let n = Memo::new(move |_| pg.tour.get().unwrap_or(1));
    // The engine runs the step's scenario once per step for the numbers in its words.
    let watch = Memo::new(move |_| step(n.get()).map(|s| s.watch()).unwrap_or_default());
    let title = move || step(n.get()).map_or("", |s| s.title);
    let last = STEPS.len();
    let dots = (1..=last)
        .map(|i| {
            let current = move || (n.get() == i).then_some("step");
            let label = format!("Step {i}: {}", STEPS[i - 1].title);
            view! {
                <li>
                    <a href=format!("?{}", tour_query(i)) aria-current=current title=label.clone() aria-label=label
                        on:click=move |ev| { ev.prevent_default(); go_to(pg, i); }>
                        {i}
                    </a>
                </li>
            }
        })
        .collect_view();
    let kind = Memo::new(move |_| step(n.get()).map_or(Chart::Throughput, |s| s.chart));
    let chart = move || match kind.get() {
        Chart::Throughput => view! { <ThroughputChart playground=pg /> }.into_any(),
        Chart::ClusterThroughput => view! { <ClusterThroughput playground=pg /> }.into_any(),
        Chart::Swimlane => view! { <SwimlaneCard playground=pg /> }.into_any(),
    };
    view! {
        <section class="panel tour" id="tour" aria-labelledby="tour-title">
            <nav class="tour-nav" aria-label="The tour's steps">
                <span class="tour-where">{move || format!("The tour · step {} of {last}", n.get())}</span>
                <ol class="tour-dots">{dots}</ol>
            </nav>
            <h2 id="tour-title" tabindex="-1">{title}</h2>
            <p class="tour-watch" id="tour-watch" role="status">{move || watch.get()}</p>
            <div class="tour-buttons">
                <button type="button" id="tour-back" disabled=move || n.get() == 1
                    on:click=move |_| go_to(pg, n.get_untracked() - 1)>
                    "‹ Back"
                </button>
                <button type="button" class="primary" id="tour-next" disabled=move || n.get() == last
                    on:click=move |_| go_to(pg, n.get_untracked() + 1)>
                    "Next ›"
                </button>
                <button type="button" class="tour-leave" id="tour-leave" title="Open this step in the full playground, every control and panel"
                    on:click=move |_| leave(pg)>
                    "Leave the tour"
                </button>
            </div>
        </section>
        // The chart first and the playback bar under it, as a video's controls sit under it: on
        // a phone the chart is then in the first screen.
        <div class="tour-stage">
            {chart}
            {playback}
        </div>
    }
}
