//! What the app's larger modules also meet, for the fixture's page and whole page: closures the
//! glue calls back through hashed exports (`wasm_bindgen__convert__closures_____invoke__h<hash>`)
//! and a future, as the app's event handlers, timers and fetches make them.

use build_steps_fixture::log;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Listens for `kind` on `target`, logs each event's type, and waits for `promise`: closures the
/// glue invokes through hashed exports, as the app's event handlers and timers do.
#[wasm_bindgen]
pub fn listen(target: web_sys::EventTarget, kind: &str, promise: js_sys::Promise) {
    let on_event = Closure::<dyn FnMut(web_sys::Event)>::new(|event: web_sys::Event| log(&event.type_()));
    target.add_event_listener_with_callback(kind, on_event.as_ref().unchecked_ref()).ok();
    on_event.forget();
    wasm_bindgen_futures::spawn_local(async move {
        if let Ok(value) = wasm_bindgen_futures::JsFuture::from(promise).await {
            log(&value.as_string().unwrap_or_default());
        }
    });
    if let Some(window) = web_sys::window() {
        let tick = Closure::once_into_js(|| log("tick"));
        window.set_timeout_with_callback_and_timeout_and_arguments_0(tick.unchecked_ref(), 10).ok();
    }
}
