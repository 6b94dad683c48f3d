//! Loading a script next to the page: how the page fetches a wasm module of its own on first use
//! (the Embed panel's builder; the whole page's module is the loader's to start), without loading
//! it up front.

use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::js_sys::Promise;

/// Adds `<script src>` to the page and waits until it has run. Fetched with CORS, as every
/// other asset of the page.
pub async fn run_script(src: &str) -> Result<(), JsValue> {
    let document = leptos::prelude::document();
    let script: web_sys::HtmlScriptElement = document.create_element("script")?.unchecked_into();
    let loaded = Promise::new(&mut |resolve, reject| {
        script.set_onload(Some(&resolve));
        script.set_onerror(Some(&reject));
    });
    script.set_cross_origin(Some("anonymous"));
    script.set_src(src);
    document.head().ok_or("no <head>")?.append_child(&script)?;
    JsFuture::from(loaded).await.map(|_| ())
}
