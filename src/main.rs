//! The web app's entry point: installs the panic hook and mounts the page.

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
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

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web app; run `make serve` (or `trunk serve`) to open it in a browser");
}
