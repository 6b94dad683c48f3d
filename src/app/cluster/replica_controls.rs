//! The store's replica: a failover to it (when), and how far it lags behind its primary — which
//! both a failover and nodes reading it (`store=replica_read`) depend on; and the nodes' clocks:
//! how far apart, and whether the store's stamps the requests instead; and how many keys of a
//! Redis Cluster the limiter is split over.

use leptos::prelude::*;

use crate::app::controls::ChoiceMenu;
use crate::app::knob::field_range;
use crate::app::playground::Playground;
use crate::app::slider::Slider;
use crate::present::cluster::presets::{FAILOVER_AT_S, REPLICA_LAG_MS};
use crate::present::cluster::presets::{SHARD_KEYS, SKEW_MS};
use crate::present::units::format_number;
use crate::sim::products::Choice;
use crate::sim::store_keys::{failover, FAILOVER, NOW, REPLICA_LAG, SHARDS, SKEW};
use crate::sim::StoreMode;

/// The failover the checkbox switches on: at 10 s (ms).
const FIRST_FAILOVER_MS: u64 = 10_000;

/// The replica group (meaningful with a shared store).
#[component]
pub fn ReplicaControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let at = Memo::new(move |_| sc.with(|s| failover(&s.product)));
    let store = Memo::new(move |_| sc.with(|s| s.store));
    let shared = Signal::derive(move || !matches!(store.get(), StoreMode::Local | StoreMode::Sync));
    let used = Signal::derive(move || shared.get() && (at.get().is_some() || store.get() == StoreMode::ReplicaRead));
    let lag_ms = Signal::derive(move || sc.with(|s| s.product.get(&REPLICA_LAG)) as f64 / 1e3);
    let hint = move || {
        let ms = lag_ms.get();
        let lag =
            if ms < 1000.0 { format!("{} ms", format_number(ms)) } else { format!("{} s", format_number(ms / 1e3)) };
        let reads = store.get() == StoreMode::ReplicaRead;
        let reads_too = if reads {
            format!(" Until then, nodes read counts {lag} old, plus the round trip.")
        } else {
            String::new()
        };
        match (shared.get(), at.get()) {
            (false, _) if store.get() == StoreMode::Sync => {
                "Kong's counters are modelled without a replica.".to_string()
            }
            (false, _) => "No shared store here, so no replica: choose a shared one under Cluster.".to_string(),
            (true, Some(t)) => format!(
                "At {} s the primary dies and its replica, {lag} behind, takes over: what the primary counted in \
                 the {lag} before is lost, and the limiter admits it again.{reads_too}",
                format_number(t.as_nanos() as f64 / 1e9)
            ),
            (true, None) if reads => {
                format!("Nodes read counts {lag} old, plus the round trip: what the replica has not seen passes.")
            }
            (true, None) => "Redis replicates asynchronously: a replica is a little behind its primary.".into(),
        }
    };
    let shards_hint = move || {
        sc.with(|s| {
            let k = crate::sim::shards::count(s);
            match (crate::sim::shards::applies(s), k) {
                (true, _) => format!(
                    "{k} keys on different hash slots, each allowed a {k}th of the limit; a request counts on one at \
                     random. The load spreads, but one key refuses while another has room."
                ),
                (false, 1) => "One key: in a Redis Cluster, one primary takes every request (a hot key).".into(),
                (false, _) => "Splitting the limit needs the atomic script or GET then SET on a textbook meter, \
                               and no failover."
                    .into(),
            }
        })
    };
    // What does not apply is not shown (a greyed control reads as broken and is hard to read):
    // without a shared store the group is its hint; the lag only with a failover or replica
    // reads; the split only where it can run.
    let splits = Signal::derive(move || matches!(store.get(), StoreMode::Atomic | StoreMode::Race));
    view! {
        <fieldset class="group in-use replica-group">
            <legend>"Replica, clocks, keys"</legend>
            <Show when=move || shared.get()>
                <label class="check">
                    <input type="checkbox" id="failover-on" prop:checked=move || at.get().is_some()
                        on:change=move |ev| {
                            let on = event_target_checked(&ev);
                            pg.edit(|s| s.product.set(&FAILOVER, if on { FIRST_FAILOVER_MS } else { 0 }));
                        } />
                    <span>"Fail over to the replica"</span>
                </label>
                <Show when=move || at.get().is_some()>
                    <Slider id="failover-at" label="The primary dies at" unit="s" scale=FAILOVER_AT_S range=field_range(FAILOVER.key)
                        value=Signal::derive(move || at.get().map_or(10.0, |t| t.as_nanos() as f64 / 1e9))
                        on_change=Callback::new(move |v: f64| pg.edit(|s| s.product.set(&FAILOVER, (v * 1e3).round().max(1.0) as u64))) />
                </Show>
                <Show when=move || used.get()>
                    <Slider id="replica-lag" label="The replica lags behind" unit="ms" scale=REPLICA_LAG_MS range=field_range(REPLICA_LAG.key)
                        value=lag_ms
                        on_change=Callback::new(move |v: f64| pg.edit(|s| s.product.set(&REPLICA_LAG, (v * 1e3).round().max(0.0) as u64))) />
                </Show>
            </Show>
            <p class="hint" id="replica-hint">{hint}</p>
            <Show when=move || shared.get()>
                <Slider id="skew" label="Node clocks apart by ±" unit="ms" scale=SKEW_MS range=field_range(SKEW.key)
                    value=Signal::derive(move || sc.with(|s| s.product.get(&SKEW)) as f64 / 1e3)
                    on_change=Callback::new(move |v: f64| pg.edit(|s| s.product.set(&SKEW, (v * 1e3).round().max(0.0) as u64))) />
                <ChoiceMenu playground=pg choice=Choice { id: "now", label: "Time from", key: &NOW,
                    labels: &["each node's clock", "Redis TIME"] } />
                <Show when=move || splits.get()>
                    <Slider id="shards" label="Split the limit over" unit="keys" scale=SHARD_KEYS range=field_range(SHARDS.key)
                        value=Signal::derive(move || sc.with(crate::sim::shards::count) as f64)
                        on_change=Callback::new(move |v: f64| pg.edit(|s| s.product.set(&SHARDS, v.round().clamp(1.0, 16.0) as u64))) />
                </Show>
                <p class="hint" id="shards-hint">{shards_hint}</p>
            </Show>
        </fieldset>
    }
}
