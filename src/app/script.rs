//! Loading a script or a stylesheet next to the page: how the page fetches a wasm module of its
//! own on first use (the Embed panel's builder, the whole page's module), and the whole page's
//! stylesheet, without loading them up front.

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

/// Adds the `<link rel="stylesheet">`s kept in `<template id="{id}">` to the page, and returns a
/// promise that settles once they have loaded (or failed: the page works unstyled rather than not
/// at all); the template goes, so a second call adds nothing. The build keeps the whole page's own
/// stylesheets there (scripts/externalize_loader.py): the first modules do not need them.
pub fn add_stylesheets(id: &str) -> Result<Promise, JsValue> {
    let document = leptos::prelude::document();
    let loaded = web_sys::js_sys::Array::new();
    let template = document.get_element_by_id(id).and_then(|t| t.dyn_into::<web_sys::HtmlTemplateElement>().ok());
    if let Some(template) = template {
        let head = document.head().ok_or("no <head>")?;
        let sheets = template.content().children();
        for i in 0..sheets.length() {
            let Some(sheet) = sheets.item(i) else { continue };
            let link: web_sys::HtmlElement = sheet.clone_node()?.dyn_into()?;
            loaded.push(&Promise::new(&mut |resolve, _| {
                link.set_onload(Some(&resolve));
                link.set_onerror(Some(&resolve));
            }));
            head.append_child(&link)?;
        }
        template.remove();
    }
    Ok(Promise::all(&loaded))
}
