//! The whole page, the multi-node view included (`ratelimit_playground::app::App`). Trunk builds
//! it as a wasm module of its own beside the page's first module, which has every single-server
//! view and hands over to this one the first time the multi-node view is shown
//! (`ratelimit_playground::app::whole_page`); the loader (scripts/externalize_loader.py) starts
//! it directly for a multi-node link.

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
    leptos::mount::mount_to_body(ratelimit_playground::app::App);
    ratelimit_playground::app::raf::mark_first_frame();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the whole web page; run `make serve` (or `trunk serve`) and open ?view=cluster");
}
