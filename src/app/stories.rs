//! A row of [`Story`] buttons and what to watch in the one last chosen: picking one loads its
//! scenario from t = 0, playing, in its view (one server or multi-node). A button is pressed while
//! the run is its scenario; what to watch stays, saying so once the run has changed.

use leptos::prelude::*;

use super::playground::Playground;
use crate::present::story::Story;
use crate::sim::Scenario;

/// The stories' buttons and what to watch.
#[component]
pub fn Stories(
    /// The page state.
    playground: Playground,
    /// The stories, in their buttons' order.
    stories: &'static [Story],
    /// Whether they run in the multi-node view.
    cluster: bool,
    /// The id of the paragraph saying what to watch.
    watch_id: &'static str,
) -> impl IntoView {
    let pg = playground;
    let chosen = RwSignal::new(None::<Story>);
    let pick = move |p: Story| {
        let Ok(next) = Scenario::from_query(p.query) else { return };
        chosen.set(Some(p));
        pg.compare.set(false);
        pg.cluster.set(cluster);
        // A story starts at its beginning, playing.
        pg.play_from_start(next);
    };
    let running = move |p: Story| pg.scenario.with(|s| Scenario::from_query(p.query).ok().as_ref() == Some(s));
    let buttons = stories
        .iter()
        .map(|&p| {
            let on = move || running(p);
            view! {
                <button type="button" id=p.id class="preset" aria-pressed=move || on().to_string() on:click=move |_| pick(p)>
                    {p.label}
                </button>
            }
        })
        .collect_view();
    let watch = move || {
        chosen.get().map(|p| {
            let changed =
                (!running(p)).then_some(" The run has changed since: press the story again to start it over.");
            view! { <p class="story-watch" id=watch_id role="status">{p.watch}{changed}</p> }
        })
    };
    view! {
        <div class="stories" role="group" aria-label="Stories">{buttons}</div>
        {watch}
    }
}
