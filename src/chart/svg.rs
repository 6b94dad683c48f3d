//! A whole run as one SVG document, drawn by the same chart code the app draws on its canvases:
//! what `ratelimit-sim --format svg` prints, for docs that cannot embed an iframe.

use plotters::prelude::*;

use super::state::{draw_state, StateWindow};
use super::style::ChartStyle;
use super::throughput::{draw_throughput, ThroughputWindow};
use crate::sim::Simulation;

/// Width of the document in CSS pixels.
pub const WIDTH: u32 = 800;
/// Height of the throughput chart.
const THROUGHPUT_HEIGHT: u32 = 320;
/// Height of the inner-state chart.
const STATE_HEIGHT: u32 = 240;

/// The throughput of the whole run (up to `history_secs` at its end) above the limiter's inner
/// state over the same span, if the simulation sampled it ([`Simulation::sample_state`]).
pub fn run_svg(sim: &Simulation, history_secs: u64) -> Result<String, String> {
    let sc = sim.scenario();
    let mut throughput = ThroughputWindow::from_metrics(sim.metrics(), sim.now(), history_secs);
    throughput.allowed_rate = Some(sc.allowed_rate());
    throughput.marker_secs = sim.metrics().totals.first_rejection.map(|t| t.as_secs_f64());
    throughput.marker_label = "first 429";
    let state = sim.state_samples().map(|_| StateWindow::of(sim, throughput.width_secs));
    let height = THROUGHPUT_HEIGHT + state.as_ref().map_or(0, |_| STATE_HEIGHT);
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, (WIDTH, height)).into_drawing_area();
        let style = ChartStyle::default();
        let (top, bottom) = root.split_vertically(THROUGHPUT_HEIGHT);
        draw_throughput(&top, &throughput, &style).map_err(|e| e.to_string())?;
        if let Some(state) = &state {
            draw_state(&bottom, state, &style).map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}
