//! The whole page, everything included (`ratelimit_playground::app::WholeApp`): the multi-node
//! view, Compare all, the production and log panels, the exports, and frames of any card. Trunk
//! builds it as a wasm module of its own beside the page's and the frame's first modules, which
//! draw one server's limiter and hand over to this one the first time a visitor asks for more
//! (`ratelimit_playground::app::split::whole_page`); the loader (scripts/loader/) starts it
//! directly for a multi-node or compare link, and for a frame of one.

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
    // Started by a first module's hand-over: it unmounts itself now, in this task.
    ratelimit_playground::app::split::whole_page::give_way();
    leptos::mount::mount_to_body(|| {
        use ratelimit_playground::app::WholeApp;
        leptos::view! { <WholeApp caps=ratelimit_playground::present::modules::WHOLE /> }
    });
    ratelimit_playground::app::hooks::raf::mark_first_frame();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the whole web page; run `make serve` (or `trunk serve`) and open ?view=cluster");
}
