//! "Same policy, every product": the current policy through each production tab's exported
//! configuration on the same arrivals ([`every_product`]), one row each — what each limiter
//! admits and refuses, when it first refuses, the longest it holds a request, and why it differs
//! from the textbook — with a button per row that runs that configuration in the playground.
//! Computed only while its disclosure is open: a dozen runs on every change of the policy.
//!
//! The table is markup text ([`crate::present::every_product`]) and its buttons answer through
//! one listener on the table's box.

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::markup::escape;
use crate::present::every_product::table;
use crate::sim::product_runs::every_product;

/// The disclosure and its table.
#[component]
pub fn EveryProduct(
    /// The page state whose policy and traffic are run.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let open = RwSignal::new(false);
    let markup = Memo::new(move |_| {
        if !open.get() {
            return String::new();
        }
        match pg.scenario.with(every_product) {
            Ok(rows) => table(&rows),
            Err(e) => format!("<p class=\"hint\" id=\"every-product-error\">{}</p>", escape(&e.message)),
        }
    });
    // A Run button's tab, from the click's target.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let target = event_target::<web_sys::Element>(&ev);
        let Some(export) = target.get_attribute("data-export") else { return };
        let Some(&export) = crate::production::EXPORT_NAMES.iter().find(|&&e| e == export) else { return };
        super::run_config::run_and_show(pg, export);
    };
    view! {
        <details class="every-product" id="every-product"
            on:toggle=move |ev| open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"))>
            <summary>"Same policy, every product: what does each one actually do?"</summary>
            <div class="log-scroll" on:click=on_click inner_html=move || markup.get()></div>
        </details>
    }
}
