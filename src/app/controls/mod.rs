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
) -> impl IntoView {
    let pg = playground;
    view! {
        <section class="panel controls" aria-labelledby="controls-title">
            <h2 id="controls-title">"Parameters"</h2>
            {cluster(pg)}
            <LimiterControls playground=pg />
            <TrafficControls playground=pg trace=trace />
            <ClientControls playground=pg />
            {move || pg.error.get().map(|e| view! { <p class="error" id="param-error" role="alert">{e}</p> })}
        </section>
    }
}
