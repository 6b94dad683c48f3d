//! The product models: which real limiter runs (`algo=nginx`, …) and its own knobs — each
//! product's toggles from the registry (nginx's `nodelay` and status, Envoy's older timer
//! bucket), and the script for the product that runs the exported Lua — shown only for a product.

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::present::options::{View, PRODUCT_VIEWS};
use crate::sim::products::{self, Toggle, LUA_SCRIPTS};
use crate::sim::Algorithm;

/// A `<select>` of the product models (none chosen while a textbook algorithm runs), and the
/// knobs of the one that runs.
#[component]
pub fn ProductControls(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let sc = pg.scenario;
    let algo = move || sc.with(|s| s.algo);
    let on_pick = move |ev: leptos::ev::Event| {
        let key = event_target_value(&ev);
        if let Some(p) = PRODUCT_VIEWS.iter().find(|p| p.key == key) {
            pg.set_view(p.value);
        }
    };
    // The product that runs (none in Compare all).
    let running = move || if pg.compare.get() { None } else { Some(algo()).filter(|a| a.is_product()) };
    // The running product's toggles. Redrawn on a change of the scenario, they are rebuilt in
    // place (the same elements, patched), so a checkbox keeps its focus.
    let toggles = move || {
        let toggles = running().map_or(&[][..], products::toggles);
        toggles.iter().map(|t| view! { <Knob playground=pg toggle=t /> }).collect::<Vec<_>>()
    };
    let scripted = move || running().is_some_and(products::follows_lua);
    view! {
        <div class="products" id="product-controls">
            <label for="algo-product">"Or a real limiter, as it computes"</label>
            <select id="algo-product" on:change=on_pick
                prop:value=move || PRODUCT_VIEWS.iter().find(|p| p.value == View::Single(algo())).map_or("", |p| p.key)>
                <option value="">"— choose —"</option>
                {PRODUCT_VIEWS.iter().map(|p| view! { <option value=p.key>{p.label}</option> }).collect_view()}
            </select>
            {toggles}
            <Show when=scripted>
                <label for="lua-script">"Script"</label>
                <select id="lua-script" prop:value=move || lua_key(sc.with(|s| s.product.lua))
                    on:change=move |ev| {
                        let key = event_target_value(&ev);
                        pg.edit(|s| s.product.lua = LUA_SCRIPTS.iter().find(|(k, _)| *k == key).map_or(Algorithm::TokenBucket, |&(_, a)| a));
                    }>
                    {LUA_SCRIPTS.iter().map(|(k, a)| view! { <option value=*k>{crate::present::options::algorithm_label(*a)}</option> }).collect_view()}
                </select>
            </Show>
        </div>
    }
}

/// One product toggle as a checkbox.
#[component]
fn Knob(
    /// The page state.
    playground: Playground,
    /// The product's knob.
    toggle: &'static Toggle,
) -> impl IntoView {
    let pg = playground;
    let (get, set) = (toggle.get, toggle.set);
    view! {
        <label class="check">
            <input type="checkbox" id=toggle.id prop:checked=move || pg.scenario.with(|s| get(&s.product))
                on:change=move |ev| pg.edit(|s| set(&mut s.product, event_target_checked(&ev))) />
            {toggle.label}
        </label>
    }
}

fn lua_key(a: Algorithm) -> &'static str {
    LUA_SCRIPTS.iter().find(|(_, x)| *x == a).map_or("token_bucket", |(k, _)| k)
}
