//! The outage card: while the store was down, what fail-open let through and what fail-closed
//! refused, measured over the stretch where every request that needed the store waited for it
//! in vain, next to what one exact limiter allows in that time.

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::present::cluster::outage::{summary, OutageReport};

/// The outage card (shown only when the scenario has an outage).
#[component]
pub fn OutageCard(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let report = Memo::new(move |_| {
        pg.snapshot.with(|s| (s.generation, s.completed_buckets));
        pg.with_runner(|r| r.sims().first().and_then(OutageReport::of)).flatten()
    });
    let store = Memo::new(move |_| pg.scenario.with(|s| s.store));
    let attr = move |f: fn(&OutageReport) -> u64| move || report.with(|r| r.as_ref().map_or(0, f));
    view! {
        <Show when=move || report.with(Option::is_some)>
            <section class="panel outage-card" aria-labelledby="outage-title" id="outage"
                data-decided=attr(|r| r.decided) data-admitted=attr(|r| r.admitted)
                data-phase=move || report.with(|r| r.as_ref().map(|r| format!("{:?}", r.phase)).unwrap_or_default())>
                <h2 id="outage-title">"While the store was down"</h2>
                <p role="status">{move || report.with(|r| r.as_ref().map(|r| summary(r, store.get())).unwrap_or_default())}</p>
            </section>
        </Show>
    }
}
