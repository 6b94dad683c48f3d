//! The address bar follows the page: the link is read once at start ([`read_link`]), and every
//! later change of the scenario or the view is written back with `history.replaceState`
//! ([`use_url_sync`]) — debounced, so dragging a slider does not hit the browser's limit on
//! history calls. The pending write is cancelled when the page goes away.

use gloo_timers::callback::Timeout;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::app::playground::Playground;
use crate::present::cluster::presets::is_cluster;
use crate::present::options::View;
use crate::present::share::link::{share_query, tour_query, Link, LinkView};
use crate::sim::query::Problem;
use crate::sim::{Capabilities, Scenario};

/// How long the address waits for edits to settle before it is rewritten.
const SETTLE_MS: u32 = 150;

/// The current address's link, and what it did not use as given; `base` is the scenario of an
/// address without scenario keys.
pub fn read_link(base: &Scenario) -> (Link, Vec<Problem>) {
    Link::read(&window().location().search().unwrap_or_default(), base)
}

/// The page's address as [`Link::read_page`] reads it: `None` for one that needs the whole
/// page (an embed, another view, anything it would change and explain).
pub fn read_page_link(base: &Scenario, caps: Capabilities) -> Option<Link> {
    Link::read_page(&window().location().search().unwrap_or_default(), base, caps)
}

/// The frame's address as [`Link::read_frame`] reads it: `None` for one that needs the
/// whole page's module (another view, anything it would change and explain).
pub fn read_frame_link(base: &Scenario, caps: Capabilities) -> Option<Link> {
    Link::read_frame(&window().location().search().unwrap_or_default(), base, caps)
}

/// The address of this page without query or fragment: where links and embeds point.
pub fn page_base() -> String {
    let href = window().location().href().unwrap_or_default();
    href.split(['?', '#']).next().unwrap_or_default().to_string()
}

/// Shows `view` on a playground that has just been created. A multi-node link opens the
/// multi-node view on exactly its scenario; `view=cluster` on a single-node scenario opens it on
/// the view's opening preset.
pub fn apply_view(pg: Playground, view: LinkView) {
    match view {
        LinkView::Compare => pg.set_view(View::Compare),
        LinkView::Cluster if pg.scenario.with_untracked(is_cluster) => pg.cluster.set(true),
        LinkView::Cluster => pg.set_cluster(true),
        // A multi-node scenario opens the multi-node view even without `view=cluster`.
        LinkView::Single => {}
    }
}

/// The query of what `pg` shows now (tracked): the tour's step while the tour is shown, else
/// the scenario in its view.
pub fn current_query(pg: Playground) -> String {
    match pg.tour.get() {
        Some(step) => tour_query(step),
        None => pg.scenario.with(|sc| share_query(sc, pg.link_view())),
    }
}

/// The full page's link to what `pg` shows now (tracked).
pub fn current_link(pg: Playground) -> String {
    format!("{}?{}", page_base(), current_query(pg))
}

/// Sets the address bar's query to `query` (without `?`), keeping the fragment; no history entry.
pub fn replace_query(query: &str) {
    let location = window().location();
    if location.search().ok().as_deref() != Some(&format!("?{query}")) {
        let hash = location.hash().unwrap_or_default();
        let _ = window()
            .history()
            .and_then(|h| h.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{query}{hash}"))));
    }
}

/// Keeps the address bar's query equal to the page's state.
pub fn use_url_sync(pg: Playground) {
    let pending = StoredValue::new_local(None::<Timeout>);
    Effect::new(move |_| {
        let query = current_query(pg);
        let write = Timeout::new(SETTLE_MS, move || replace_query(&query));
        // Replacing the pending write drops (cancels) the one before.
        pending.set_value(Some(write));
    });
    on_cleanup(move || {
        pending.try_update_value(|p| p.take());
    });
}
