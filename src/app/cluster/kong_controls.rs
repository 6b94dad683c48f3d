//! Kong's own store mode (`store=sync`, its `policy: redis`): whether every request waits for
//! Redis (Kong's `sync_rate: -1`) or nodes sync every `sync_rate` seconds, and that rate.

use leptos::prelude::*;

use crate::app::knob::field_range;
use crate::app::playground::Playground;
use crate::app::slider::Slider;
use crate::present::cluster::presets::{FIRST_SYNC_RATE_MS, SYNC_RATE_S};
use crate::sim::products::kong::SYNC_RATE;

/// The `sync_rate` controls, for `store=sync`.
#[component]
pub fn KongSyncControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    // Milliseconds; 0 for Kong's -1.
    let rate = Memo::new(move |_| sc.with(|s| s.product.get(&SYNC_RATE)));
    let set = move |ms: u64| pg.edit(|s| s.product.set(&SYNC_RATE, ms));
    view! {
        <label class="check">
            <input type="checkbox" id="sync-every-request" prop:checked=move || rate.get() == 0
                on:change=move |ev| set(if event_target_checked(&ev) { 0 } else { FIRST_SYNC_RATE_MS }) />
            <span>"Every request waits for Redis (sync_rate −1, Kong's default)"</span>
        </label>
        // Every request waiting for Redis leaves no sync period to set.
        <Show when=move || rate.get() != 0>
            <Slider
                id="sync-rate"
                range=field_range("sync_rate")
                label="Nodes sync every"
                unit="s"
                scale=SYNC_RATE_S
                value=Signal::derive(move || rate.get() as f64 / 1e3)
                on_change=Callback::new(move |v: f64| set((v * 1e3).round().max(20.0) as u64))
            />
        </Show>
    }
}
