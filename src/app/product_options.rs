//! The product models as the `<option>`s of the product `<select>`, in two groups: those checked
//! here against the real software, and those read from their source or documentation, not run
//! here. The whole page's picker and the first modules' stand-in for it (whose pick hands over to
//! the whole page) list them alike.

use leptos::prelude::*;

use crate::present::options::{Labelled, View, PRODUCTS_RUN_HERE, PRODUCT_VIEWS};

/// The `<optgroup>`s of the product models, each `<option>` valued by its `algo=` key.
pub fn product_options() -> impl IntoView {
    let (here, read) = PRODUCT_VIEWS.split_at(PRODUCTS_RUN_HERE);
    let options = |views: &'static [Labelled<View>]| {
        views.iter().map(|p| view! { <option value=p.key>{p.label}</option> }).collect_view()
    };
    view! {
        <optgroup label="Checked against the real software">{options(here)}</optgroup>
        <optgroup label="Read from source or docs, not run here">{options(read)}</optgroup>
    }
}
