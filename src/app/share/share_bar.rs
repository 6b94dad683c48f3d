//! The share bar under the page title: Share (the link to exactly this run, copied), Embed (the
//! snippet for a frame, see [`super::embed_panel`], loaded on first use) and the exports.

use leptos::html::Input;
use leptos::prelude::*;

use super::builder_host::EmbedBuilderHost;
use super::clipboard::CopyStatus;
use super::exports::ExportButtons;
use super::url_sync::current_link;
use crate::app::playground::Playground;
use crate::sim::TrafficShape;

/// Which panel of the bar is open.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Nothing,
    Link,
    Embed,
}

/// The share bar.
#[component]
pub fn ShareBar(
    /// The page state to share.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let open = RwSignal::new(Open::Nothing);
    let toggle = move |panel: Open| open.update(|o| *o = if *o == panel { Open::Nothing } else { panel });
    let link = Signal::derive(move || current_link(pg));
    let field = NodeRef::<Input>::new();
    let select = Callback::new(move |()| {
        if let Some(input) = field.get_untracked() {
            input.select();
        }
    });
    let copied = CopyStatus::new();
    let share = move |_| {
        open.set(Open::Link);
        copied.copy(link.get_untracked(), select);
    };
    let traced = move || pg.scenario.with(|s| s.traffic == TrafficShape::Trace);
    view! {
        <div class="share-bar">
            <div class="share-actions" role="group" aria-label="Share">
                <button type="button" id="share" aria-expanded=move || (open.get() == Open::Link).to_string()
                    aria-controls="share-panel" on:click=share title="Copy a link to exactly this run">"Share link"</button>
                <button type="button" id="embed" aria-expanded=move || (open.get() == Open::Embed).to_string()
                    aria-controls="embed-panel" on:click=move |_| toggle(Open::Embed)>"Embed"</button>
            </div>
            <ExportButtons playground=pg />
        </div>
        <Show when=move || open.get() == Open::Link>
            <div class="panel share-panel" id="share-panel">
                <label for="share-link">"Link to exactly this run — every parameter and the seed"</label>
                <div class="copy-row">
                    <input type="text" id="share-link" readonly node_ref=field prop:value=move || link.get()
                        on:focus=move |_| select.run(()) />
                    <button type="button" class="close" on:click=move |_| open.set(Open::Nothing)>"Done"</button>
                </div>
                <p class="copy-status" id="share-status" role="status">{move || link.with(|l| copied.message(l))}</p>
                <Show when=traced>
                    <p class="hint" id="share-trace-note">
                        "The replayed trace is not part of the link: whoever opens it sees constant traffic until they paste the trace."
                    </p>
                </Show>
            </div>
        </Show>
        <Show when=move || open.get() == Open::Embed>
            <EmbedBuilderHost playground=pg />
        </Show>
    }
}
