//! The cluster's headline numbers: requests, admitted and rejected, what one exact limiter admits
//! on the same arrivals, and the difference — over-admission, live and as a percentage — with
//! lost updates, timeouts and the decision latency underneath. Values of the counters are plain
//! integers so tests and screen readers read them as they are.

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::present::cluster::presets::cannot_race;
use crate::present::cluster::readout::{format_latency, ClusterReadout};
use crate::present::units::group_thousands;
use crate::sim::StoreMode;

/// The counters and the facts line of the multi-node view.
#[component]
pub fn ClusterStats(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let r = Memo::new(move |_| {
        pg.readout.with(|s| (s.generation, s.events));
        pg.with_runner(|run| run.sims().first().map(ClusterReadout::of)).flatten().unwrap_or_default()
    });
    let rejected = Memo::new(move |_| pg.readout.with(|s| s.main().map_or(0, |c| c.totals.rejected)));
    let over = move || r.with(ClusterReadout::over_label);
    let share = move || r.with(ClusterReadout::share_label);
    let store = Memo::new(move |_| pg.scenario.with(|s| s.store));
    // A memo, so the line is drawn anew only when its words change, not at every readout.
    let below_zero = Memo::new(move |_| pg.scenario.with(|sc| r.with(|r| r.below_zero(sc))));
    view! {
        <section class="stats cluster-stats" aria-label="Counts since t = 0">
            <dl class="counters cluster-counters">
                <div class="counter"><dt>"Requests"</dt><dd id="requests">{move || r.with(|r| group_thousands(r.requests))}</dd></div>
                <div class="counter admitted"><dt>"Admitted"</dt><dd id="admitted">{move || r.with(|r| group_thousands(r.admitted))}</dd></div>
                <div class="counter rejected"><dt>"Rejected (429)"</dt><dd id="rejected">{move || group_thousands(rejected.get())}</dd></div>
                <div class="counter exact"><dt>"Exact limiter"</dt><dd id="reference">{move || r.with(|r| group_thousands(r.reference))}</dd>
                    <dd class="predicted">"one, same arrivals"</dd></div>
                <div class="counter over" class:alert=move || r.with(|r| r.over_admitted() > 0)>
                    <dt>"Over-admitted"</dt>
                    <dd id="over-admitted" data-admitted=move || r.with(|r| r.admitted) data-reference=move || r.with(|r| r.reference)>{over}</dd>
                    <dd class="predicted" id="over-ratio">{share}</dd>
                </div>
            </dl>
            <ul class="facts" id="cluster-facts">
                <li id="latency">{move || r.with(|r| format!("Decision latency p50 {} · p99 {}", format_latency(r.p50), format_latency(r.p99)))}</li>
                <Show when=move || store.get() == StoreMode::Race>
                    <li id="lost-updates">{move || r.with(|r| format!("{} lost updates", group_thousands(r.lost_updates)))}</li>
                </Show>
                {move || pg.scenario.with(cannot_race).map(|why| view! { <li id="no-race" class="no-race">{why}</li> })}
                {move || below_zero.get().map(|why| view! { <li id="below-zero">{why}</li> })}
                <Show when=move || pg.scenario.with(|s| crate::sim::store_keys::failover(&s.product).is_some())>
                    <li id="lost-increments">{move || r.with(|r| format!("{} increments lost in the failover", group_thousands(r.replica.map_or(0, |(lost, _)| lost))))}</li>
                </Show>
                <Show when=move || store.get() == StoreMode::ReplicaRead>
                    <li id="stale-reads">{move || r.with(|r| format!("{} stale reads", group_thousands(r.replica.map_or(0, |(_, stale)| stale))))}</li>
                </Show>
                <Show when=move || r.with(|r| r.timeouts > 0)>
                    <li id="timeouts">{move || r.with(|r| format!("{} timed out", group_thousands(r.timeouts)))}</li>
                </Show>
                <Show when=move || r.with(|r| r.retries > 0)>
                    <li id="cluster-retries">{move || r.with(|r| format!("{} retries", group_thousands(r.retries)))}</li>
                </Show>
            </ul>
        </section>
    }
}
