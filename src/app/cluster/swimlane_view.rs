//! The swimlane card: the store operations of the last moments, one lane per node, with the
//! lost updates marked. Its span follows the round trip and the arrival rate, so GETs and SETs
//! that overlap can be told apart; it is always drawn at the engine's instant.

use leptos::prelude::*;

use super::key_view::key_item;
use super::layered::{LayeredCanvas, Painter, Writer};
use crate::app::playground::Playground;
use crate::chart::cluster::swimlane::span_for;
use crate::chart::cluster::swimlane_draw::{draw_swimlane, draw_swimlane_labels};
use crate::present::cluster::keys::swimlane_key;
use crate::present::cluster::pictures::swimlane;
use crate::present::units::format_secs;
use crate::sim::StoreMode;

/// The swimlane card. `data-lost` on it counts the lost updates marked in view.
#[component]
pub fn SwimlaneCard(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let nodes = Memo::new(move |_| sc.with(|s| s.nodes.clamp(1, 16)));
    let redraw = Memo::new(move |_| pg.snapshot.with(|s| (s.generation << 40) ^ s.events));
    let lane = Memo::new(move |_| {
        let _ = redraw.get();
        pg.with_runner(|r| r.sims().first().map(swimlane)).flatten().unwrap_or_default()
    });
    // Text, so it follows the readout (ten times a second while playing), not every frame.
    let lost = Memo::new(move |_| {
        pg.readout.with(|s| (s.generation, s.events));
        lane.with_untracked(|l| l.lost_updates)
    });
    let paint: Painter =
        Box::new(move |root, style| lane.with_untracked(|l| draw_swimlane(root, l, style)).map_err(|e| e.to_string()));
    let write: Writer = Box::new(move |root, style| {
        draw_swimlane_labels(root, nodes.get_untracked() as usize, style).map_err(|e| e.to_string())
    });
    let span = Memo::new(move |_| sc.with(|s| span_for(s).as_secs_f64()));
    let store = Memo::new(move |_| sc.with(|s| s.store));
    let failover = Memo::new(move |_| sc.with(|s| crate::sim::store_keys::failover(&s.product).is_some()));
    let lost_at_failover = Memo::new(move |_| {
        pg.readout.with(|s| (s.generation, s.events));
        lane.with_untracked(|l| l.lost_at_failover)
    });
    let label = Signal::derive(move || {
        format!(
            "Swimlane of the last {}: one lane per node and one for the store; each store operation is a line from its node down to the store and back; a lost update is marked with a large square in the rejected colour",
            format_secs(span.get())
        )
    });
    view! {
        <figure class="panel chart-card swimlane-card" data-lost=move || lost.get()>
            <figcaption>
                <span class="chart-title">"Store operations"</span>
                <span class="chart-sub">{move || format!("last {}, each line a trip to the store and back", format_secs(span.get()))}</span>
            </figcaption>
            <LayeredCanvas id="swimlane" label=label height=Signal::derive(move || 90 + 16 * nodes.get())
                redraw=redraw labels=Signal::derive(move || u64::from(nodes.get())) paint=paint write=write />
            <p class="swimlane-key" aria-hidden="true">
                {move || swimlane_key(store.get(), failover.get()).into_iter().map(key_item).collect_view()}
                <span class="key-time">{move || format!("← {} · now →", format_secs(span.get()))}</span>
            </p>
            <p class="lost-count" id="lost-in-view" role="status">
                {move || match (store.get(), lost.get()) {
                    (StoreMode::Race, 0) => "No lost update in view: no two GETs overlapped a SET.".to_string(),
                    (StoreMode::Race, 1) => "1 lost update in view.".to_string(),
                    (StoreMode::Race, n) => format!("{n} lost updates in view."),
                    _ => String::new(),
                }}
                {move || match lost_at_failover.get() {
                    0 => String::new(),
                    1 => " 1 write in view lost at the failover.".to_string(),
                    n => format!(" {n} writes in view lost at the failover."),
                }}
            </p>
        </figure>
    }
}
