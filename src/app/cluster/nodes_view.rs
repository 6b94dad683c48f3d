//! Admitted per node: one bar per node, against the share one exact limiter would have given it.
//! HTML rather than canvas, so screen readers and tests read the counts as they are.

use leptos::prelude::*;

use crate::app::fold::Fold;
use crate::app::playground::Playground;
use crate::present::cluster::readout::ClusterReadout;
use crate::present::units::group_thousands;

/// The per-node card.
#[component]
pub fn NodeBars(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let counts = Memo::new(move |_| {
        pg.readout.with(|s| (s.generation, s.events));
        pg.with_runner(|r| {
            r.sims().first().map(|s| {
                let n = (s.scenario().nodes as usize).clamp(1, 16);
                (s.metrics().node_admitted[..n].to_vec(), s.metrics().totals.reference_admitted)
            })
        })
        .flatten()
        .unwrap_or_default()
    });
    let top =
        Memo::new(move |_| counts.with(|(c, reference)| c.iter().copied().max().unwrap_or(0).max(*reference).max(1)));
    let fair = Memo::new(move |_| counts.with(|(c, reference)| *reference as f64 / c.len().max(1) as f64));
    // Why the split is uneven, where the engine's numbers say why.
    let uneven = Memo::new(move |_| {
        let node_admitted = counts.with(|(c, _)| c.clone());
        pg.scenario.with(|sc| ClusterReadout { node_admitted, ..ClusterReadout::default() }.uneven_split(sc))
    });
    let bar = move |i: usize| {
        let count = move || counts.with(|(c, _)| c.get(i).copied().unwrap_or(0));
        view! {
            <li data-admitted=count>
                <span class="node-name">{format!("node {}", i + 1)}</span>
                <span class="node-bar">
                    <span class="node-fill" style:width=move || format!("{:.1}%", count() as f64 * 100.0 / top.get() as f64)></span>
                    <span class="node-fair" style:left=move || format!("{:.1}%", fair.get() * 100.0 / top.get() as f64)></span>
                </span>
                <span class="node-count">{move || group_thousands(count())}</span>
            </li>
        }
    };
    view! {
        <Fold playground=pg id="nodes-card" class="nodes-card" title="Admitted per node">
            <p class="hint">"The tick marks an equal share of what one exact limiter admitted."</p>
            {move || uneven.get().map(|why| view! { <p class="hint" id="node-split">{why}</p> })}
            <ol class="node-bars" id="node-bars">
                <For each=move || 0..counts.with(|(c, _)| c.len()) key=|i| *i let:i>
                    {bar(i)}
                </For>
            </ol>
        </Fold>
    }
}
