//! The web app's entry point: installs the panic hook and mounts the page. A frame (`?embed=1`)
//! loads `ratelimit-frame` instead (src/bin/ratelimit-frame.rs; the loader picks).

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
    leptos::mount::mount_to_body(ratelimit_playground::app::App);
    ratelimit_playground::app::raf::mark_first_frame();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web app; run `make serve` (or `trunk serve`) to open it in a browser");
}
