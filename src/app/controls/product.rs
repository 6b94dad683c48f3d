//! The product models: which real limiter runs (`algo=nginx`, …) and its own knobs — nginx's
//! `nodelay` and status, Envoy's older timer bucket, the Lua script — shown only for a product.

use leptos::prelude::*;

use crate::app::options::{View, PRODUCT_VIEWS};
use crate::app::playground::Playground;
use crate::sim::products::LUA_SCRIPTS;
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
    let is = move |a: Algorithm| move || algo() == a && !pg.compare.get();
    view! {
        <div class="products" id="product-controls">
            <label for="algo-product">"Or a real limiter, as it computes"</label>
            <select id="algo-product" on:change=on_pick
                prop:value=move || PRODUCT_VIEWS.iter().find(|p| p.value == View::Single(algo())).map_or("", |p| p.key)>
                <option value="">"— choose —"</option>
                {PRODUCT_VIEWS.iter().map(|p| view! { <option value=p.key>{p.label}</option> }).collect_view()}
            </select>
            <Show when=is(Algorithm::Nginx)>
                <label class="check">
                    <input type="checkbox" id="nginx-nodelay" prop:checked=move || sc.with(|s| s.product.nodelay)
                        on:change=move |ev| pg.edit(|s| s.product.nodelay = event_target_checked(&ev)) />
                    "nodelay (without it, nginx delays the burst)"
                </label>
                <label class="check">
                    <input type="checkbox" id="nginx-503" prop:checked=move || sc.with(|s| s.product.nginx_status == 503)
                        on:change=move |ev| pg.edit(|s| s.product.nginx_status = if event_target_checked(&ev) { 503 } else { 429 }) />
                    "no limit_req_status (503)"
                </label>
            </Show>
            <Show when=is(Algorithm::Envoy)>
                <label class="check">
                    <input type="checkbox" id="envoy-timer" prop:checked=move || sc.with(|s| s.product.envoy_timer)
                        on:change=move |ev| pg.edit(|s| s.product.envoy_timer = event_target_checked(&ev)) />
                    "Envoy ≤ 1.30: refill on a timer"
                </label>
            </Show>
            <Show when=is(Algorithm::RedisLua)>
                <label for="lua-script">"Script"</label>
                <select id="lua-script" prop:value=move || lua_key(sc.with(|s| s.product.lua))
                    on:change=move |ev| {
                        let key = event_target_value(&ev);
                        pg.edit(|s| s.product.lua = LUA_SCRIPTS.iter().find(|(k, _)| *k == key).map_or(Algorithm::TokenBucket, |&(_, a)| a));
                    }>
                    {LUA_SCRIPTS.iter().map(|(k, a)| view! { <option value=*k>{crate::app::options::algorithm_label(*a)}</option> }).collect_view()}
                </select>
            </Show>
        </div>
    }
}

fn lua_key(a: Algorithm) -> &'static str {
    LUA_SCRIPTS.iter().find(|(_, x)| *x == a).map_or("token_bucket", |(k, _)| k)
}
