//! What each card of a still holds: a chart's height with the lines above and below it (the
//! seam's callout, a picture's key), or the lines of a text card, with the page's numbers.
//! [`super::still`] lays them out and draws them.

use crate::present::cluster::choices::short_name;
use crate::present::cluster::code::node_code;
use crate::present::cluster::keys::{swimlane_key, topology_key};
use crate::present::cluster::modes::compare_modes;
use crate::present::cluster::outage::{summary, OutageReport};
use crate::present::cluster::presets::is_cluster;
use crate::present::cluster::readout::{format_latency, ClusterReadout};
use crate::present::cluster::sweep::{run_sweep, SWEEP_NODES, SWEEP_RTTS_MS};
use crate::present::runner::Runner;
use crate::present::seam::seam_callout;
use crate::present::share::cards::Card;
use crate::present::share::still_look::wrap;
use crate::present::snapshot::{status_line, Column};
use crate::present::units::{format_percent, group_thousands};
use crate::sim::Simulation;

/// What one card draws: a chart, or lines of text.
pub(super) enum Body {
    /// Drawn by the page's chart code into an area `height` tall, with lines of text above it
    /// (the seam's callout) and below it (a picture's key), as the card shows them.
    Chart {
        /// The chart's height, px.
        height: u32,
        /// Lines above the chart.
        above: Vec<String>,
        /// Lines below the chart.
        below: Vec<String>,
    },
    /// Text lines.
    Text(Vec<String>),
}

/// A chart `height` px tall, with nothing above or below it.
fn chart(height: u32) -> Body {
    Body::Chart { height, above: Vec::new(), below: Vec::new() }
}

/// Characters in a line of a card's text (12 px across 600 px).
const CARD_CHARS: usize = 84;

/// A key's items in lines of at most [`CARD_CHARS`], three spaces between items.
fn key_lines(key: &[crate::present::cluster::keys::KeyItem]) -> Vec<String> {
    let joined: Vec<String> = key.iter().map(|(words, _)| words.replace(' ', "\u{a0}")).collect();
    wrap(&joined.join("   "), CARD_CHARS).into_iter().map(|l| l.replace('\u{a0}', " ")).collect()
}

/// What `card` shows of `sim` (the runner's first simulation).
pub(super) fn body(card: Card, runner: &Runner, sim: &Simulation) -> Body {
    let sc = sim.scenario();
    let totals = sim.metrics().totals;
    match card {
        Card::Throughput if !is_cluster(sc) => {
            let column = Column::of(sim);
            let above = if column.over_limit() {
                let callout = seam_callout(column.peak, column.limit, column.seam, sc.effective_window());
                wrap(&format!("⚠ {}{}", callout.head, callout.rest), CARD_CHARS)
            } else {
                Vec::new()
            };
            Body::Chart { height: 270, above, below: Vec::new() }
        }
        Card::Throughput | Card::ServerLoad | Card::ServerLatency | Card::ServerQueue => chart(270),
        Card::State | Card::Steady => chart(220),
        Card::Strip => chart(110),
        Card::Compare => chart(150 * runner.sims().len().div_ceil(3) as u32),
        Card::Topology => {
            Body::Chart { height: 320, above: Vec::new(), below: key_lines(&topology_key(sc.outage.is_some())) }
        }
        Card::Swimlane => {
            let failover = crate::sim::store_keys::failover(&sc.product).is_some();
            Body::Chart {
                height: 50 + 32 * sc.nodes.clamp(1, 16),
                above: Vec::new(),
                below: key_lines(&swimlane_key(sc.store, failover)),
            }
        }
        Card::Stats if is_cluster(sc) => {
            let r = ClusterReadout::of(sim);
            Body::Text(vec![
                format!(
                    "{} requests · {} admitted · {} rejected",
                    group_thousands(r.requests),
                    group_thousands(r.admitted),
                    group_thousands(totals.rejected)
                ),
                format!(
                    "one exact limiter: {} · over-admitted: {} ({})",
                    group_thousands(r.reference),
                    r.over_label(),
                    r.share_label()
                ),
                format!("decision latency p50 {} · p99 {}", format_latency(r.p50), format_latency(r.p99)),
            ])
        }
        Card::Stats => Body::Text(vec![
            format!("requests {}", group_thousands(totals.requests)),
            format!("admitted {}", group_thousands(totals.admitted)),
            format!("rejected {}", group_thousands(totals.rejected)),
            format!(
                "pass ratio {}",
                if totals.requests == 0 { "—".to_string() } else { format_percent(totals.pass_ratio()) }
            ),
        ]),
        Card::Response => {
            let last = runner.readout(0).last;
            let mut lines = vec![status_line(last.as_ref().map(|l| l.status)).to_string()];
            if let Some(l) = last {
                lines.extend(l.headers.iter().map(|(k, v)| format!("{k}: {v}")));
            }
            Body::Text(lines)
        }
        Card::Code => Body::Text(
            std::iter::once(format!("On each node · {}", short_name(sc.store)))
                // Leading spaces as no-break spaces: SVG text collapses the indentation otherwise.
                .chain(node_code(sc.store).iter().map(|(_, line)| {
                    let body = line.trim_start_matches(' ');
                    "\u{a0}".repeat(line.len() - body.len()) + body
                }))
                .collect(),
        ),
        Card::Nodes => {
            let n = (sc.nodes as usize).clamp(1, 16);
            let m = sim.metrics();
            let mut lines: Vec<String> = m.node_admitted[..n]
                .iter()
                .enumerate()
                .map(|(i, a)| format!("node {}: {} admitted", i + 1, group_thousands(*a)))
                .collect();
            lines.push(format!("one exact limiter: {}", group_thousands(m.totals.reference_admitted)));
            Body::Text(lines)
        }
        Card::Rtt => Body::Text(
            compare_modes(sc)
                .into_iter()
                .map(|row| {
                    let over = row
                        .over()
                        .map_or("—".into(), |o| format!("{}{}", if o > 0.0 { "+" } else { "" }, format_percent(o)));
                    format!(
                        "{}: over-admitted {over} · p50 {} · p99 {}",
                        short_name(row.mode),
                        format_latency(row.p50),
                        format_latency(row.p99)
                    )
                })
                .collect(),
        ),
        Card::Sweep => Body::Text(match run_sweep(sc) {
            Ok(cells) => {
                let head = format!("overshoot · rtt {}", SWEEP_RTTS_MS.map(|ms| format!("{ms} ms")).join(" · "));
                std::iter::once(head)
                    .chain(SWEEP_NODES.iter().map(|&n| {
                        let row: Vec<String> = SWEEP_RTTS_MS
                            .iter()
                            .map(|&ms| {
                                cells
                                    .iter()
                                    .find(|c| c.nodes == n && c.rtt.as_nanos() == ms * 1_000_000)
                                    .map_or("—".into(), |c| format!("{:.1} %", c.overshoot_percent()))
                            })
                            .collect();
                        format!("{n} nodes: {}", row.join(" · "))
                    }))
                    .collect()
            }
            Err(e) => vec![e.to_string()],
        }),
        Card::Outage => Body::Text(match OutageReport::of(sim) {
            Some(r) => wrap(&summary(&r, sc.store), 84),
            None => vec!["No outage in this scenario (outage=START-END sets one).".into()],
        }),
    }
}
