//! The four store modes on the current scenario, side by side: what each admits beyond one exact
//! limiter, and the p50 / p99 decision latency it pays for it. Recomputed by fast-forward (see
//! [`crate::present::cluster::modes`]) whenever the scenario changes; the current mode's row is highlighted. Under it,
//! what a real Redis measured at this node count ([`crate::present::cluster::measured`]).

use leptos::prelude::*;

use crate::app::fold::Fold;
use crate::app::playground::Playground;
use crate::present::cluster::choices::short_name;
use crate::present::cluster::measured;
use crate::present::cluster::modes::{compare_modes, stretch};
use crate::present::cluster::readout::format_latency;
use crate::present::units::{format_percent, format_secs};

/// The modes table.
#[component]
pub fn ModesTable(
    /// The page state to read from.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let rows = Memo::new(move |_| pg.scenario.with(compare_modes));
    let current = Memo::new(move |_| pg.scenario.with(|s| s.store));
    let secs = Memo::new(move |_| pg.scenario.with(|s| stretch(s).as_secs_f64()));
    let nodes = Memo::new(move |_| pg.scenario.with(|s| s.nodes));
    view! {
        <Fold playground=pg id="modes-card" class="modes-card" title="What the round trip buys">
            <p class="hint">{move || format!("Each store mode on these arrivals for {} of simulated time, computed at once.", format_secs(secs.get()))}</p>
            <table class="modes" id="modes">
                <thead>
                    <tr><th scope="col">"Store"</th><th scope="col">"Over-admitted"</th><th scope="col">"p50"</th><th scope="col">"p99"</th></tr>
                </thead>
                <tbody>
                    {move || {
                        rows.get()
                            .into_iter()
                            .map(|row| {
                                let over = row.over().map_or("—".into(), |o| format!("{}{}", if o > 0.0 { "+" } else { "" }, format_percent(o)));
                                view! {
                                    <tr class:current=move || current.get() == row.mode data-over=row.admitted as i64 - row.reference as i64>
                                        <th scope="row">{short_name(row.mode)}</th>
                                        <td>{over}</td>
                                        <td>{format_latency(row.p50)}</td>
                                        <td>{format_latency(row.p99)}</td>
                                    </tr>
                                }
                            })
                            .collect_view()
                    }}
                </tbody>
            </table>
            <MeasuredOnRedis nodes=nodes />
        </Fold>
    }
}

/// What a real Redis measured at `nodes` nodes, beside the simulation: a small table, or where to
/// find the figures when that node count was not measured. Static inside: only the node count
/// re-renders it.
#[component]
fn MeasuredOnRedis(
    /// The node count on screen.
    nodes: Memo<u32>,
) -> impl IntoView {
    let table = move || {
        let n = nodes.get();
        let rows = measured::rows(n);
        let caption = view! { <p class="hint">{measured::caption(n)}</p> };
        if rows.is_empty() {
            return caption.into_any();
        }
        let body: Vec<_> = rows
            .into_iter()
            .map(|r| view! { <tr><th scope="row">{r.rtt}</th>{cell(r.race)}{cell(r.atomic)}{cell(r.edge)}</tr> })
            .collect();
        view! {
            {caption}
            <table class="modes">
                <thead>
                    <tr><th scope="col">"Round trip"</th><th scope="col">"GET, then SET"</th><th scope="col">"Atomic"</th><th scope="col">"Edge"</th></tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
            <p class="hint">{measured::scenarios()}</p>
        }
        .into_any()
    };
    view! { <div id="redis-measured" class="redis-measured">{table}</div> }
}

/// One mode's figures: measured, and the simulated one under it.
fn cell(p: measured::Pair) -> impl IntoView {
    view! { <td>{p.measured}<span class="sim">{format!("sim. {}", p.simulated)}</span></td> }
}
