//! Compare mode: the five algorithms on the same arrivals as small multiples, and how often the
//! sliding window counter disagreed with the exact sliding log.

use leptos::prelude::*;

use super::compare_column::CompareColumn;
use super::playground::Playground;
use super::units::{format_percent, group_thousands};
use crate::sim::compare::ALGORITHMS;

/// The grid of small multiples and the disagreement line.
#[component]
pub fn CompareView(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let d = Memo::new(move |_| pg.snapshot.with(|s| s.disagreement.unwrap_or_default()));
    view! {
        <section class="compare" aria-labelledby="compare-title">
            <h2 id="compare-title" class="visually-hidden">"All five algorithms on the same arrivals"</h2>
            <div class="compare-grid">
                {(0..ALGORITHMS.len()).map(|index| view! { <CompareColumn playground=pg index=index /> }).collect_view()}
            </div>
            <p class="panel disagreement" id="disagreement" data-total=move || d.get().total() data-compared=move || d.get().compared>
                <strong class="big">{move || format_percent(d.get().rate())}</strong>
                <span>
                    {move || {
                        let d = d.get();
                        format!(
                            " of {} arrivals: the sliding window counter decided differently from the exact sliding log on the same history — {} admitted that the log would have refused, {} refused that it would have admitted.",
                            group_thousands(d.compared),
                            group_thousands(d.counter_admitted_log_rejected),
                            group_thousands(d.counter_rejected_log_admitted),
                        )
                    }}
                </span>
            </p>
        </section>
    }
}
