//! The web app's entry point: installs the panic hook and mounts the page's first module, every
//! single-server view (`LightApp`), which hands over to the whole page (`ratelimit-full`) when
//! the multi-node view is first shown. A frame (`?embed=1`) loads `ratelimit-frame` instead, a
//! multi-node link `ratelimit-full` (src/bin/; the loader picks).

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
    // This module's engine has the parts its constant names, and links no other.
    ratelimit_playground::app::split::whole_page::mount(|| {
        use ratelimit_playground::app::LightApp;
        leptos::view! { <LightApp caps=ratelimit_playground::present::modules::PAGE /> }
    });
    ratelimit_playground::app::hooks::raf::mark_first_frame();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web app; run `make serve` (or `trunk serve`) to open it in a browser");
}
