//! The page in two modules. What every visitor loads first (`ratelimit-playground`,
//! [`LightApp`](super::LightApp)) has every single-server view; the multi-node view, which only
//! some visitors open, is in the whole page's module (`ratelimit-full`, [`App`](super::App)),
//! which has everything. The loader starts the whole page directly for a multi-node link; the
//! first time a visitor switches to the multi-node view on the light page, the light page fetches
//! and compiles the whole page's module, then, in one task so nothing blank is ever painted,
//! unmounts itself and starts it. The scenario and view travel in the address, as for any link;
//! playback and focus in a [`Handover`].

use std::any::Any;
use std::cell::{Cell, RefCell};

use leptos::prelude::*;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::{Function, Object, Reflect, WebAssembly};

use super::handover::Handover;
use super::playground::Playground;
use super::script::run_script;
use super::share::{link_view, replace_query};
use crate::app::share::link::share_query;

/// The whole page's wasm-bindgen script (no-modules: it defines the global `wasm_bindgen`) and
/// its module, both next to the page.
const SCRIPT: &str = "./ratelimit-full.js";
const WASM: &str = "./ratelimit-full_bg.wasm";

/// Where the light page leaves the [`Handover`] text for the whole page.
const HANDOVER: &str = "rlpHandover";

#[wasm_bindgen]
extern "C" {
    /// The whole page's module once its script has run: the script's top-level
    /// `let wasm_bindgen`, a global binding but not a property of `window`.
    #[wasm_bindgen(thread_local_v2, js_name = wasm_bindgen)]
    static WHOLE_PAGE: JsValue;
}

thread_local! {
    /// The light page's mount: dropping it unmounts the page and runs every cleanup.
    static MOUNTED: RefCell<Option<Box<dyn Any>>> = const { RefCell::new(None) };
    /// Whether the whole page's module is being loaded.
    static LOADING: Cell<bool> = const { Cell::new(false) };
}

/// Mounts `app` to the body and keeps its handle, so that [`hand_over`] can unmount it.
pub fn mount<V: IntoView + 'static>(app: fn() -> V) {
    let Some(body) = document().body() else { return };
    let handle = leptos::mount::mount_to(body, app);
    MOUNTED.with_borrow_mut(|m| *m = Some(Box::new(handle)));
}

/// The light page's stand-in for the multi-node view: says it is loading and hands over to the
/// whole page; says so if that failed.
pub fn loading_view(pg: Playground) -> AnyView {
    let failed = RwSignal::new(false);
    if !LOADING.replace(true) {
        leptos::task::spawn_local(async move {
            if let Err(e) = hand_over(pg).await {
                leptos::logging::warn!("the whole page's module did not load: {e:?}");
                LOADING.set(false);
                let _ = failed.try_set(true);
            }
        });
    }
    view! {
        <p class="hint" id="whole-page-loading" role="status">
            {move || if failed.get() {
                "The multi-node view could not be loaded: reload the page to try again."
            } else {
                "Loading the multi-node view…"
            }}
        </p>
    }
    .into_any()
}

/// Fetches and compiles the whole page's module, then unmounts this page and starts it.
async fn hand_over(pg: Playground) -> Result<(), JsValue> {
    run_script(SCRIPT).await?;
    let response: web_sys::Response = JsFuture::from(window().fetch_with_str(WASM)).await?.dyn_into()?;
    if !response.ok() {
        return Err(format!("{WASM}: HTTP {}", response.status()).into());
    }
    let bytes = JsFuture::from(response.array_buffer()?).await?;
    let module = JsFuture::from(WebAssembly::compile(&bytes)).await?;
    let init: Function = WHOLE_PAGE.with(|m| Reflect::get(m, &"initSync".into()))?.dyn_into()?;
    // From here on, one task: no frame is painted between the two pages.
    let Some(view) = pg.scenario.try_with_untracked(|sc| share_query(sc, untrack(|| link_view(pg)))) else {
        return Ok(()); // the page was unmounted meanwhile
    };
    replace_query(&view);
    let focus = document().active_element().map(|e| e.id()).filter(|id| !id.is_empty());
    let handover = Handover { running: pg.running.get_untracked(), speed: pg.speed.get_untracked(), focus };
    Reflect::set(&window(), &HANDOVER.into(), &handover.encode().into())?;
    let mounted = MOUNTED.with_borrow_mut(Option::take);
    drop(mounted);
    let options = Object::new();
    Reflect::set(&options, &"module".into(), &module)?;
    init.call1(&JsValue::NULL, &options)?;
    Ok(())
}

/// The [`Handover`] the light page left, if this page was started by one (read once).
pub fn take_handover() -> Option<Handover> {
    let text = Reflect::get(&window(), &HANDOVER.into()).ok()?.as_string()?;
    let _ = Reflect::delete_property(&window(), &HANDOVER.into());
    Handover::decode(&text)
}

/// Gives `id` the keyboard focus once the page has mounted.
pub fn focus_when_mounted(id: String) {
    request_animation_frame(move || {
        if let Some(el) = document().get_element_by_id(&id).and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    });
}
