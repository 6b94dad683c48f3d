//! `use_page_visible`: a signal that is false while the document is hidden (another tab, a
//! minimised window). The hook owns its `visibilitychange` listener and removes it on cleanup.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Whether the page is visible now; updates when it is hidden or shown again.
pub fn use_page_visible() -> Signal<bool> {
    let doc = document();
    let (visible, set_visible) = signal(!doc.hidden());
    let on_change = Closure::<dyn FnMut(web_sys::Event)>::new({
        let doc = doc.clone();
        move |_| set_visible.set(!doc.hidden())
    });
    let _ = doc.add_event_listener_with_callback("visibilitychange", on_change.as_ref().unchecked_ref());
    let registered = SendWrapper::new((doc, on_change));
    on_cleanup(move || {
        let (doc, on_change) = registered.take();
        let _ = doc.remove_event_listener_with_callback("visibilitychange", on_change.as_ref().unchecked_ref());
    });
    visible.into()
}
