//! What a frame (`?embed=1`) runs: the compact embed layout alone
//! (`ratelimit_playground::app::EmbedPage`). Trunk builds it as a wasm module of its own beside
//! the page, and the page's loader (scripts/externalize_loader.py) starts it instead of the page's
//! module for embed links, so each frame in a blog post loads only what a frame shows.

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
    leptos::mount::mount_to_body(ratelimit_playground::app::EmbedPage);
    ratelimit_playground::app::raf::mark_first_frame();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web page's embed frame; run `make serve` (or `trunk serve`) and open ?embed=1");
}
