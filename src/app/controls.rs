//! The control panel: the token bucket's three parameters and the playback bar.

use leptos::prelude::*;

use super::playback::Playback;
use super::playground::Playground;
use super::slider::Slider;
use super::units::SliderScale;
use crate::sim::Rate;

/// Capacity: whole tokens, 1–100.
const CAPACITY: SliderScale = SliderScale::Linear { min: 1, max: 100 };
/// Refill rate: 0.1–1000 tokens/s, logarithmic.
const REFILL: SliderScale = SliderScale::Log { min: 0.1, max: 1000.0, steps: 1000 };
/// Arrival rate: 0.1–10 000 requests/s, logarithmic.
const RATE: SliderScale = SliderScale::Log { min: 0.1, max: 10_000.0, steps: 1000 };

/// Sliders for capacity, refill and arrival rate; every change restarts the simulation at t = 0.
#[component]
pub fn Controls(
    /// The page state the sliders edit.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let capacity = Signal::derive(move || pg.scenario.with(|s| s.capacity as f64));
    let refill = Signal::derive(move || pg.scenario.with(|s| s.refill.as_per_sec()));
    let rate = Signal::derive(move || pg.scenario.with(|s| s.rate.as_per_sec()));
    view! {
        <section class="panel controls" aria-labelledby="controls-title">
            <h2 id="controls-title">"Token bucket"</h2>
            <p class="hint">
                "Each request takes one token. Tokens drip back in at the refill rate, up to the capacity."
            </p>
            <Slider
                id="capacity"
                label="Capacity"
                unit="tokens"
                scale=CAPACITY
                value=capacity
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.capacity = v.round() as u64))
            />
            <Slider
                id="refill"
                label="Refill rate"
                unit="tokens/s"
                scale=REFILL
                value=refill
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.refill = Rate::from_per_sec(v)))
            />
            <Slider
                id="rate"
                label="Arrival rate"
                unit="requests/s"
                scale=RATE
                value=rate
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.rate = Rate::from_per_sec(v)))
            />
            <Show when=move || pg.error.get().is_some()>
                <p class="error" role="alert">{move || pg.error.get()}</p>
            </Show>
            <Playback playground=pg />
        </section>
    }
}
