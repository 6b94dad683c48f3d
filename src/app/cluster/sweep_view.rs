//! The edge design's sweep: overshoot over node counts × sync delays, computed at once by
//! fast-forward on the current scenario (not animated), and the preset that lands in the
//! 10–15 % band such a design accepts in production, with the parameters that produce it.

use leptos::prelude::*;

use crate::app::fold::Fold;
use crate::app::playground::Playground;
use crate::present::cluster::presets::{describe, edge_preset};
use crate::present::cluster::sweep::{
    band, flat_reason, run_sweep, sweep_base, sweep_requests, SWEEP_NODES, SWEEP_RTTS_MS,
};
use crate::present::units::format_secs;
use crate::sim::sweep::SweepCell;
use crate::sim::{Scenario, StoreMode};

/// Requests a sweep may simulate to be computed without being asked for.
const AT_ONCE: f64 = 250_000.0;

/// The scenario a sweep depends on: everything but what it varies.
fn basis(sc: &Scenario) -> Scenario {
    Scenario { nodes: 1, rtt: crate::sim::Nanos::ZERO, store: StoreMode::Async, ..sc.clone() }
}

/// The sweep card.
#[component]
pub fn SweepCard(
    /// The page state.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let result = RwSignal::new(None::<(Scenario, Result<Vec<SweepCell>, String>)>);
    let run = move || {
        let sc = pg.scenario.get_untracked();
        result.set(Some((basis(&sc), run_sweep(&sc).map_err(|e| e.to_string()))));
    };
    let preset = move |_| {
        pg.load(edge_preset());
        run();
    };
    // A grid that is quick to compute is there as soon as the card shows; a costly one waits
    // for a click.
    if pg.scenario.with_untracked(|s| sweep_requests(s) <= AT_ONCE) {
        run();
    }
    let stale = move || result.with(|r| r.as_ref().is_some_and(|(b, _)| *b != pg.scenario.with(basis)));
    let secs = move || pg.scenario.with(|s| format_secs(sweep_base(s).duration.as_secs_f64()));
    let cell = move |nodes: u32, rtt: u64| {
        result.with(|r| {
            let cells = r.as_ref().and_then(|(_, c)| c.as_ref().ok())?;
            cells.iter().find(|c| c.nodes == nodes && c.rtt.as_nanos() == rtt * 1_000_000).copied()
        })
    };
    let table = move || {
        SWEEP_NODES
            .iter()
            .map(|&n| {
                let cells = SWEEP_RTTS_MS
                    .iter()
                    .map(|&ms| match cell(n, ms) {
                        Some(c) => {
                            let p = c.overshoot_percent();
                            view! { <td class=format!("heat heat-{}", band(p)) data-nodes=n data-rtt=ms data-overshoot=format!("{p:.3}")>{format!("{p:.1} %")}</td> }.into_any()
                        }
                        None => view! { <td class="heat">"—"</td> }.into_any(),
                    })
                    .collect_view();
                view! { <tr><th scope="row">{format!("{n} nodes")}</th>{cells}</tr> }
            })
            .collect_view()
    };
    view! {
        <Fold playground=pg id="sweep-card" class="sweep-card" title="The edge design: overshoot by nodes and sync delay">
            <p class="hint">
                "Each node decides at once from its own view and syncs the count asynchronously. Production designs of this kind accept an overshoot of 10–15 %. The preset lands there with: "
                <strong id="edge-preset-params">{describe(&edge_preset())}</strong>
                "."
            </p>
            <div class="sweep-actions">
                <button type="button" id="edge-preset" class="primary" on:click=preset>"Load the 10–15 % preset"</button>
                <button type="button" id="sweep-run" on:click=move |_| run()>"Compute the sweep for these parameters"</button>
            </div>
            <Show when=move || result.with(Option::is_some)>
                <p class="hint">
                    {move || format!("Admitted beyond one exact limiter, store = edge, {} of simulated traffic per cell, computed at once.", secs())}
                    <Show when=stale>
                        <strong class="stale">" The parameters changed since: compute again."</strong>
                    </Show>
                </p>
                {move || result.with(|r| r.as_ref().and_then(|(_, c)| c.as_ref().err().cloned())).map(|e| view! { <p class="error" role="alert">{e}</p> })}
                <div class="sweep-scroll">
                    <table class="sweep" id="sweep">
                        <thead>
                            <tr>
                                <th scope="col">"Sync delay →"</th>
                                {SWEEP_RTTS_MS.into_iter().map(|ms| view! { <th scope="col">{format!("{ms} ms")}</th> }).collect::<Vec<_>>()}
                            </tr>
                        </thead>
                        <tbody>{table}</tbody>
                    </table>
                </div>
                <p class="hint sweep-legend" id="sweep-legend">
                    "Shade: "
                    <span class="heat heat-0">"under 1 %"</span>" "
                    <span class="heat heat-1">"1–10 %"</span>" "
                    <span class="heat heat-2">"10–15 %: production's band"</span>" "
                    <span class="heat heat-3">"15–30 %"</span>" "
                    <span class="heat heat-4">"30 % or more"</span>
                </p>
                {move || result.with(|r| r.as_ref().and_then(|(b, c)| flat_reason(b, c.as_ref().ok()?))).map(|why| view! { <p class="hint" id="sweep-flat">{why}</p> })}
            </Show>
        </Fold>
    }
}
