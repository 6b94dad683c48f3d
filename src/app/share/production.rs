//! "Use this in production": the current policy as configuration for every product
//! ([`crate::production::configs`]), one tab per target (arrow keys move between them, as in any
//! tab list), with a Copy button and the notes on units and burst semantics always in view, and
//! below, the same policy run through every product ([`EveryProduct`]). Plain text, no highlighter.

use leptos::html::Pre;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::clipboard::CopyButton;
use super::every_product::EveryProduct;
use super::run_config::run_and_show;
use crate::app::fold::Fold;
use crate::app::playground::Playground;
use crate::production::{configs, Policy, EXPORT_NAMES};
use crate::sim::product_runs::{model_of_export, side_by_side};
use crate::sim::products::{export_name, product_name};

/// Most requests the side-by-side simulates on each change (two runs of this many).
const SIDE_BY_SIDE_MAX: u128 = 500_000;

/// Element id of the tab of target `i`.
fn tab_id(i: usize) -> String {
    format!("production-tab-{i}")
}

/// The production panel.
#[component]
pub fn ProductionPanel(
    /// The page state whose policy is shown.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let all = Memo::new(move |_| pg.scenario.with(configs));
    let chosen = RwSignal::new(0usize);
    // A product's link opens on the product's own tab, and picking another product moves there;
    // a tab clicked stays chosen until the product changes.
    let own = Memo::new(move |_| {
        let export = pg.scenario.with(|s| export_name(s.algo))?;
        EXPORT_NAMES.iter().position(|&n| n == export)
    });
    Effect::new(move |_| {
        if let Some(i) = own.get() {
            chosen.set(i);
        }
    });
    let current = Memo::new(move |_| all.with(|a| a.get(chosen.get()).cloned()));
    let snippet = Signal::derive(move || current.with(|c| c.as_ref().map(|c| c.snippet.clone()).unwrap_or_default()));
    let code = NodeRef::<Pre>::new();
    let select = Callback::new(move |()| {
        let (Some(pre), Ok(Some(selection))) = (code.get_untracked(), window().get_selection()) else { return };
        let _ = selection.select_all_children(&pre);
    });
    let policy = move || {
        let (p, queue) = pg.scenario.with(|s| (Policy::exported(s), s.algo == crate::sim::Algorithm::LeakyBucket));
        if queue {
            return format!(
                "The current policy — a queue of {} drained at {} requests/s — as configuration for the limiter you run: nginx without nodelay is that queue; the others cannot hold requests as it does, and their notes say what they do instead.",
                p.burst - 1,
                p.per_sec()
            );
        }
        format!(
            "The current policy — at most {} at once from idle, {} requests/s sustained — as configuration for the limiter you run. The notes say which unit each one counts in and what its “burst” means: that is where translations go wrong.",
            p.burst,
            p.per_sec()
        )
    };
    let count = move || all.with(Vec::len);
    let on_key = move |ev: leptos::ev::KeyboardEvent| {
        let n = count();
        let next = match ev.key().as_str() {
            "ArrowRight" | "ArrowDown" => (chosen.get_untracked() + 1) % n,
            "ArrowLeft" | "ArrowUp" => (chosen.get_untracked() + n - 1) % n,
            "Home" => 0,
            "End" => n - 1,
            _ => return,
        };
        ev.prevent_default();
        chosen.set(next);
        if let Some(tab) =
            document().get_element_by_id(&tab_id(next)).and_then(|t| t.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = tab.focus();
        }
    };
    let tabs = move || {
        all.with(|a| {
            a.iter()
                .enumerate()
                .map(|(i, c)| {
                    let selected = move || chosen.get() == i;
                    view! {
                        <button type="button" role="tab" id=tab_id(i) class="tab" data-target=c.target
                            aria-selected=move || selected().to_string() aria-controls="production-tabpanel"
                            tabindex=move || if selected() { "0" } else { "-1" } on:click=move |_| chosen.set(i)>
                            {c.target}
                        </button>
                    }
                })
                .collect_view()
        })
    };
    let field = move |f: fn(&crate::production::Config) -> String| {
        move || current.with(|c| c.as_ref().map(f).unwrap_or_default())
    };
    let notes = move || {
        current.with(|c| c.iter().flat_map(|c| c.notes.iter()).map(|n| view! { <li>{n.clone()}</li> }).collect_view())
    };
    // The CLI's name of the chosen tab (`configs` and `EXPORT_NAMES` share their order).
    let tab = move || EXPORT_NAMES[chosen.get().min(EXPORT_NAMES.len() - 1)];
    let run = move |_| run_and_show(pg, EXPORT_NAMES[chosen.get_untracked().min(EXPORT_NAMES.len() - 1)]);
    let model = move || pg.scenario.with(|s| model_of_export(s, tab())).map_or("", product_name);
    let running = move || pg.scenario.with(|s| s.algo.is_product() && model_of_export(s, tab()) == Some(s.algo));
    let side = Memo::new(move |_| {
        pg.scenario.with(|s| {
            if !s.algo.is_product() {
                None
            } else if crate::sim::report::run_requests(s) > SIDE_BY_SIDE_MAX {
                Some("This run is too long to simulate twice on every change: shorten the duration for the side-by-side.".to_string())
            } else {
                side_by_side(s).ok().map(|x| x.statement)
            }
        })
    });
    view! {
        <Fold playground=pg id="production" class="production" title="Use this in production">
            <p class="hint" id="production-policy">{policy}</p>
            <div class="tabs" role="tablist" aria-label="Target" on:keydown=on_key>{tabs}</div>
            <div class="tabpanel" role="tabpanel" id="production-tabpanel" aria-labelledby=move || tab_id(chosen.get())>
                <div class="snippet-head">
                    <span class="snippet-lang" id="production-language">{field(|c| c.language.to_string())}</span>
                    <CopyButton id="production-copy" text=snippet select=select />
                </div>
                <pre class="snippet" id="production-snippet" node_ref=code tabindex="0"><code>{move || snippet.get()}</code></pre>
                <ul class="notes" id="production-notes">{notes}</ul>
                <div class="run-config">
                    <button type="button" id="production-run" on:click=run disabled=running>
                        {move || if running() { "Running this config".to_string() } else { format!("Run this config ({} model)", model()) }}
                    </button>
                    <Show when=move || side.with(Option::is_some)>
                        <p class="side" id="production-side" aria-live="polite">{move || side.get().unwrap_or_default()}</p>
                    </Show>
                </div>
            </div>
            <EveryProduct playground=pg />
            <details class="every-product" id="differences">
                <summary>"How they differ: clocks, windows, refusals, Retry-After"</summary>
                <div class="log-scroll" inner_html=crate::present::differences::html()></div>
            </details>
        </Fold>
    }
}
