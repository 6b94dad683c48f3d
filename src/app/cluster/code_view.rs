//! The code card: what a node runs in the current store mode, with the line the most recent
//! engine event stands for highlighted; in atomic mode the Lua script that runs at the store
//! follows, lit while a script runs (in GET-then-SET mode it is one click away, as the fix).

use leptos::prelude::*;

use crate::app::fold::Fold;
use crate::app::playground::Playground;
use crate::present::cluster::choices::short_name;
use crate::present::cluster::code::{current, node_code, Current, Step};
use crate::present::units::format_secs;
use crate::production::configs;
use crate::sim::StoreMode;

/// What just happened, in words.
fn caption(c: &Current) -> String {
    let node = c.node + 1;
    let at = format_secs(c.at.as_secs_f64());
    let what = match c.step {
        Step::Receive => "a request reached node".to_string(),
        Step::Get => "the GET of node".to_string(),
        Step::Set if c.lost_update => "a SET overwrote another node's update: node".to_string(),
        Step::Set => "the SET of node".to_string(),
        Step::Script => format!("the script ran ({}) for node", if c.allowed { "200" } else { "429" }),
        Step::Increment => "an increment reached the store from node".to_string(),
        Step::Respond => format!("{} from node", if c.allowed { "200" } else { "429" }),
        Step::FailOver => format!("no answer from the store: {} from node", if c.allowed { "200" } else { "429" }),
    };
    format!("At {at}: {what} {node}")
}

/// The code card.
#[component]
pub fn CodeCard(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let store = Memo::new(move |_| pg.scenario.with(|s| s.store));
    let now = Memo::new(move |_| {
        pg.readout.with(|s| (s.generation, s.events));
        pg.with_runner(|r| r.sims().first().and_then(|s| current(s.metrics().events()))).flatten()
    });
    let step = Memo::new(move |_| now.get().map(|c| c.step));
    let lua = Memo::new(move |_| {
        pg.scenario
            .with(|s| configs(s).into_iter().find(|c| c.language == "lua").map(|c| c.snippet).unwrap_or_default())
    });
    let lines = move || {
        node_code(store.get())
            .iter()
            .map(|&(line_step, text)| {
                let lit = move || line_step.is_some() && step.get() == line_step;
                view! { <span class="code-line" class:lit=lit>{text}</span> }
            })
            .collect_view()
    };
    view! {
        <Fold playground=pg id="code-card" class="code-card" title=move || format!("On each node · {}", short_name(store.get()))>
            <pre class="code" id="node-code" data-step=move || step.get().map(|s| format!("{s:?}")).unwrap_or_default()><code>{lines}</code></pre>
            <p class="hint code-now" aria-live="off">{move || now.get().as_ref().map(caption).unwrap_or_else(|| "Waiting for the first request.".into())}</p>
            <Show when=move || store.get() == StoreMode::Race>
                <details class="code-fix">
                    <summary>"The fix: the same steps as one atomic Lua script"</summary>
                    <pre class="code lua"><code>{move || lua.get()}</code></pre>
                </details>
            </Show>
            <Show when=move || store.get() == StoreMode::Atomic>
                <h3 class="code-sub">"At the store: the script, run atomically"</h3>
                <pre class="code lua" id="lua-script" class:lit=move || step.get() == Some(Step::Script)><code>{move || lua.get()}</code></pre>
            </Show>
        </Fold>
    }
}
