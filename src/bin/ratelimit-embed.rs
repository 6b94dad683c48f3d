//! The Embed panel's builder (see `ratelimit_playground::app::share::builder_module`): Trunk
//! builds it as a wasm module of its own beside the page, which loads it the first time the panel
//! opens. Its exports are what the page calls.

#[cfg(target_arch = "wasm32")]
mod exports {
    use ratelimit_playground::app::share::builder_module;
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Mounts the builder into `host` on the page's state (`BuilderInput` text).
    #[wasm_bindgen]
    pub fn open_embed_builder(host: web_sys::HtmlElement, input: &str) {
        builder_module::open(host, input);
    }

    /// Hands the mounted builder the page's state as it is now.
    #[wasm_bindgen]
    pub fn update_embed_builder(input: &str) {
        builder_module::update(input);
    }

    /// Unmounts the builder.
    #[wasm_bindgen]
    pub fn close_embed_builder() {
        builder_module::close();
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::app::crash::install_panic_hook();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web page's embed builder; natively, run `ratelimit-sim` for the CLI");
}
