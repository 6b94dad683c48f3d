//! Panels that fold to their title. On the page every panel below the charts starts folded
//! and opens with its title's button; what the reader opened is remembered per view
//! ([`Folds`]) in the browser's storage, where the browser keeps one (a sandboxed frame has
//! none: there it lasts as long as the page). In an embed, and wherever the playground has no
//! [`Playground::folds`], a panel is simply open. A folded panel's body is not mounted, so it
//! computes and draws nothing.

use leptos::prelude::*;

use super::playground::Playground;
use crate::present::folds::{Folds, PANELS};
use crate::sim::server::keys::WORKERS;

/// Where the open panels are kept between visits.
const STORAGE_KEY: &str = "ratelimit-playground.panels";

/// The browser's local storage, where it can be used.
fn storage() -> Option<web_sys::Storage> {
    window().local_storage().ok().flatten()
}

/// The page's starting folds: those `handed` over by the light page, else those stored; open
/// in the view shown besides: the panel the address's `#fragment` names, and the server panel
/// when the link puts a server behind the limiter (its knobs are the link's point).
pub fn start_folds(pg: Playground, handed: Option<Folds>) {
    let stored = || storage().and_then(|s| s.get_item(STORAGE_KEY).ok().flatten()).map(|t| Folds::decode(&t));
    let mut folds = handed.or_else(stored).unwrap_or_default();
    let view = untrack(|| pg.link_view());
    if let Some(panel) = named_in_hash() {
        folds.set(view, panel, true);
    }
    if pg.scenario.with_untracked(|s| s.product.get(&WORKERS) > 0) {
        folds.set(view, "server", true);
    }
    pg.folds.set(Some(folds));
    // A link to a panel within the page (`#production`, as the log panel's "Apply" offers)
    // opens it; the browser then scrolls to it.
    let listener = window_event_listener(leptos::ev::hashchange, move |_| {
        if let Some(panel) = named_in_hash() {
            let view = untrack(|| pg.link_view());
            pg.folds.update(|f| f.iter_mut().for_each(|f| f.set(view, panel, true)));
        }
    });
    on_cleanup(move || listener.remove());
}

/// The panel the address's `#fragment` names, if it names one.
fn named_in_hash() -> Option<&'static str> {
    let hash = window().location().hash().unwrap_or_default();
    PANELS.iter().copied().find(|&p| hash.strip_prefix('#') == Some(p))
}

/// A panel (`<section class="panel {class}" id={id}>`) whose title folds and opens its body.
#[component]
pub fn Fold(
    /// The page state: which view is shown and which panels are open in it.
    playground: Playground,
    /// The panel's element id, one of [`PANELS`]; its title's id is `{id}-title`.
    id: &'static str,
    /// The panel's classes besides `panel`.
    class: &'static str,
    /// The panel's title.
    #[prop(into)]
    title: TextProp,
    /// Keeps the body mounted (hidden) once opened, for a panel holding the reader's own work
    /// (the log report), which folding must not throw away.
    #[prop(optional)]
    keep: bool,
    /// The panel's body.
    children: ChildrenFn,
) -> impl IntoView {
    let pg = playground;
    let folding = Memo::new(move |_| pg.folds.with(Option::is_some));
    let open = Memo::new(move |_| {
        let view = pg.link_view();
        pg.folds.with(|f| f.as_ref().is_none_or(|f| f.is_open(view, id)))
    });
    // Mounted while open, or (kept) from the first opening on; a memo, so folding a kept body
    // does not build it anew.
    let shown = Memo::new(move |before: Option<&bool>| open.get() || (keep && before.copied().unwrap_or(false)));
    let toggle = move |_| {
        let view = untrack(|| pg.link_view());
        pg.folds.update(|folds| {
            if let Some(folds) = folds {
                folds.set(view, id, !folds.is_open(view, id));
                if let Some(storage) = storage() {
                    let _ = storage.set_item(STORAGE_KEY, &folds.encode());
                }
            }
        });
    };
    let body_id = format!("{id}-body");
    let controls = body_id.clone();
    let heading = move || {
        let title = title.get();
        if folding.get() {
            view! {
                <button type="button" class="fold-toggle" aria-expanded=move || open.get().to_string()
                    aria-controls=controls.clone() on:click=toggle>{title.to_string()}</button>
            }
            .into_any()
        } else {
            title.to_string().into_any()
        }
    };
    view! {
        <section class=format!("panel {class}") class:folded=move || !open.get() id=id aria-labelledby=format!("{id}-title")>
            <h2 id=format!("{id}-title") class:fold-title=move || folding.get()>{heading}</h2>
            {move || shown.get().then(|| view! { <div class="fold-body" id=body_id.clone() hidden=move || !open.get()>{children()}</div> })}
        </section>
    }
}
