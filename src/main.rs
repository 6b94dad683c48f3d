//! The web app's entry point: routes panics to the browser console and mounts the page.

#[cfg(target_arch = "wasm32")]
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(ratelimit_playground::app::App);
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web app; run `make serve` (or `trunk serve`) to open it in a browser");
}
