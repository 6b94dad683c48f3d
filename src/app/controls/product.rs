//! The product models: which real limiter runs (`algo=nginx`, …) and its own knobs — each
//! product's toggles from the registry (nginx's `nodelay` and status, Envoy's older timer
//! bucket), the script for the product that runs the exported Lua, and how long a library blocks
//! a client that went over (`block`: rate-limiter-flexible's and NestJS's `blockDuration`) — shown
//! only for a product.

use leptos::prelude::*;

use crate::app::knob::field_range;
use crate::app::playground::Playground;
use crate::app::product_options::product_options;
use crate::app::slider::Slider;
use crate::present::options::{View, PRODUCT_VIEWS};
use crate::present::units::SliderScale;
use crate::sim::products::rlflex::BLOCK;
use crate::sim::products::{self, Choice, Toggle};

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
    let choice = move || running().and_then(products::choice);
    // What 0 means for the running product's block: its library's default.
    let blocks = move || {
        running().filter(|&a| products::keys_of(a).iter().any(|k| k.key == BLOCK.key)).map(|a| match a {
            a if Some(a) == products::find("nestjs") => "Block after going over (blockDuration; 0: the ttl)",
            _ => "Block after going over (blockDuration; 0: none)",
        })
    };
    view! {
        <div class="products" id="product-controls">
            <label for="algo-product">"Or a real limiter, as it computes"</label>
            <select id="algo-product" on:change=on_pick
                prop:value=move || PRODUCT_VIEWS.iter().find(|p| p.value == View::Single(algo())).map_or("", |p| p.key)>
                <option value="">"— choose —"</option>
                {product_options()}
            </select>
            {move || choice().map(|c| view! { <ChoiceMenu playground=pg choice=c /> })}
            {toggles}
            {move || blocks().map(|label| view! { <BlockSlider playground=pg label=label /> })}
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
    let key = toggle.key;
    let (on, off) = (toggle.on, toggle.off);
    view! {
        <label class="check">
            <input type="checkbox" id=toggle.id prop:checked=move || pg.scenario.with(|s| s.product.get(key) == on)
                on:change=move |ev| pg.edit(|s| s.product.set(key, if event_target_checked(&ev) { on } else { off })) />
            {toggle.label}
        </label>
    }
}

/// A menu of one key's names: a product's (the Lua script), the server's.
#[component]
pub fn ChoiceMenu(
    /// The page state.
    playground: Playground,
    /// The menu.
    choice: Choice,
) -> impl IntoView {
    let pg = playground;
    let key = choice.key;
    let names = match key.kind {
        products::KeyKind::Names(names) => names,
        _ => &[],
    };
    // The label and its menu wrap as one, beside the product's menu.
    view! {
        <span class="check">
        <label for=choice.id>{choice.label}</label>
        <select id=choice.id prop:value=move || key.name_of(pg.scenario.with(|s| s.product.get(key))).unwrap_or_default()
            on:change=move |ev| {
                let name = event_target_value(&ev);
                if let Some(v) = key.value_of(&name) {
                    pg.edit(|s| s.product.set(key, v));
                }
            }>
            {names.iter().zip(choice.labels).map(|(&(name, _), &label)| view! { <option value=name>{label}</option> }).collect_view()}
        </select>
        </span>
    }
}

/// How long a client that went over stays refused (`block`, seconds to the ms; 0 for the
/// library's default).
#[component]
fn BlockSlider(
    /// The page state.
    playground: Playground,
    /// What it says, with what 0 means for the product.
    label: &'static str,
) -> impl IntoView {
    let pg = playground;
    view! {
        <Slider
            id="product-block"
            range=field_range(BLOCK.key)
            label=label
            unit="s"
            scale=SliderScale::Linear { min: 0, max: 600 }
            value=Signal::derive(move || pg.scenario.with(|s| s.product.get(&BLOCK)) as f64 / 1e3)
            on_change=Callback::new(move |v: f64| pg.edit(|s| s.product.set(&BLOCK, (v * 1e3).round().max(0.0) as u64)))
        />
    }
}

/// Above the limiter's parameters while a product model runs: which one reads them, and where
/// its configuration is (the groups keep the textbook names of the parameters it takes).
pub fn product_reads(pg: Playground) -> impl IntoView {
    move || {
        let algo = pg.scenario.with(|s| s.algo);
        (algo.is_product() && !pg.compare.get()).then(|| {
            view! {
                <p class="product-reads" id="product-reads">
                    <strong>{crate::present::options::algorithm_label(algo)}</strong>
                    " runs on the parameters below, as its configuration in “Use this in production” reads them."
                </p>
            }
        })
    }
}
