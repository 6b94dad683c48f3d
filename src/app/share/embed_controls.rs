//! The controls an embed's author chose (`controls=rate,capacity`), as the same sliders and
//! selects as the full page, with the same scales, in a compact grid. A frame's own module draws
//! one server's controls ([`one_server_control`]); the whole page's also a multi-node widget's
//! nodes, store and round trip ([`any_control`]).

use leptos::prelude::*;

use crate::app::choice::Choice;
use crate::app::cluster::{nodes_slider, rtt_slider, store_hint, store_select};
use crate::app::knob::{knob, CAPACITY, LIMIT, RATE, REFILL, WINDOW};
use crate::app::playground::Playground;
use crate::present::options::{speed_value, Labelled, View, SPEEDS, TRAFFIC, VIEWS};
use crate::present::share::link::EmbedControl;
use crate::present::units::format_number;
use crate::sim::TrafficShape;

/// The algorithms a frame offers: the six where this module runs the leaky bucket's queue (the
/// whole page's frames), else the five textbook ones; compare mode does not fit a small frame.
fn algorithms(pg: Playground) -> &'static [Labelled<View>] {
    VIEWS.split_at(if pg.caps.has(crate::sim::engine::capabilities::Part::Models) { 6 } else { 5 }).0
}
/// Every arrival process but a replayed trace, which needs the full page's trace box.
const SHAPES: &[Labelled<TrafficShape>] = TRAFFIC.split_at(5).0;

/// Draws one chosen control, and the line it adds under the row of controls, if any.
pub type ControlView = fn(Playground, EmbedControl) -> (AnyView, Option<AnyView>);

/// Any control as the page draws it, a multi-node widget's included; the store adds what the
/// chosen one does.
pub fn any_control(pg: Playground, which: EmbedControl) -> (AnyView, Option<AnyView>) {
    match which {
        EmbedControl::Nodes => (nodes_slider(pg).into_any(), None),
        EmbedControl::Store => (store_select(pg).into_any(), Some(store_hint(pg).into_any())),
        EmbedControl::Rtt => (rtt_slider(pg).into_any(), None),
        _ => one_server_control(pg, which),
    }
}

/// One chosen control of a one-server widget (a frame's module hands multi-node links over).
pub fn one_server_control(pg: Playground, which: EmbedControl) -> (AnyView, Option<AnyView>) {
    (one_server_view(pg, which), None)
}

/// The control itself.
fn one_server_view(pg: Playground, which: EmbedControl) -> AnyView {
    let sc = pg.scenario;
    match which {
        EmbedControl::Nodes | EmbedControl::Store | EmbedControl::Rtt => ().into_any(),
        EmbedControl::Algo => view! {
            <Choice id="algo" label="Algorithm" options=algorithms(pg) value=Signal::derive(move || pg.view())
                on_change=Callback::new(move |v: View| pg.set_view(v)) />
        }
        .into_any(),
        EmbedControl::Capacity => knob(pg, &CAPACITY, Signal::stored(false)),
        EmbedControl::Refill => knob(pg, &REFILL, Signal::stored(false)),
        EmbedControl::Limit => knob(pg, &LIMIT, Signal::stored(false)),
        EmbedControl::Window => knob(pg, &WINDOW, Signal::stored(false)),
        EmbedControl::Rate => knob(pg, &RATE, Signal::stored(false)),
        EmbedControl::Traffic => view! {
            <Choice id="traffic" label="Traffic" options=SHAPES value=Signal::derive(move || sc.with(|s| s.traffic))
                on_change=Callback::new(move |t| pg.edit(|s| s.traffic = t)) />
        }
        .into_any(),
        EmbedControl::Seed => view! {
            <div class="field">
                <label for="seed">"Seed"</label>
                <input type="number" id="seed" min="0" step="1" inputmode="numeric"
                    prop:value=move || sc.with(|s| s.seed.to_string())
                    on:change=move |ev| { if let Ok(seed) = event_target_value(&ev).trim().parse::<u64>() { pg.edit(|s| s.seed = seed) } } />
            </div>
        }
        .into_any(),
        EmbedControl::Speed => view! {
            <div class="field">
                <label for="speed">"Speed"</label>
                <select id="speed" on:change=move |ev| { if let Some(v) = crate::sim::support::nearest::nearest_f64(&event_target_value(&ev)) { pg.speed.set(v) } }>
                    {SPEEDS.into_iter().map(|s| view! {
                        <option value=speed_value(s) prop:selected=move || pg.speed.get() == s>{format!("{}×", format_number(s))}</option>
                    }).collect::<Vec<_>>()}
                </select>
            </div>
        }
        .into_any(),
    }
}

/// The chosen controls, in the order of [`crate::present::share::link::EMBED_CONTROLS`].
#[component]
pub fn EmbedControls(
    /// The page state the controls edit.
    playground: Playground,
    /// Which controls to show.
    controls: Vec<EmbedControl>,
    /// Draws each control.
    control: ControlView,
) -> impl IntoView {
    let pg = playground;
    (!controls.is_empty()).then(|| {
        let (views, notes): (Vec<AnyView>, Vec<Option<AnyView>>) = controls.into_iter().map(|c| control(pg, c)).unzip();
        let notes: Vec<AnyView> = notes.into_iter().flatten().collect();
        view! {
            <div class="embed-controls" role="group" aria-label="Parameters">
                {views}
                <Show when=move || pg.error.get().is_some()>
                    <p class="error" id="param-error" role="alert">{move || pg.error.get()}</p>
                </Show>
            </div>
            {(!notes.is_empty()).then(|| view! { <div class="embed-notes">{notes}</div> })}
        }
    })
}
