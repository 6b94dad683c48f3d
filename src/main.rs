//! The web app's entry point: installs the panic hook and mounts the page.

#[cfg(target_arch = "wasm32")]
fn main() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_notice();
    }));
    leptos::mount::mount_to_body(ratelimit_playground::app::App);
    mark_first_frame();
}

/// Marks the first frame after mounting as `rlp-first-frame` in the page's performance
/// timeline (a standard User Timing entry, invisible to users): `make bench` reads it to time
/// navigation → first interactive frame.
#[cfg(target_arch = "wasm32")]
fn mark_first_frame() {
    use wasm_bindgen::{closure::Closure, JsCast};
    let Some(window) = web_sys::window() else { return };
    let mark = Closure::once_into_js(|| {
        if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
            let _ = performance.mark("rlp-first-frame");
        }
    });
    let _ = window.request_animation_frame(mark.unchecked_ref());
}

/// A panic in WebAssembly stops the app for good: say so on the page instead of leaving it frozen.
/// Plain DOM calls only, since the reactive runtime may be what panicked.
#[cfg(target_arch = "wasm32")]
fn show_crash_notice() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if document.get_element_by_id("crash").is_some() {
        return;
    }
    let (Ok(notice), Some(body)) = (document.create_element("div"), document.body()) else { return };
    notice.set_id("crash");
    notice.set_class_name("crash");
    let _ = notice.set_attribute("role", "alert");
    notice.set_text_content(Some(
        "Something went wrong and the simulation stopped. Reload the page to start again; \
         if it happens again, please report the address you were on (it holds the whole scenario).",
    ));
    let _ = body.prepend_with_node_1(&notice);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web app; run `make serve` (or `trunk serve`) to open it in a browser");
}
