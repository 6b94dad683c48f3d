//! The limiter's parameters: capacity and refill (token bucket, GCRA; the leaky bucket's queue
//! size and drain rate, as its explanation says), limit and window (the window algorithms) — by default derived from the bucket so every algorithm allows the same
//! burst and the same long-run rate.

use leptos::prelude::*;

use crate::app::knob::{knob, CAPACITY, LIMIT, REFILL, WINDOW};
use crate::app::playground::Playground;
use crate::present::options::is_windowed;

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
            <legend>"Token bucket · GCRA · leaky bucket"</legend>
            {knob(pg, &CAPACITY, Signal::stored(false))}
            {knob(pg, &REFILL, Signal::stored(false))}
        </fieldset>
        <fieldset class="group" class:in-use=windows_used>
            <legend>"Windows"</legend>
            <label class="check">
                <input type="checkbox" id="derive-window" prop:checked=derived on:change=on_derive />
                <span>"Match the bucket: limit = capacity, window = capacity ÷ refill"</span>
            </label>
            {knob(pg, &LIMIT, Signal::derive(derived))}
            {knob(pg, &WINDOW, Signal::derive(derived))}
        </fieldset>
    }
}
