//! The algorithm picker: a radio group of the six algorithms and Compare, styled as a segmented
//! control (arrow keys move between options, as in any radio group).

use leptos::prelude::*;

use super::playground::Playground;
use crate::present::options::VIEWS;

/// Picks what the page shows; changing it restarts the simulation.
#[component]
pub fn AlgoPicker(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    view! {
        <fieldset class="picker">
            <legend class="visually-hidden">"Algorithm"</legend>
            {VIEWS
                .iter()
                .map(|v| {
                    let value = v.value;
                    let chosen = move || pg.view() == value;
                    view! {
                        <label class="pick" class:chosen=chosen>
                            <input
                                type="radio"
                                name="algo"
                                id=format!("algo-{}", v.key)
                                value=v.key
                                prop:checked=chosen
                                on:change=move |_| pg.set_view(value)
                            />
                            <span>{v.label}</span>
                        </label>
                    }
                })
                .collect_view()}
        </fieldset>
    }
}
