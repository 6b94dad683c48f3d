//! The product models: which real limiter runs (`algo=nginx`, …) and its own knobs — nginx's
//! `nodelay` and status, Envoy's older timer bucket, the Lua script — shown only for a product.

use leptos::prelude::*;

use crate::app::options::{View, PRODUCT_VIEWS};
use crate::app::playground::Playground;
use crate::sim::products::{ProductOptions, LUA_SCRIPTS};
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
                <Knob playground=pg id="nginx-nodelay" label="nodelay (without it, nginx delays the burst)"
                    get=|o| o.nodelay set=|o, on| o.nodelay = on />
                <Knob playground=pg id="nginx-503" label="no limit_req_status (503)"
                    get=|o| o.nginx_status == 503 set=|o, on| o.nginx_status = if on { 503 } else { 429 } />
            </Show>
            <Show when=is(Algorithm::Envoy)>
                <Knob playground=pg id="envoy-timer" label="Envoy ≤ 1.30: refill on a timer"
                    get=|o| o.envoy_timer set=|o, on| o.envoy_timer = on />
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

/// One product knob as a checkbox.
#[component]
fn Knob(
    /// The page state.
    playground: Playground,
    /// The checkbox's element id.
    id: &'static str,
    /// What it says.
    label: &'static str,
    /// Whether it is on.
    get: fn(&ProductOptions) -> bool,
    /// Turns it on or off.
    set: fn(&mut ProductOptions, bool),
) -> impl IntoView {
    let pg = playground;
    view! {
        <label class="check">
            <input type="checkbox" id=id prop:checked=move || pg.scenario.with(|s| get(&s.product))
                on:change=move |ev| pg.edit(|s| set(&mut s.product, event_target_checked(&ev))) />
            {label}
        </label>
    }
}

fn lua_key(a: Algorithm) -> &'static str {
    LUA_SCRIPTS.iter().find(|(_, x)| *x == a).map_or("token_bucket", |(k, _)| k)
}
