//! A chart legend in HTML: a line sample (solid, dashed or dotted, in the series' colour) and a
//! label per series. HTML rather than canvas text, so it wraps on a phone and costs no canvas
//! text measurement.

use leptos::prelude::*;

use crate::chart::plot::{Dash, Ink, Key};

/// The CSS classes of a key's line sample.
fn swatch_class(key: &Key) -> String {
    let ink = match key.ink {
        Ink::Admitted => "ink-admitted",
        Ink::Rejected => "ink-rejected",
        Ink::Text => "ink-text",
        Ink::Axis => "ink-axis",
    };
    let dash = match key.dash {
        Dash::Solid => "solid",
        Dash::Dashed => "dashed",
        Dash::Dotted => "dotted",
    };
    format!("swatch {ink} {dash}")
}

/// The legend of one chart (hidden from screen readers: the chart's label describes its lines).
#[component]
pub fn Legend(
    /// The series, in drawing order.
    #[prop(into)]
    keys: Signal<Vec<Key>>,
) -> impl IntoView {
    view! {
        <ul class="legend" aria-hidden="true">
            {move || {
                keys.get()
                    .into_iter()
                    .map(|k| view! { <li><span class=swatch_class(&k)></span>{k.label}</li> })
                    .collect_view()
            }}
        </ul>
    }
}
