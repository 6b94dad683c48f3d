//! What a frame (`?embed=1`) runs: the compact embed layout with one server's cards
//! (`ratelimit_playground::app::EmbedPage`). Trunk builds it as a wasm module of its own beside
//! the page, and the page's loader (scripts/loader/) starts it instead of the page's
//! module for embed links, so each frame in a blog post loads only what a frame shows. A frame of
//! a multi-node run or of Compare all runs the whole page's module instead (the loader picks; this
//! one hands over to it should the loader miss one), and so does a link this one would have to
//! change and explain (it reads only clean ones: `Link::read_frame`).

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
    // This module's engine has the parts its constant names, and links no other.
    ratelimit_playground::app::split::whole_page::mount(|| {
        use ratelimit_playground::app::EmbedPage;
        leptos::view! { <EmbedPage caps=ratelimit_playground::present::modules::FRAME /> }
    });
    ratelimit_playground::app::hooks::raf::mark_first_frame();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web page's embed frame; run `make serve` (or `trunk serve`) and open ?embed=1");
}
