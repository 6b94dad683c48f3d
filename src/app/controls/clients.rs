//! How clients behave after a 429, and whether rejected requests still count against the limit.

use leptos::prelude::*;

use crate::app::choice::Choice;
use crate::app::knob::{knob, MAX_RETRIES};
use crate::app::playground::Playground;
use crate::present::options::RETRIES;
use crate::present::units::format_secs;
use crate::sim::{RetryPolicy, Scenario};

/// What the chosen retry policy does, with the scenario's numbers.
fn describe(sc: &Scenario) -> String {
    let s = |n: crate::sim::Nanos| format_secs(n.as_secs_f64());
    match sc.retry {
        RetryPolicy::GiveUp => "A rejected request is lost.".into(),
        RetryPolicy::Exact => {
            "Every client comes back exactly when Retry-After says, so retries arrive together.".into()
        }
        RetryPolicy::Jitter => {
            format!("Waits Retry-After + {} + a random share of up to {}.", s(sc.headroom), s(sc.jitter))
        }
        RetryPolicy::Backoff => format!(
            "Waits a random time below min({}, {} × 2^attempt), ignoring Retry-After.",
            s(sc.backoff_cap),
            s(sc.backoff_base)
        ),
    }
}

/// The clients group.
#[component]
pub fn ClientControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let retry = Memo::new(move |_| sc.with(|s| s.retry));
    let retrying = Memo::new(move |_| retry.get() != RetryPolicy::GiveUp);
    view! {
        <fieldset class="group in-use">
            <legend>"Clients after a 429"</legend>
            <Choice
                id="retry"
                label="Retry policy"
                options=&RETRIES
                value=retry
                on_change=Callback::new(move |r| pg.edit(|s| s.retry = r))
            />
            <p class="hint" id="retry-hint">{move || sc.with(describe)}</p>
            {move || retrying.get().then(|| knob(pg, &MAX_RETRIES, Signal::stored(false)))}
            <label class="check">
                <input
                    type="checkbox"
                    id="count-rejected"
                    prop:checked=move || sc.with(|s| s.count_rejected)
                    on:change=move |ev| pg.edit(|s| s.count_rejected = event_target_checked(&ev))
                />
                <span>"Rejected requests count against the limit too"</span>
            </label>
        </fieldset>
    }
}
