//! Copying text, and the button that does it. The async Clipboard API is used where the page may
//! use it; where it is missing (an insecure context) or refuses (a sandboxed frame, no focus),
//! the text is selected in its read-only field and the page says to press Ctrl/Cmd+C.

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsValue;
use wasm_bindgen_futures::JsFuture;

/// How a copy ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Copied {
    /// The text is on the clipboard.
    Done,
    /// The text is selected; the user copies it.
    Selected,
}

/// The outcome of the last copy, shown only while the text copied is still current.
#[derive(Clone, Copy)]
pub struct CopyStatus {
    last: RwSignal<Option<(String, Copied)>>,
}

impl CopyStatus {
    /// No copy yet.
    pub fn new() -> Self {
        CopyStatus { last: RwSignal::new(None) }
    }

    /// Puts `text` on the clipboard or, when the browser will not, runs `select` (after the
    /// page has rendered, so a field shown by the same click exists).
    pub fn copy(self, text: String, select: Callback<()>) {
        let clipboard = window().navigator().clipboard();
        let available = !JsValue::from(clipboard.clone()).is_undefined();
        let written = available.then(|| JsFuture::from(clipboard.write_text(&text)));
        spawn_local(async move {
            let copied = match written {
                Some(promise) => promise.await.is_ok(),
                None => false,
            };
            let how = if copied {
                Copied::Done
            } else {
                select.try_run(());
                Copied::Selected
            };
            let _ = self.last.try_set(Some((text, how)));
        });
    }

    /// What to tell the user about the last copy, if it copied `current` (tracked).
    pub fn message(self, current: &str) -> Option<&'static str> {
        self.last.with(|last| match last {
            Some((text, Copied::Done)) if text == current => Some("Copied."),
            Some((text, Copied::Selected)) if text == current => Some("Selected: press Ctrl+C (⌘C on a Mac) to copy."),
            _ => None,
        })
    }
}

/// A Copy button for `text`, and a polite status line saying what happened.
#[component]
pub fn CopyButton(
    /// Element id of the button (the status is `{id}-status`).
    id: &'static str,
    /// What to copy.
    #[prop(into)]
    text: Signal<String>,
    /// Selects the text on the page, for copying by hand.
    select: Callback<()>,
    /// The button's label.
    #[prop(default = "Copy")]
    label: &'static str,
) -> impl IntoView {
    let status = CopyStatus::new();
    view! {
        <button type="button" id=id class="copy" on:click=move |_| status.copy(text.get_untracked(), select)>
            {label}
        </button>
        <span class="copy-status" id=format!("{id}-status") role="status">
            {move || text.with(|t| status.message(t))}
        </span>
    }
}
