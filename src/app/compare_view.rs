//! Compare mode: the five algorithms (and a product model, when one is chosen) on the same
//! arrivals as small multiples, and how many
//! requests the sliding window counter admitted against the exact sliding log.

use leptos::prelude::*;

use super::compare_column::CompareColumn;
use super::playground::Playground;
use crate::present::units::{format_percent, group_thousands};
use crate::sim::compare::algorithms;
use crate::sim::{Disagreement, TrafficShape};

/// The grid of small multiples and the counter-versus-log line.
#[component]
pub fn CompareView(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let d = Memo::new(move |_| pg.readout.with(|s| s.disagreement.unwrap_or_default()));
    let even = Memo::new(move |_| pg.scenario.with(|s| s.traffic == TrafficShape::Constant));
    let try_traffic = move |traffic: TrafficShape, id: &'static str, label: &'static str| {
        view! { <button type="button" id=id on:click=move |_| pg.edit(|s| s.traffic = traffic)>{label}</button> }
    };
    view! {
        <section class="compare" aria-labelledby="compare-title">
            <h2 id="compare-title" class="visually-hidden">"All five algorithms on the same arrivals"</h2>
            <div class="compare-grid">
                {move || {
                    pg.scenario
                        .with(algorithms)
                        .into_iter()
                        .enumerate()
                        .map(|(index, algo)| view! { <CompareColumn playground=pg index=index algo=algo /> })
                        .collect_view()
                }}
            </div>
            <p class="panel disagreement" id="disagreement" data-counter=move || d.get().counter_admitted data-log=move || d.get().log_admitted>
                <strong class="big">{move || d.with(headline)}</strong>
                <span>{move || d.with(explanation)}</span>
            </p>
            // Under the page's default traffic the columns barely differ: say why, one click from
            // traffic where they part.
            {move || even.get().then(|| view! {
                <div class="panel compare-hint" id="compare-traffic-hint">
                    <p>"Evenly spaced arrivals hide most of what sets these apart: no burst lands on a window's edge, so the fixed window and the sliding log may decide alike. They part on uneven traffic:"</p>
                    {try_traffic(TrafficShape::Seam, "compare-traffic-seam", "Seam attack")}
                    {try_traffic(TrafficShape::Bursts, "compare-traffic-bursts", "Bursts")}
                    {try_traffic(TrafficShape::Poisson, "compare-traffic-poisson", "Poisson arrivals")}
                </div>
            })}
        </section>
    }
}

/// The big figure: how many more or fewer the counter admitted, relative to the log.
fn headline(d: &Disagreement) -> String {
    let diff = d.difference();
    if d.log_admitted == 0 && d.counter_admitted == 0 {
        "—".into()
    } else if d.counter_admitted == d.log_admitted {
        "The same".into()
    } else if diff < 0.0 {
        format!("{} fewer", format_percent(-diff))
    } else {
        format!("{} more", format_percent(diff))
    }
}

/// The sentence after it, with both counts.
fn explanation(d: &Disagreement) -> String {
    let (counter, log) = (group_thousands(d.counter_admitted), group_thousands(d.log_admitted));
    if d.log_admitted == 0 && d.counter_admitted == 0 {
        " Nothing admitted yet: the sliding window counter is compared with the exact sliding log once requests arrive."
            .into()
    } else if d.counter_admitted == d.log_admitted {
        format!(" number admitted by the sliding window counter as by the exact sliding log on the same arrivals so far: {counter} each.")
    } else {
        format!(
            " admitted by the sliding window counter than by the exact sliding log on the same arrivals so far: {counter} against {log}. Its estimate assumes the previous window's requests were spread evenly."
        )
    }
}
