//! One small multiple of compare mode: an algorithm's name, its throughput over the last 30 s
//! (the same y axis in every column), and its counters.

use leptos::prelude::*;

use super::playground::Playground;
use super::plot_canvas::PlotCanvas;
use crate::chart::canvas::Layers;
use crate::chart::throughput::{draw_throughput_data, throughput_axes};
use crate::present::chart_data::{self, MINI_SECONDS};
use crate::present::options::{algorithm_label, entry, PRODUCT_VIEWS, VIEWS};
use crate::present::snapshot::Column;
use crate::present::units::{format_percent, group_thousands};
use crate::sim::support::decimal::format_f64;
use crate::sim::Algorithm;

use crate::present::options::View;

/// Element id of a small multiple's data canvas: `mini-` and the algorithm's query name, or
/// `mini-product` for the product model's.
fn canvas_id(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::TokenBucket => "mini-token_bucket",
        Algorithm::Gcra => "mini-gcra",
        Algorithm::FixedWindow => "mini-fixed_window",
        Algorithm::SlidingWindow => "mini-sliding_window",
        Algorithm::SlidingLog => "mini-sliding_log",
        _ => "mini-product",
    }
}

/// The column of the `index`-th algorithm.
#[component]
pub fn CompareColumn(
    /// The page state to read from.
    playground: Playground,
    /// Its place among the compared simulations ([`crate::sim::compare::algorithms`]).
    index: usize,
    /// The algorithm (or product model) of that simulation.
    algo: Algorithm,
) -> impl IntoView {
    let pg = playground;
    let key =
        entry(&VIEWS, View::Single(algo)).or_else(|| entry(&PRODUCT_VIEWS, View::Single(algo))).map_or("", |e| e.key);
    let col = Memo::new(move |_| pg.readout.with(|s| s.columns.get(index).cloned().unwrap_or_default()));
    let redraw = Memo::new(move |_| pg.snapshot.with(|s| (s.generation << 40) ^ s.completed_buckets));
    let render = move |layers: &mut Layers, env: u64| {
        let Some((data, y_max)) = pg
            .with_runner(|r| {
                let y_max =
                    r.sims().iter().map(|s| chart_data::throughput(s, MINI_SECONDS).y_max()).fold(0.0, f64::max);
                r.sims().get(index).map(|s| (chart_data::throughput(s, MINI_SECONDS), y_max))
            })
            .flatten()
        else {
            return Ok(());
        };
        layers.draw(&throughput_axes(&data, y_max, true), env, |plot, style| {
            draw_throughput_data(plot, &data, style).map_err(|e| e.to_string())
        })
    };
    let n = move |f: fn(&Column) -> u64| move || col.with(|c| group_thousands(f(c)));
    let ratio = move || col.with(|c| format_percent(c.totals.pass_ratio()));
    let steady = move || col.with(|c| c.predicted.map_or("—".into(), format_percent));
    let label = format!(
        "{}: admitted (solid) and rejected (dashed) per second over the last {MINI_SECONDS} s",
        algorithm_label(algo)
    );
    view! {
        <article class="panel compare-column" data-algo=key data-requests=move || col.with(|c| c.totals.requests)
            data-peak=move || col.with(|c| c.peak.0) data-limit=move || col.with(|c| c.limit)>
            <h3>{algorithm_label(algo)}</h3>
            <PlotCanvas id=canvas_id(algo) label=label redraw=redraw render=render class="plot-mini" />
            <dl class="mini-counters">
                <div><dt>"Requests"</dt><dd>{n(|c| c.totals.requests)}</dd></div>
                <div class="admitted"><dt>"Admitted"</dt><dd>{n(|c| c.totals.admitted)}</dd></div>
                <div class="rejected"><dt>"Rejected"</dt><dd>{n(|c| c.totals.rejected)}</dd></div>
                <div><dt>"Pass ratio"</dt><dd>{ratio}</dd></div>
                <div class="steady"><dt>"steady state"</dt><dd>{steady}</dd></div>
                {pg.scenario.with_untracked(|s| algo.is_window(&s.product)).then(|| view! {
                    <div class="peak" class:alert=move || col.with(Column::over_limit)>
                        <dt title="Most requests admitted in any interval one window long">"Window peak"</dt>
                        <dd>{move || col.with(|c| if c.over_limit() {
                            format!("{} = {}× limit", c.peak.0, format_f64(c.peak.0 as f64 / c.limit as f64, 0))
                        } else {
                            format!("{} of {}", c.peak.0, c.limit)
                        })}</dd>
                    </div>
                })}
            </dl>
        </article>
    }
}
