//! The cluster's parameters: how many nodes, how the load balancer spreads requests, where the
//! limiter state lives, and the round trip to the store (logarithmic, 0.05–200 ms); then the
//! store's outage and its replica.

use leptos::prelude::*;

use super::kong_controls::KongSyncControls;
use super::outage_controls::OutageControls;
use super::replica_controls::ReplicaControls;
use crate::app::choice::Choice;
use crate::app::knob::field_range;
use crate::app::playground::Playground;
use crate::app::slider::Slider;
use crate::present::cluster::choices::{describe, BALANCERS, KONG_STORES, STORES};
use crate::present::cluster::presets::{NODES, RTT_MS};
use crate::sim::products::KONG;
use crate::sim::{Nanos, StoreMode};

/// The nodes slider.
pub fn nodes_slider(pg: Playground) -> impl IntoView {
    let sc = pg.scenario;
    view! {
        <Slider
            id="nodes"
            range=field_range("nodes")
            label="Nodes"
            unit="nodes"
            scale=NODES
            value=Signal::derive(move || sc.with(|s| f64::from(s.nodes)))
            on_change=Callback::new(move |v: f64| pg.edit(|s| s.nodes = v.round().clamp(1.0, 16.0) as u32))
        />
    }
}

/// Where the count lives (Kong adds its own `policy: redis`).
pub fn store_select(pg: Playground) -> impl IntoView {
    let sc = pg.scenario;
    let store = Memo::new(move |_| sc.with(|s| s.store));
    let kong = Memo::new(move |_| sc.with(|s| s.algo == KONG));
    move || {
        let options = if kong.get() { &KONG_STORES[..] } else { &STORES[..] };
        view! {
            <Choice
                id="store"
                label="Where the count lives"
                options=options
                value=store
                on_change=Callback::new(move |m| pg.edit(|s| s.store = m))
            />
        }
    }
}

/// What the chosen store does, in a sentence or two.
pub fn store_hint(pg: Playground) -> impl IntoView {
    view! { <p class="hint" id="store-hint">{move || pg.scenario.with(|s| describe(s.store))}</p> }
}

/// The round trip to the store, shown while there is a store to reach.
pub fn rtt_slider(pg: Playground) -> impl IntoView {
    let sc = pg.scenario;
    view! {
        <Show when=move || sc.with(|s| s.store != StoreMode::Local)>
            <Slider
                id="rtt"
                range=field_range("rtt")
                label="Round trip to the store"
                unit="ms"
                scale=RTT_MS
                value=Signal::derive(move || sc.with(|s| s.rtt.as_secs_f64() * 1e3))
                on_change=Callback::new(move |v: f64| pg.edit(|s| s.rtt = Nanos::from_secs_f64(v / 1e3)))
            />
        </Show>
    }
}

/// The cluster group and the outage group, shown in multi-node mode above the limiter's.
#[component]
pub fn ClusterControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let store = Memo::new(move |_| sc.with(|s| s.store));
    view! {
        <fieldset class="group in-use cluster-group">
            <legend>"Cluster"</legend>
            {nodes_slider(pg)}
            <Choice
                id="lb"
                label="Load balancer"
                options=&BALANCERS
                value=Signal::derive(move || sc.with(|s| s.lb))
                on_change=Callback::new(move |b| pg.edit(|s| s.lb = b))
            />
            {store_select(pg)}
            {store_hint(pg)}
            <Show when=move || store.get() == StoreMode::Sync>
                <KongSyncControls playground=pg />
            </Show>
            {rtt_slider(pg)}
        </fieldset>
        <OutageControls playground=pg />
        <ReplicaControls playground=pg />
    }
}
