//! The limiter's parameters: capacity and refill (token bucket, GCRA), limit and window (the
//! window algorithms) — by default derived from the bucket so every algorithm allows the same
//! burst and the same long-run rate.

use leptos::prelude::*;

use crate::app::options::is_windowed;
use crate::app::playground::Playground;
use crate::app::slider::Slider;
use crate::app::units::SliderScale;
use crate::sim::{Nanos, Rate};

/// Capacity: whole tokens, 1–100.
pub(crate) const CAPACITY: SliderScale = SliderScale::Linear { min: 1, max: 100 };
/// Refill rate: 0.1–1000 tokens/s, logarithmic.
pub(crate) const REFILL: SliderScale = SliderScale::Log { min: 0.1, max: 1000.0, steps: 1000 };
/// Limit per window: 1–100 requests.
pub(crate) const LIMIT: SliderScale = SliderScale::Linear { min: 1, max: 100 };
/// Window: 0.1 s – 1 h, logarithmic.
pub(crate) const WINDOW: SliderScale = SliderScale::Log { min: 0.1, max: 3600.0, steps: 1000 };

/// The bucket group and the window group; the group the current view uses is highlighted.
#[component]
pub fn LimiterControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let derived = move || sc.with(|s| s.limit.is_none() && s.window.is_none());
    let windows_used = move || pg.compare.get() || is_windowed(pg.textbook());
    let bucket_used = move || pg.compare.get() || !is_windowed(pg.textbook()) || derived();
    let on_derive = move |ev: leptos::ev::Event| {
        if event_target_checked(&ev) {
            pg.edit(|s| (s.limit, s.window) = (None, None));
        } else {
            pg.edit(|s| (s.limit, s.window) = (Some(s.effective_limit()), Some(s.effective_window())));
        }
    };
    view! {
        <fieldset class="group" class:in-use=bucket_used>
            <legend>"Token bucket · GCRA"</legend>
            <Slider
                id="capacity"
                label="Capacity"
                unit="tokens"
                scale=CAPACITY
                value=Signal::derive(move || sc.with(|s| s.capacity as f64))
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.capacity = v.round().max(1.0) as u64))
            />
            <Slider
                id="refill"
                label="Refill rate"
                unit="tokens/s"
                scale=REFILL
                value=Signal::derive(move || sc.with(|s| s.refill.as_per_sec()))
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.refill = Rate::from_per_sec(v)))
            />
        </fieldset>
        <fieldset class="group" class:in-use=windows_used>
            <legend>"Windows"</legend>
            <label class="check">
                <input type="checkbox" id="derive-window" prop:checked=derived on:change=on_derive />
                <span>"Match the bucket: limit = capacity, window = capacity ÷ refill"</span>
            </label>
            <Slider
                id="limit"
                label="Limit"
                unit="requests"
                scale=LIMIT
                value=Signal::derive(move || sc.with(|s| s.effective_limit() as f64))
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.limit = Some(v.round().max(1.0) as u64)))
                disabled=Signal::derive(derived)
            />
            <Slider
                id="window"
                label="Window"
                unit="s"
                scale=WINDOW
                value=Signal::derive(move || sc.with(|s| s.effective_window().as_secs_f64()))
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.window = Some(Nanos::from_secs_f64(v))))
                disabled=Signal::derive(derived)
            />
        </fieldset>
    }
}
