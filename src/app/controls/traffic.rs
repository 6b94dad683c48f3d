//! The traffic: arrival rate, arrival process (with the parameters of bursts and of many
//! clients, the seam attack's explanation, or a trace to replay) and the seed.

use leptos::prelude::*;

use crate::app::choice::Choice;
use crate::app::knob::{knob, BURST_OFF, BURST_ON, CLIENTS, RATE};
use crate::app::playground::Playground;
use crate::present::options::TRAFFIC;
use crate::sim::TrafficShape;

/// The traffic group.
#[component]
pub fn TrafficControls(
    /// The page state.
    playground: Playground,
    /// Draws the trace box ([`super::TraceInput`] in the whole page, a stand-in in the light
    /// one); the callback is told once a trace is in use.
    trace: fn(Playground, Callback<()>) -> AnyView,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    // "Replay my traffic" is shown as soon as it is picked, but the engine switches to it only
    // once a trace is loaded: until then the choice lives here.
    let pending_trace = RwSignal::new(false);
    let shape = Memo::new(move |_| if pending_trace.get() { TrafficShape::Trace } else { sc.with(|s| s.traffic) });
    let pick = move |t: TrafficShape| {
        let needs_trace = t == TrafficShape::Trace && sc.with_untracked(|s| s.trace.is_none());
        pending_trace.set(needs_trace);
        if !needs_trace {
            pg.edit(|s| s.traffic = t);
        }
    };
    let rate_unused = Signal::derive(move || matches!(shape.get(), TrafficShape::Seam | TrafficShape::Trace));
    let on_seed = move |ev: leptos::ev::Event| match event_target_value(&ev).trim().parse::<u64>() {
        Ok(seed) => pg.edit(|s| s.seed = seed),
        Err(_) => pg.error.set(Some("seed: a whole number from 0 to 18446744073709551615".into())),
    };
    let details = move || {
        match shape.get() {
        TrafficShape::Bursts => {
            let off = Signal::stored(false);
            view! { {knob(pg, &BURST_ON, off)} {knob(pg, &BURST_OFF, off)} }.into_any()
        }
        TrafficShape::Clients => knob(pg, &CLIENTS, Signal::stored(false)),
        TrafficShape::Seam => view! {
            <p class="hint" id="seam-hint">
                "The attack on fixed windows: limit requests in the last 1 % of every other window, limit more in the first 1 % of the next. The arrival rate is not used."
            </p>
        }
        .into_any(),
        TrafficShape::Trace => trace(pg, Callback::new(move |()| pending_trace.set(false))),
        TrafficShape::Constant | TrafficShape::Poisson => ().into_any(),
    }
    };
    view! {
        <fieldset class="group in-use">
            <legend>"Traffic"</legend>
            // The seam and a replayed trace set their own arrivals: no rate to show.
            {move || (!rate_unused.get()).then(|| knob(pg, &RATE, Signal::stored(false)))}
            <Choice
                id="traffic"
                label="Shape"
                options=&TRAFFIC
                value=shape
                on_change=Callback::new(pick)
            />
            {details}
            <div class="field">
                <label for="seed">"Seed"</label>
                <input type="number" id="seed" min="0" step="1" inputmode="numeric"
                    prop:value=move || sc.with(|s| s.seed.to_string()) on:change=on_seed />
                <span class="hint">"same seed, same run"</span>
            </div>
        </fieldset>
    }
}
