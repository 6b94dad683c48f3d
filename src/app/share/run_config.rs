//! "Run this config", wherever it is pressed (the production panel's tab, a row of "Same policy,
//! every product"): the playground switches to the product's model on the same policy and
//! arrivals, and the reader is taken to the chart it changed, which says what differed.

use leptos::prelude::*;

use crate::app::playground::Playground;
use crate::sim::product_runs::{run_config, side_by_side};

/// Runs the configuration of the export `tab` in the playground (its product's model on the same
/// policy and arrivals), then takes the reader to the chart it changed, where the throughput
/// card says in numbers what the product did against the textbook and why.
pub fn run_and_show(pg: Playground, tab: &str) {
    let Some(next) = pg.scenario.with_untracked(|s| run_config(s, tab)) else { return };
    pg.compare.set(false);
    pg.edit(|s| *s = next);
    let said = pg.scenario.with_untracked(|sc| match side_by_side(sc) {
        Ok(x) => x.statement,
        Err(e) => e.message,
    });
    pg.ran.set(Some(said));
    request_animation_frame(|| {
        // The whole card, its title included, at the top of the screen.
        let callout = document().get_element_by_id("ran-callout");
        if let Some(card) = callout.and_then(|c| c.closest("figure").ok().flatten()) {
            card.scroll_into_view_with_bool(true);
        }
    });
}
