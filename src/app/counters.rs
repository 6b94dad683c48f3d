//! The counters: requests, admitted, rejected, and the pass ratio next to its steady-state value.

use leptos::prelude::*;

use super::playground::Playground;
use super::units::format_percent;

/// Totals since the last restart, straight from the engine's metrics. The values of `#requests`,
/// `#admitted` and `#rejected` are plain integers so tests and screen readers read them as-is.
#[component]
pub fn Counters(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let snap = pg.snapshot;
    let ratio = move || {
        snap.with(|s| match s.requests {
            0 => "—".to_string(),
            _ => format_percent(s.pass_ratio),
        })
    };
    let predicted = move || format!("steady state {}", format_percent(pg.scenario.with(|s| s.predicted_pass_ratio())));
    view! {
        <dl class="counters">
            <div class="counter">
                <dt>"Requests"</dt>
                <dd id="requests">{move || snap.with(|s| s.requests)}</dd>
            </div>
            <div class="counter admitted">
                <dt>"Admitted"</dt>
                <dd id="admitted">{move || snap.with(|s| s.admitted)}</dd>
            </div>
            <div class="counter rejected">
                <dt>"Rejected"</dt>
                <dd id="rejected">{move || snap.with(|s| s.rejected)}</dd>
            </div>
            <div class="counter">
                <dt>"Pass ratio"</dt>
                <dd id="pass-ratio">{ratio}</dd>
                <dd
                    class="predicted"
                    id="pass-ratio-predicted"
                    title="min(1, refill ÷ arrival): the share a token bucket admits in the long run"
                >
                    {predicted}
                </dd>
            </div>
        </dl>
    }
}
