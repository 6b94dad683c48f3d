//! What an embed tells the page around it, by `postMessage` to `window.parent` (any origin: the
//! messages hold nothing private):
//!
//! - `{type: "ratelimit-playground:height", height}` — the content height in CSS px, on load and
//!   whenever it changes (a `ResizeObserver`), so the host can size the frame;
//! - `{type: "ratelimit-playground:status", t, requests, admitted, rejected, running}` — once per
//!   simulated second and on play/pause, so a host (or a test) can see the frame running.
//!
//! The host API's `height` event ([`super::host_api`]) goes with the first. The hook owns its
//! observer and disconnects it on cleanup.

use leptos::html::Div;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, ResizeObserver};

use crate::app::playground::Playground;

/// Prefix of every message type.
const PREFIX: &str = "ratelimit-playground:";

/// Posts `{type: PREFIX + kind, ...fields}` to the parent window.
fn post(kind: &str, fields: &[(&str, JsValue)]) {
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&message, &"type".into(), &format!("{PREFIX}{kind}").into());
    for (name, value) in fields {
        let _ = js_sys::Reflect::set(&message, &(*name).into(), value);
    }
    if let Ok(Some(parent)) = window().parent() {
        let _ = parent.post_message(&message, "*");
    }
}

/// Reports the height of `root` and the run's status to the parent page.
pub fn use_frame_messages(root: NodeRef<Div>, pg: Playground) {
    let on_resize = Closure::<dyn FnMut(js_sys::Array)>::new(move |_entries: js_sys::Array| {
        if let Some(el) = root.get_untracked() {
            let height = el.get_bounding_client_rect().height().ceil();
            post("height", &[("height", height.into())]);
            let px = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&px, &"px".into(), &height.into());
            super::host_api::event("height", px.into());
        }
    });
    let Ok(observer) = ResizeObserver::new(on_resize.as_ref().unchecked_ref()) else { return };
    let observed = SendWrapper::new(observer.clone());
    Effect::new(move |_| {
        if let Some(el) = root.get() {
            observed.observe(&el);
        }
    });
    let registered = SendWrapper::new((observer, on_resize));
    on_cleanup(move || {
        let (observer, _on_resize) = registered.take();
        observer.disconnect();
    });

    let beat = Memo::new(move |_| (pg.snapshot.with(|s| (s.generation, s.completed_buckets)), pg.running.get()));
    Effect::new(move |_| {
        let (_, running) = beat.get();
        let (t, totals) = pg.snapshot.with_untracked(|s| (s.now.as_secs_f64(), s.main().map(|c| c.totals)));
        let totals = totals.unwrap_or_default();
        post(
            "status",
            &[
                ("t", t.into()),
                ("requests", (totals.requests as f64).into()),
                ("admitted", (totals.admitted as f64).into()),
                ("rejected", (totals.rejected as f64).into()),
                ("running", running.into()),
            ],
        );
    });
}
