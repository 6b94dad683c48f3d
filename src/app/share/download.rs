//! Saving a file the page made: a `Blob`, an object URL (`blob:`, which the CSP allows) and a
//! click on an `<a download>`. The hook owns its object URL: it is revoked when the next download
//! replaces it or when the component goes away.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{js_sys, Blob, BlobPropertyBag, HtmlAnchorElement, Url};

/// A text file as a `Blob` of MIME type `mime`.
pub fn text_blob(text: &str, mime: &str) -> Option<Blob> {
    let parts = js_sys::Array::of1(&text.into());
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    Blob::new_with_str_sequence_and_options(&parts, &options).ok()
}

/// Returns a function that saves a blob under a file name.
pub fn use_download() -> impl Fn(&Blob, &str) + Copy + 'static {
    let current = StoredValue::new_local(None::<String>);
    let revoke = move || {
        if let Some(url) = current.try_update_value(Option::take).flatten() {
            let _ = Url::revoke_object_url(&url);
        }
    };
    on_cleanup(revoke);
    move |blob: &Blob, name: &str| {
        revoke();
        let Ok(url) = Url::create_object_url_with_blob(blob) else { return };
        if let Ok(a) = document().create_element("a").map(|a| a.unchecked_into::<HtmlAnchorElement>()) {
            a.set_href(&url);
            a.set_download(name);
            a.click();
        }
        current.set_value(Some(url));
    }
}
