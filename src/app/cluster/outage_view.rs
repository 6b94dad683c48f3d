//! The outage card: while the store was down, what fail-open let through and what fail-closed
//! refused, measured over the stretch where every request that needed the store waited for it
//! in vain, next to what one exact limiter allows in that time.

use leptos::prelude::*;

use super::outage::{OutageReport, Phase};
use crate::app::playground::Playground;
use crate::app::units::{format_number, format_secs, group_thousands};
use crate::sim::{FailMode, StoreMode};

/// What the report says, in words.
fn summary(r: &OutageReport, store: StoreMode) -> String {
    let s = |t: crate::sim::SimTime| format_secs(t.as_secs_f64());
    let when = format!("The store is down from {} to {}", s(r.start), s(r.end));
    if r.decided == 0 {
        return match r.phase {
            Phase::Ahead => format!("{when}; the run has not got there yet (jump ahead)."),
            _ => format!("{when}; nothing measured yet in whole seconds after the first timeout."),
        };
    }
    let stretch = format!("From {} to {}", s(r.from), s(r.to));
    let allowed = format_number(r.allowed.round());
    let (n, a) = (group_thousands(r.decided), group_thousands(r.admitted));
    match (store, r.fail) {
        (StoreMode::Async, _) => format!(
            "{when}. {stretch} the edge nodes kept deciding from their own views: {a} of {n} admitted, where one exact limiter allows about {allowed}."
        ),
        (_, FailMode::Open) => format!(
            "{when}. {stretch} every node timed out and failed open: {a} of {n} requests admitted, where one exact limiter allows about {allowed}."
        ),
        (_, FailMode::Closed) => format!(
            "{when}. {stretch} every node timed out and failed closed: {a} of {n} requests admitted — {} refused, although about {allowed} were within the limit.",
            group_thousands(r.decided - r.admitted)
        ),
    }
}

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
