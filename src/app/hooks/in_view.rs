//! `use_in_view`: a signal that is true while an element is at least partly inside the viewport,
//! from an `IntersectionObserver`. The hook owns the observer and disconnects it on cleanup.

use leptos::html::ElementType;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::js_sys;
use web_sys::{IntersectionObserver, IntersectionObserverEntry};

/// Whether the element behind `target` intersects the viewport. True until the observer has
/// reported (an element not yet mounted is assumed visible).
pub fn use_in_view<E>(target: NodeRef<E>) -> Signal<bool>
where
    E: ElementType,
    E::Output: JsCast + Clone + 'static,
{
    let (in_view, set_in_view) = signal(true);
    let on_change = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(entry) = entries.iter().last().and_then(|e| e.dyn_into::<IntersectionObserverEntry>().ok()) {
            set_in_view.set(entry.is_intersecting());
        }
    });
    let Ok(observer) = IntersectionObserver::new(on_change.as_ref().unchecked_ref()) else {
        return in_view.into();
    };
    let observed = SendWrapper::new(observer.clone());
    Effect::new(move |_| {
        if let Some(el) = target.get() {
            let el: JsValue = el.into();
            if let Ok(el) = el.dyn_into::<web_sys::Element>() {
                observed.observe(&el);
            }
        }
    });
    let registered = SendWrapper::new((observer, on_change));
    on_cleanup(move || {
        let (observer, _on_change) = registered.take();
        observer.disconnect();
    });
    in_view.into()
}
