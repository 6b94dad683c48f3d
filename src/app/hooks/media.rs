//! `use_media_query`: a signal that follows a CSS media query such as
//! `(prefers-color-scheme: dark)`. The hook owns its `change` listener and removes it on cleanup.

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// Whether `query` matches now; updates when it starts or stops matching.
pub fn use_media_query(query: &str) -> Signal<bool> {
    let Some(list) = window().match_media(query).ok().flatten() else {
        return Signal::stored(false);
    };
    let (matches, set_matches) = signal(list.matches());
    let on_change = Closure::<dyn FnMut(web_sys::Event)>::new({
        let list = list.clone();
        move |_| set_matches.set(list.matches())
    });
    let _ = list.add_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
    let registered = SendWrapper::new((list, on_change));
    on_cleanup(move || {
        let (list, on_change) = registered.take();
        let _ = list.remove_event_listener_with_callback("change", on_change.as_ref().unchecked_ref());
    });
    matches.into()
}
