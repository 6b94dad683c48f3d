//! Taking the store down: when and for how long, how long a node waits for it, and whether it
//! then fails open (admits) or closed (rejects).

use leptos::prelude::*;

use crate::app::choice::Choice;
use crate::app::knob::field_range;
use crate::app::playground::Playground;
use crate::app::slider::Slider;
use crate::present::cluster::choices::FAILS;
use crate::present::cluster::presets::{OUTAGE_LENGTH_S, OUTAGE_START_S, TIMEOUT_MS};
use crate::present::units::format_secs;
use crate::sim::query::Range;
use crate::sim::{Nanos, Outage, SimTime, StoreMode};

/// What the outage's two number fields take: seconds to the millisecond, within the day
/// `outage=START-END` allows.
const OUTAGE_FIELD: Range = Range { min: 0, max: 86_400_000, digits: 3, unit: "s" };

/// The outage the checkbox switches on: from 10 s to 20 s.
const FIRST_OUTAGE: Outage = Outage { start: SimTime::from_secs(10), end: SimTime::from_secs(20) };

/// The outage group (only meaningful when there is a store).
#[component]
pub fn OutageControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let outage = Memo::new(move |_| sc.with(|s| s.outage));
    let no_store = Signal::derive(move || sc.with(|s| s.store == StoreMode::Local));
    let secs = |t: SimTime| t.as_nanos() as f64 / 1e9;
    let start = Signal::derive(move || outage.get().map_or(10.0, |o| secs(o.start)));
    let length = Signal::derive(move || outage.get().map_or(10.0, |o| secs(o.end) - secs(o.start)));
    let set = move |from: f64, len: f64| {
        let start = SimTime::from_secs_f64(from.max(0.0));
        pg.edit(|s| s.outage = Some(Outage { start, end: start + Nanos::from_secs_f64(len.max(0.001)) }));
    };
    let hint = move || {
        sc.with(|s| {
            let wait = format_secs(s.timeout.as_secs_f64());
            match (s.store, s.timeout < s.rtt) {
                (StoreMode::Local, _) => "Nothing is shared, so there is no store to lose.".to_string(),
                (_, true) => format!("A timeout of {wait} is shorter than the round trip: every request times out."),
                (StoreMode::Async, _) => {
                    "Edge nodes keep deciding from their own view; their increments are lost.".into()
                }
                _ => format!("Requests needing the store wait {wait}, then the node answers by its fail mode."),
            }
        })
    };
    view! {
        <fieldset class="group in-use outage-group">
            <legend>"Store outage"</legend>
            // Nothing shared, no store to lose: the group is its hint.
            <Show when=move || !no_store.get()>
                <label class="check">
                    <input
                        type="checkbox"
                        id="outage-on"
                        prop:checked=move || outage.get().is_some()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            pg.edit(|s| s.outage = on.then_some(FIRST_OUTAGE));
                        }
                    />
                    <span>"Take the store down for a while"</span>
                </label>
                <Show when=move || outage.get().is_some()>
                    <Slider id="outage-start" label="Goes down at" unit="s" scale=OUTAGE_START_S value=start range=OUTAGE_FIELD
                        on_change=Callback::new(move |v: f64| set(v, length.get_untracked())) />
                    <Slider id="outage-length" label="Stays down for" unit="s" scale=OUTAGE_LENGTH_S value=length range=OUTAGE_FIELD
                        on_change=Callback::new(move |v: f64| set(start.get_untracked(), v)) />
                </Show>
                <Slider
                    id="timeout"
                    range=field_range("timeout")
                    label="Node waits for the store"
                    unit="ms"
                    scale=TIMEOUT_MS
                    value=Signal::derive(move || sc.with(|s| s.timeout.as_secs_f64() * 1e3))
                    on_change=Callback::new(move |v: f64| pg.edit(|s| s.timeout = Nanos::from_secs_f64(v / 1e3)))
                />
                <Choice
                    id="fail"
                    label="Then"
                    options=&FAILS
                    value=Signal::derive(move || sc.with(|s| s.fail))
                    on_change=Callback::new(move |f| pg.edit(|s| s.fail = f))
                />
            </Show>
            <p class="hint" id="outage-hint">{hint}</p>
        </fieldset>
    }
}
