//! The Embed panel: pick the controls the frame shows, get the `<iframe>` snippet of the current
//! run (sandboxed to scripts, titled for screen readers) and copy it.

use leptos::html::Textarea;
use leptos::prelude::*;

use super::clipboard::CopyButton;
use super::link::{embed_query, EmbedControl, LinkView, EMBED_CONTROLS};
use super::snippet::{frame_title, iframe, FRAME_HEIGHT, FRAME_WIDTH};
use super::url_sync::page_base;
use crate::app::options::is_windowed;
use crate::app::playground::Playground;

/// The controls offered first: the arrival rate and the two parameters of the algorithm shown.
fn suggested(windowed: bool) -> Vec<EmbedControl> {
    if windowed {
        vec![EmbedControl::Limit, EmbedControl::Window, EmbedControl::Rate]
    } else {
        vec![EmbedControl::Capacity, EmbedControl::Refill, EmbedControl::Rate]
    }
}

/// The snippet generator.
#[component]
pub fn EmbedPanel(
    /// The page state to embed.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let chosen = RwSignal::new(suggested(is_windowed(pg.textbook())));
    let snippet = Signal::derive(move || {
        // An embed shows one algorithm: compare mode does not fit its frame.
        let url =
            chosen.with(|c| pg.scenario.with(|sc| format!("{}?{}", page_base(), embed_query(sc, LinkView::Single, c))));
        iframe(&url, &pg.scenario.with(frame_title))
    });
    let field = NodeRef::<Textarea>::new();
    let select = Callback::new(move |()| {
        if let Some(area) = field.get_untracked() {
            area.select();
        }
    });
    let toggle = move |control: EmbedControl, on: bool| {
        chosen.update(|c| {
            c.retain(|x| *x != control);
            if on {
                c.push(control);
                c.sort_by_key(|x| EMBED_CONTROLS.iter().position(|(e, _)| e == x));
            }
        })
    };
    view! {
        <div class="panel share-panel" id="embed-panel">
            <fieldset class="embed-controls-pick">
                <legend>{format!("Controls in the {FRAME_WIDTH} × {FRAME_HEIGHT} frame")}</legend>
                {EMBED_CONTROLS
                    .iter()
                    .map(|&(control, key)| view! {
                        <label class="check inline">
                            <input type="checkbox" id=format!("embed-with-{key}")
                                prop:checked=move || chosen.with(|c| c.contains(&control))
                                on:change=move |ev| toggle(control, event_target_checked(&ev)) />
                            <span>{key}</span>
                        </label>
                    })
                    .collect_view()}
            </fieldset>
            <label for="embed-snippet">"Paste this where the playground should appear"</label>
            <textarea id="embed-snippet" readonly rows="4" node_ref=field prop:value=move || snippet.get()
                on:focus=move |_| select.run(())></textarea>
            <div class="copy-row">
                <CopyButton id="embed-copy" text=snippet select=select label="Copy snippet" />
            </div>
            <p class="hint">
                "The frame shows one algorithm and runs on its own; it pauses while scrolled out of view, and posts its height to your page ("
                <code>"ratelimit-playground:height"</code>
                " messages; see the README). For its “Open in the playground” link to open a tab on a plain click, add "
                <code>"allow-popups allow-popups-to-escape-sandbox"</code>
                " to the sandbox."
            </p>
        </div>
    }
}
