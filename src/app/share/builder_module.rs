//! The embed builder's own side of its wasm module (`ratelimit-embed`, built by Trunk beside the
//! page and loaded the first time the Embed panel opens): mounts the
//! [`EmbedPanel`](super::embed_panel::EmbedPanel) into the element the page gives it, takes the
//! page's state as [`BuilderInput`] text whenever it changes, and unmounts when the panel closes.
//! Only writers open the builder, so its code is not part of the page every reader loads.

use std::any::Any;
use std::cell::RefCell;

use leptos::prelude::*;

use super::embed_panel::EmbedPanel;
use crate::present::share::builder_input::BuilderInput;

/// The mounted builder: the input it follows, and the handle that unmounts it when dropped.
struct Mounted {
    input: RwSignal<BuilderInput>,
    _view: Box<dyn Any>,
}

thread_local! {
    static MOUNTED: RefCell<Option<Mounted>> = const { RefCell::new(None) };
}

/// Mounts the builder into `host` (replacing one already mounted) on the page's state `input`.
/// Does nothing if `input` is not [`BuilderInput`] text.
pub fn open(host: web_sys::HtmlElement, input: &str) {
    close();
    let Some(input) = BuilderInput::decode(input) else { return };
    let input = RwSignal::new(input);
    let view = leptos::mount::mount_to(host, move || view! { <EmbedPanel input=input /> });
    MOUNTED.with_borrow_mut(|m| *m = Some(Mounted { input, _view: Box::new(view) }));
}

/// Hands the builder the page's state as it is now.
pub fn update(input: &str) {
    let Some(next) = BuilderInput::decode(input) else { return };
    MOUNTED.with_borrow(|m| {
        if let Some(m) = m {
            m.input.set(next);
        }
    });
}

/// Unmounts the builder, if it is mounted.
pub fn close() {
    // Taken out first: unmounting runs cleanups, which must not find the cell borrowed.
    let mounted = MOUNTED.with_borrow_mut(Option::take);
    drop(mounted);
}
