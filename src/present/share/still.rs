//! The embed's still: the cards an embed shows (`show=`), of its scenario at its moment (`t=`),
//! as one SVG document 600 px wide, for readers whose page strips iframes. The engine runs as the
//! embed runs it (a [`Runner`] fast-forwarded to the moment), each chart is read out by the
//! page's own data functions and drawn by the same plotters code the page draws on its canvases;
//! the text cards (counters, last response, code, per node, round trips, sweep, outage) are set
//! as lines of text with the page's numbers. What `ratelimit-sim --format svg --show …` prints.

use crate::chart::server_window::ServerWindow;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::chart::cluster::swimlane_draw::{draw_swimlane, draw_swimlane_labels};
use crate::chart::cluster::topology_draw::{draw_topology, draw_topology_labels, TopologyLabels};
use crate::chart::convergence::draw_convergence;
use crate::chart::state::draw_state;
use crate::chart::strip::draw_strip;
use crate::chart::style::{font, ChartStyle};
use crate::chart::throughput::{draw_throughput, ThroughputWindow};
use crate::present::chart_data::{self, MINI_SECONDS, THROUGHPUT_SECONDS};
use crate::present::cluster::pictures::{picture, swimlane};
use crate::present::cluster::presets::is_cluster;
use crate::present::options::algorithm_label;
use crate::present::runner::Runner;
use crate::present::share::cards::{fit, full_rows, Card};
use crate::present::share::frame::Theme;
use crate::present::share::snippet::FRAME_WIDTH;
use crate::present::share::still_body::{body, Body};
use crate::present::share::still_look::{asked_font_sizes, chart_scale, drawing_style, follow_scheme, wrap};
use crate::present::share::title::scenario_line;
use crate::present::units::{clock_text, group_thousands};
use crate::sim::{Nanos, Scenario, Simulation};

/// Height of a card's title line, px.
const TITLE: u32 = 24;
/// Height of a line of a text card, px.
const LINE: u32 = 18;
/// Space between cards, px.
const GAP: u32 = 8;
/// Characters in a line of the caption (13 px text across 600 px).
const CAPTION_CHARS: usize = 80;
/// Characters in a line of the heading (14 px text across 600 px).
const HEADING_CHARS: usize = 74;

/// The still of `cards` (fitted to the scenario as the embed fits them) at simulated time `at`,
/// in the embed's `theme` and with its `caption` under the cards, as the embed shows them.
pub fn still_svg(sc: &Scenario, cards: &[Card], at: Nanos, theme: Theme, caption: &str) -> Result<String, String> {
    sc.validate().map_err(|e| e.to_string())?;
    let (cards, _) = fit(cards, is_cluster(sc), crate::sim::server::keys::has_server(&sc.product));
    let mut runner = Runner::new(sc, cards.contains(&Card::Compare));
    runner.jump(at);
    let sim = runner.sims().first().ok_or("the scenario runs no simulation")?;
    let bodies: Vec<(Card, Body)> = cards.iter().map(|&c| (c, body(c, &runner, sim))).collect();
    let rows = rows(&bodies);
    // What it shows (the limiter, the traffic, the nodes and store), then the moment's counts.
    let mut heading = wrap(&scenario_line(sc), HEADING_CHARS);
    heading.push(format!(
        "{} · {} requests, {} admitted, {} rejected",
        clock_text(sim.now().as_secs_f64(), false),
        group_thousands(sim.metrics().totals.requests),
        group_thousands(sim.metrics().totals.admitted),
        group_thousands(sim.metrics().totals.rejected),
    ));
    let head = (heading.len() as u32 - 1) * LINE + TITLE + GAP;
    let caption = if caption.trim().is_empty() { Vec::new() } else { wrap(caption.trim(), CAPTION_CHARS) };
    let below = if caption.is_empty() { 0 } else { caption.len() as u32 * LINE + GAP };
    let height = head + rows.iter().map(|r| row_height(&bodies, r) + GAP).sum::<u32>() + below;
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (FRAME_WIDTH, height)).into_drawing_area();
        let style = drawing_style(theme);
        root.fill(&style.theme.background).map_err(|e| e.to_string())?;
        for (i, line) in heading.iter().enumerate() {
            text(&root, line, 8, 6 + (i as u32 * LINE) as i32, 14, &style)?;
        }
        let mut y = head;
        for row in &rows {
            let h = row_height(&bodies, row);
            let w = FRAME_WIDTH / row.len() as u32;
            for (k, &i) in row.iter().enumerate() {
                let x = k as u32 * w;
                let area = root.clone().shrink((x, y), (w.saturating_sub(if k + 1 < row.len() { GAP } else { 0 }), h));
                draw_card(&area, bodies[i].0, &bodies[i].1, &runner, sim, &style)?;
            }
            y += h + GAP;
        }
        for (i, line) in caption.iter().enumerate() {
            text(&root, line, 8, (y + i as u32 * LINE) as i32, 13, &style)?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(follow_scheme(&asked_font_sizes(&out), theme))
}

/// Rows of card indices, as the embed's grid lays them out ([`full_rows`]).
fn rows(bodies: &[(Card, Body)]) -> Vec<Vec<usize>> {
    let cards: Vec<Card> = bodies.iter().map(|(c, _)| *c).collect();
    let full = full_rows(&cards);
    let mut rows: Vec<Vec<usize>> = Vec::new();
    for (i, &alone) in full.iter().enumerate() {
        match rows.last_mut() {
            // A half row waiting for its neighbour.
            Some(row) if !alone && row.len() == 1 && !full[row[0]] => row.push(i),
            _ => rows.push(vec![i]),
        }
    }
    rows
}

fn body_height(body: &Body) -> u32 {
    TITLE
        + match body {
            Body::Chart { height, above, below } => (above.len() + below.len()) as u32 * LINE + height,
            Body::Text(lines) => lines.len() as u32 * LINE + 6,
        }
}

fn row_height(bodies: &[(Card, Body)], row: &[usize]) -> u32 {
    row.iter().map(|&i| body_height(&bodies[i].1)).max().unwrap_or(0)
}

/// Writes `s` at (`x`, `y`) in `size` px.
fn text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    x: i32,
    y: i32,
    size: u32,
    style: &ChartStyle,
) -> Result<(), String> {
    let font = font(f64::from(size)).color(&style.theme.text);
    area.draw(&Text::new(s.to_string(), (x, y), font)).map_err(|e| e.to_string())
}

/// Draws one card into `area`: its title, then the chart or the lines.
fn draw_card<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    card: Card,
    body: &Body,
    runner: &Runner,
    sim: &Simulation,
    style: &ChartStyle,
) -> Result<(), String> {
    text(area, card.title(), 8, 4, 13, style)?;
    let (w, h) = area.dim_in_pixel();
    let inner = area.clone().shrink((0, TITLE), (w, h.saturating_sub(TITLE)));
    let lines = |area: &DrawingArea<DB, Shift>, lines: &[String], top: u32| -> Result<(), String> {
        for (i, line) in lines.iter().enumerate() {
            text(area, line, 8, (top + i as u32 * LINE) as i32, 12, style)?;
        }
        Ok(())
    };
    match body {
        Body::Text(text_lines) => lines(&inner, text_lines, 0),
        Body::Chart { height, above, below } => {
            lines(&inner, above, 0)?;
            let top = above.len() as u32 * LINE;
            lines(&inner, below, top + height)?;
            let plot = inner.clone().shrink((0, top), (w, *height));
            draw_chart(&plot, card, runner, sim, style)
        }
    }
}

/// Draws `card`'s chart into `inner`.
fn draw_chart<DB: DrawingBackend>(
    inner: &DrawingArea<DB, Shift>,
    card: Card,
    runner: &Runner,
    sim: &Simulation,
    style: &ChartStyle,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    let inner = inner.clone();
    let sc = sim.scenario();
    let style = &ChartStyle { scale: chart_scale(card), ..*style };
    {
        match card {
            Card::Throughput if is_cluster(sc) => {
                let data = ThroughputWindow {
                    allowed_rate: Some(sc.allowed_rate()),
                    admitted_scale: true,
                    ..ThroughputWindow::from_metrics(sim.metrics(), sim.now(), THROUGHPUT_SECONDS)
                };
                draw_throughput(&inner, &data, style).map_err(e)
            }
            Card::Throughput => {
                draw_throughput(&inner, &chart_data::throughput(sim, THROUGHPUT_SECONDS), style).map_err(e)
            }
            Card::State => draw_state(&inner, &chart_data::state(sim), style).map_err(e),
            Card::Steady => match chart_data::convergence(runner) {
                Some(view) => draw_convergence(&inner, &view, style).map_err(e),
                None => Ok(()),
            },
            Card::Strip => draw_strip(&inner, &chart_data::strip(sim), style).map_err(e),
            Card::Compare => {
                let sims = runner.sims();
                let y_max = sims.iter().map(|s| chart_data::throughput(s, MINI_SECONDS).y_max()).fold(0.0, f64::max);
                let (iw, ih) = inner.dim_in_pixel();
                let (cw, ch) = (iw / 3, 150);
                for (i, s) in sims.iter().enumerate() {
                    let (x, y) = ((i as u32 % 3) * cw, (i as u32 / 3) * ch);
                    let cell = inner.clone().shrink((x, y), (cw.saturating_sub(GAP), ch.min(ih.saturating_sub(y))));
                    let label = format!(
                        "{} · {}",
                        algorithm_label(s.scenario().algo),
                        group_thousands(s.metrics().totals.admitted)
                    );
                    text(&cell, &label, 6, 0, 12, style)?;
                    let (_, cell_h) = cell.dim_in_pixel();
                    let plot = cell.clone().shrink((0, 16), (cw.saturating_sub(GAP), cell_h.saturating_sub(16)));
                    let data = chart_data::throughput(s, MINI_SECONDS);
                    let axes = crate::chart::throughput::throughput_axes(&data, y_max, true);
                    crate::chart::plot::draw_layered(&plot, &axes, style, |p| {
                        crate::chart::throughput::draw_throughput_data(p, &data, style)
                    })
                    .map_err(e)?;
                }
                Ok(())
            }
            Card::Topology => {
                draw_topology(&inner, &picture(sim, false, 1.0), style).map_err(e)?;
                let down = sc.outage.is_some_and(|o| o.start <= sim.now() && sim.now() < o.end);
                let keys = crate::sim::shards::count(sc);
                let labels =
                    TopologyLabels { nodes: sc.nodes as usize, lb: sc.lb, mode: sc.store, store_down: down, keys };
                draw_topology_labels(&inner, &labels, style).map_err(e)
            }
            Card::Swimlane => {
                draw_swimlane(&inner, &swimlane(sim), style).map_err(e)?;
                draw_swimlane_labels(&inner, sc.nodes as usize, style).map_err(e)
            }
            card if card.server() => match (card.server_chart(), ServerWindow::of(sim, THROUGHPUT_SECONDS)) {
                (Some(chart), Some(data)) => chart.draw(&inner, &data, style).map_err(e),
                _ => Ok(()),
            },
            _ => Ok(()),
        }
    }
}

#[cfg(test)]
#[path = "still_tests.rs"]
mod tests;
