//! The parameter panel: the limiter, the traffic and the clients, each in its own group. Every
//! change is validated by the engine and restarts the simulation.

mod clients;
pub(crate) mod limiter;
mod product;
mod trace;
pub(crate) mod traffic;

use leptos::prelude::*;

use super::playground::Playground;
use clients::ClientControls;
use limiter::LimiterControls;
pub use product::{product_reads, ChoiceMenu, ProductControls};
pub use trace::TraceInput;
use traffic::TrafficControls;

/// All parameter groups, and the engine's message when a value was refused.
#[component]
pub fn Controls(
    /// The page state the controls edit.
    playground: Playground,
    /// Draws what goes above the limiter's groups: the cluster's groups in multi-node mode, and
    /// which product model reads the parameters (the whole page's; the light page has neither).
    cluster: fn(Playground) -> AnyView,
    /// Draws the trace box of "Replay my traffic" (see `TrafficControls`).
    trace: fn(Playground, Callback<()>) -> AnyView,
    /// Whether the groups are drawn yet: the panel's frame holds its place in the layout from the
    /// first frame, its groups come once the running chart is on screen.
    settled: Signal<bool>,
) -> impl IntoView {
    let pg = playground;
    let groups = move || {
        settled.get().then(|| {
            view! {
                {cluster(pg)}
                <LimiterControls playground=pg />
                <TrafficControls playground=pg trace=trace />
                <ClientControls playground=pg />
            }
        })
    };
    view! {
        <section class="panel controls" aria-labelledby="controls-title">
            <h2 id="controls-title">"Parameters"</h2>
            {groups}
            {move || pg.error.get().map(|e| view! { <p class="error" id="param-error" role="alert">{e}</p> })}
        </section>
    }
}
