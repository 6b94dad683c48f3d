//! What the page's first modules show in place of the parts only the whole page's module draws
//! (see [`super::whole_page`]): the same buttons, or a panel's title, a line on what it does and a
//! button, each asking for the whole page, which then does what the visitor asked for.

use leptos::prelude::*;

use super::whole_page::{request, Ask};
use crate::app::fold::Fold;
use crate::app::playground::Playground;

/// A stand-in's status line: empty until asked, "Loading…" while the whole page loads, and what
/// to do if it could not be loaded.
fn status(asked: RwSignal<bool>, failed: RwSignal<bool>) -> impl Fn() -> &'static str {
    move || {
        if failed.get() {
            "It could not be loaded: reload the page to try again."
        } else if asked.get() {
            "Loading…"
        } else {
            ""
        }
    }
}

/// The light page's stand-in for a view it does not draw (`what`: "the multi-node view",
/// "the comparison"): says it is loading and hands over to the whole page; says so if that failed.
pub fn loading_view(pg: Playground, what: &'static str) -> AnyView {
    let failed = RwSignal::new(false);
    request(Some(pg), Ask::default(), failed);
    view! {
        <p class="hint" id="whole-page-loading" role="status">
            {move || if failed.get() {
                format!("{} could not be loaded: reload the page to try again.", capitalised(what))
            } else {
                format!("Loading {what}…")
            }}
        </p>
    }
    .into_any()
}

/// The trace box as the light page shows it once "Replay my traffic" is chosen: the whole page
/// has the trace tools (the box, the file picker, the engine's trace parser), so the light page
/// hands over to it, which opens on the same choice with the keyboard focus on it.
pub fn trace_stand_in(pg: Playground, _loaded: Callback<()>) -> AnyView {
    let failed = RwSignal::new(false);
    request(Some(pg), Ask { focus: Some("traffic"), choose: Some(("traffic", "trace")), ..Ask::default() }, failed);
    view! {
        <p class="hint" id="trace-loading" role="status">
            {move || if failed.get() {
                "The trace tools could not be loaded: reload the page to try again."
            } else {
                "Loading the trace tools…"
            }}
        </p>
    }
    .into_any()
}

/// A frame's stand-in while it hands over to the whole page's module, which draws its cards.
pub fn frame_loading_view() -> AnyView {
    address_loading_view("This frame could not be loaded.")
}

/// The page's stand-in while it hands over a link it cannot run (a product model's) to the whole
/// page's module.
pub fn page_loading_view() -> AnyView {
    address_loading_view("The page could not be loaded: reload it to try again.")
}

/// "Loading…" while the whole page's module starts on this address, or `failure` if it cannot.
fn address_loading_view(failure: &'static str) -> AnyView {
    let failed = RwSignal::new(false);
    request(None, Ask::default(), failed);
    view! {
        <p class="hint" id="whole-page-loading" role="status">
            {move || if failed.get() { failure } else { "Loading…" }}
        </p>
    }
    .into_any()
}

/// `what` with a capital first letter (ASCII only: `char::to_uppercase` would bring Unicode's case
/// tables into the module).
fn capitalised(what: &str) -> String {
    let mut text = what.to_string();
    if let Some(first) = text.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    text
}

/// A panel of the whole page as the light page shows it: its title, what it does, and a button
/// that loads it (the whole page then gives `focus` the keyboard focus).
#[derive(Clone, Copy)]
pub struct StandIn {
    /// The panel's element id (the real panel's, so links to `#id` land on either).
    pub id: &'static str,
    /// The panel's classes besides `panel` (its own and `stand-in`).
    pub class: &'static str,
    /// The panel's title.
    pub title: &'static str,
    /// One paragraph on what the panel does.
    pub blurb: &'static str,
    /// The button's id and label.
    pub button: (&'static str, &'static str),
    /// The element of the real panel to focus once it is there.
    pub focus: &'static str,
}

/// The light page's stand-in for a panel of the whole page (see [`StandIn`]).
pub fn panel_stand_in(pg: Playground, s: StandIn) -> AnyView {
    let (failed, asked) = (RwSignal::new(false), RwSignal::new(false));
    let load = move |_| {
        asked.set(true);
        request(Some(pg), Ask { focus: Some(s.focus), ..Ask::default() }, failed);
    };
    view! {
        <Fold playground=pg id=s.id class=s.class title=s.title>
            <p class="hint">{s.blurb}</p>
            <button type="button" id=s.button.0 on:click=load disabled=move || asked.get() && !failed.get()>
                {s.button.1}
            </button>
            <p class="hint" role="status">{status(asked, failed)}</p>
        </Fold>
    }
    .into_any()
}

/// The light page's share bar: the same buttons — Share link, Embed, and the PNG, CSV and JSON
/// exports — each handing over to the whole page, which then does what the visitor asked for.
pub fn share_stand_in(pg: Playground) -> AnyView {
    let failed = RwSignal::new(false);
    let asked = RwSignal::new(false);
    let button = move |id: &'static str, label: &'static str, title: &'static str| {
        let ask = move |_| {
            asked.set(true);
            request(Some(pg), Ask { focus: Some(id), click: Some(id), ..Ask::default() }, failed);
        };
        view! { <button type="button" id=id on:click=ask title=title>{label}</button> }
    };
    view! {
        <div class="share-bar">
            <div class="share-actions" role="group" aria-label="Share">
                {button("share", "Share link", "Copy a link to exactly this run")}
                {button("embed", "Embed", "A snippet that puts this run in a blog post or docs")}
            </div>
            <div class="exports" role="group" aria-label="Export">
                <span class="share-label">"Export"</span>
                {button("export-png", "PNG", "The chart as shown, as a PNG image")}
                {button("export-csv", "CSV", "The series the page holds (up to 2 minutes), as CSV")}
                {button("export-json", "JSON", "The scenario, as JSON")}
            </div>
            <span class="copy-status" role="status">{status(asked, failed)}</span>
        </div>
    }
    .into_any()
}

/// The light page's product picker: the same `<select>`; picking a product runs its model and
/// hands over to the whole page, which has its knobs and the production panel's side-by-side.
pub fn products_stand_in(pg: Playground) -> AnyView {
    use crate::present::options::PRODUCT_VIEWS;
    let (failed, asked) = (RwSignal::new(false), RwSignal::new(false));
    let on_pick = move |ev: leptos::ev::Event| {
        let key = event_target_value(&ev);
        // The model runs in the whole page (this module's capabilities have no models), which
        // opens on it from the start.
        if let Some(crate::present::options::View::Single(algo)) =
            PRODUCT_VIEWS.iter().find(|p| p.key == key).map(|p| p.value)
        {
            asked.set(true);
            request(Some(pg), Ask { focus: Some("algo-product"), algo: Some(algo), ..Ask::default() }, failed);
        }
    };
    view! {
        <div class="products" id="product-controls">
            <label for="algo-product">"Or a real limiter, as it computes"</label>
            <select id="algo-product" on:change=on_pick>
                <option value="">"— choose —"</option>
                {crate::app::product_options::product_options()}
            </select>
            <span class="copy-status" role="status">{status(asked, failed)}</span>
        </div>
    }
    .into_any()
}
