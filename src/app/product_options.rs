//! The product models as the `<option>`s of the whole page's product `<select>`, in two groups:
//! those checked here against the real software, and those read from their source or
//! documentation, not run here. (The first modules' stand-in lists them in the same order without
//! the groups, for the first module's size: see docs/size.md; a pick there hands over to the whole
//! page, which shows them.)

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
