//! The page's end of the embed builder: the builder is a wasm module of its own
//! (`ratelimit-embed`, see [`super::builder_module`]), fetched the first time the Embed panel
//! opens, so readers who never open it do not download it. This loads it once (its
//! wasm-bindgen script, then `static/embed-builder.js`, which starts it), mounts it into the
//! panel, sends it the page's state whenever that changes, and unmounts it when the panel closes.

use std::cell::RefCell;

use leptos::html::Div;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{Function, Promise, Reflect};

use crate::app::playground::Playground;
use crate::app::script::run_script;
use crate::present::share::builder_input::BuilderInput;
use crate::sim::Nanos;

/// The builder module's wasm-bindgen script, then the script that starts it; both next to the page.
const SCRIPTS: [&str; 2] = ["./ratelimit-embed.js", "./embed-builder.js"];

/// Where `embed-builder.js` leaves the promise of the started module's exports.
const EXPORTS: &str = "rlpEmbedBuilder";

thread_local! {
    /// The started module's exports, once loaded.
    static MODULE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// The builder module's exports, loading it the first time.
async fn module() -> Result<JsValue, JsValue> {
    if let Some(m) = MODULE.with_borrow(Clone::clone) {
        return Ok(m);
    }
    for src in SCRIPTS {
        run_script(src).await?;
    }
    let started = Reflect::get(&window(), &EXPORTS.into())?;
    let exports = JsFuture::from(started.dyn_into::<Promise>()?).await?;
    MODULE.with_borrow_mut(|m| *m = Some(exports.clone()));
    Ok(exports)
}

/// Calls the builder's exported `name` with `args`, if the module is loaded.
fn call(name: &str, args: &[JsValue]) -> Result<(), JsValue> {
    let Some(exports) = MODULE.with_borrow(Clone::clone) else { return Ok(()) };
    let f: Function = Reflect::get(&exports, &name.into())?.dyn_into()?;
    f.apply(&JsValue::NULL, &args.iter().collect())?;
    Ok(())
}

/// The page's state as the builder reads it; the time is the throttled readout's (ten a second).
fn input(pg: Playground) -> String {
    let now = Nanos(pg.readout.with(|s| s.now.0));
    pg.scenario.with(|sc| BuilderInput { scenario: sc.clone(), view: pg.link_view(), now }.encode())
}

/// The Embed panel's place on the page, filled by the builder module once it has loaded.
#[component]
pub fn EmbedBuilderHost(
    /// The page state to embed.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let host = NodeRef::<Div>::new();
    let status = RwSignal::new(Some("Loading the embed builder…".to_string()));
    let mounted = RwSignal::new(false);
    Effect::new(move |_| {
        let Some(el) = host.get() else { return };
        leptos::task::spawn_local(async move {
            let loaded = module().await;
            if status.try_get_untracked().is_none() {
                return; // the panel closed while the module loaded
            }
            let opened = match loaded {
                Ok(_) => call("open_embed_builder", &[el.into(), untrack(|| input(pg)).into()]),
                Err(e) => Err(e),
            };
            match opened {
                Ok(()) => {
                    let _ = status.try_set(None);
                    let _ = mounted.try_set(true);
                }
                Err(e) => {
                    leptos::logging::warn!("embed builder not loaded: {e:?}");
                    let _ = status.try_set(Some(
                        "The embed builder could not be loaded: reload the page to try again.".to_string(),
                    ));
                }
            }
        });
    });
    Effect::new(move |_| {
        let text = input(pg);
        if mounted.get() {
            let _ = call("update_embed_builder", &[text.into()]);
        }
    });
    on_cleanup(|| {
        let _ = call("close_embed_builder", &[]);
    });
    view! {
        {move || status.get().map(|s| view! { <p class="hint" id="embed-loading" role="status">{s}</p> })}
        <div id="embed-builder-host" node_ref=host></div>
    }
}
