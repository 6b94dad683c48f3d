//! The server view's three charts (issue #37), from a [`ServerWindow`]: load (requests offered,
//! goodput, wasted, shed, and the server's capacity), latency (mean, p50 and p99 per second, and
//! queueing theory's mean where it applies) and the queue (the most waiting in each second, and
//! the waiting room's size). The x axis is "seconds ago", as the throughput chart's. Generic over
//! plotters' [`DrawingBackend`]: the page draws them on canvases, the CLI to SVG.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::nice_ceiling;
use super::plot::{draw_all, draw_layered, draw_line, Axes, ChartStyle, Dash, Drawn, Ink, Key, Plot, Ticks};
use super::server_window::{ServerPoint, ServerWindow};

/// Which of the server's charts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerChart {
    /// Requests per second: offered, goodput, wasted, shed; the capacity.
    Load,
    /// Latency per second, ms: mean, p50, p99; theory's mean.
    Latency,
    /// Requests waiting: the most per second; the waiting room.
    Queue,
}

impl ServerChart {
    /// Its legend, with the reference line's entry only when `data` has one to draw.
    pub fn legend(self, data: &ServerWindow) -> Vec<Key> {
        let key = |label, ink, dash| Key { label, ink, dash };
        match self {
            ServerChart::Load => vec![
                key("offered / s", Ink::Text, Dash::Solid),
                key("goodput / s", Ink::Admitted, Dash::Solid),
                key("wasted / s", Ink::Rejected, Dash::Dashed),
                key("shed (503) / s", Ink::Rejected, Dash::Dotted),
                key("capacity", Ink::Axis, Dash::Dashed),
            ],
            ServerChart::Latency => {
                let mut keys = vec![
                    key("mean", Ink::Text, Dash::Solid),
                    key("p50", Ink::Admitted, Dash::Solid),
                    key("p99", Ink::Rejected, Dash::Dashed),
                ];
                if data.theory_ms.is_some() {
                    keys.push(key("theory: mean", Ink::Text, Dash::Dotted));
                }
                keys
            }
            ServerChart::Queue => {
                let mut keys = vec![key("most waiting", Ink::Admitted, Dash::Solid)];
                if queue_bound_shown(data) {
                    keys.push(key("waiting room", Ink::Text, Dash::Dotted));
                }
                keys
            }
        }
    }

    /// The top of its y axis: above every line it draws, with some headroom.
    pub fn y_max(self, data: &ServerWindow) -> f64 {
        let top = match self {
            ServerChart::Load => {
                data.peak(|p| rate(p, p.offered).max(rate(p, p.goodput + p.wasted + p.shed))).max(data.capacity)
            }
            ServerChart::Latency => data.peak(|p| p.p99_ms.max(p.mean_ms)).max(data.theory_ms.unwrap_or(0.0)),
            ServerChart::Queue => {
                let peak = data.peak(|p| p.queue_max as f64);
                if queue_bound_shown(data) {
                    peak.max(data.queue_bound as f64)
                } else {
                    peak
                }
            }
        };
        nice_ceiling((top * 1.15).max(1.0))
    }

    /// Its axis layer for `data`.
    pub fn axes(self, data: &ServerWindow) -> Axes {
        Axes {
            x: -data.width_secs.max(1.0)..0.0,
            y: 0.0..self.y_max(data),
            x_ticks: Ticks::SecondsAgo,
            y_ticks: Ticks::Count,
            x_title: Some("simulated time"),
            legend: self.legend(data),
            compact: false,
        }
    }

    /// Its data layer.
    pub fn draw_data<DB: DrawingBackend>(self, plot: &Plot<DB>, data: &ServerWindow, style: &ChartStyle) -> Drawn<DB> {
        let across = |y: f64| vec![(-data.width_secs, y), (0.0, y)];
        match self {
            ServerChart::Load => {
                draw_line(plot, across(data.capacity), Ink::Axis, Dash::Dashed, 1.5, style)?;
                let goodput = steps(data, |p| rate(p, p.goodput));
                draw_all(plot, AreaSeries::new(goodput.iter().copied(), 0.0, style.theme.admitted.mix(0.14)))?;
                draw_line(plot, steps(data, |p| rate(p, p.offered)), Ink::Text, Dash::Solid, 1.5, style)?;
                draw_line(plot, goodput, Ink::Admitted, Dash::Solid, 2.0, style)?;
                draw_line(plot, steps(data, |p| rate(p, p.wasted)), Ink::Rejected, Dash::Dashed, 2.0, style)?;
                draw_line(plot, steps(data, |p| rate(p, p.shed)), Ink::Rejected, Dash::Dotted, 2.0, style)
            }
            ServerChart::Latency => {
                if let Some(theory) = data.theory_ms {
                    draw_line(plot, across(theory), Ink::Text, Dash::Dotted, 1.5, style)?;
                }
                draw_line(plot, steps(data, |p| p.mean_ms), Ink::Text, Dash::Solid, 1.5, style)?;
                draw_line(plot, steps(data, |p| p.p50_ms), Ink::Admitted, Dash::Solid, 2.0, style)?;
                draw_line(plot, steps(data, |p| p.p99_ms), Ink::Rejected, Dash::Dashed, 2.0, style)
            }
            ServerChart::Queue => {
                if queue_bound_shown(data) {
                    draw_line(plot, across(data.queue_bound as f64), Ink::Text, Dash::Dotted, 1.5, style)?;
                }
                let queue = steps(data, |p| p.queue_max as f64);
                draw_all(plot, AreaSeries::new(queue.iter().copied(), 0.0, style.theme.admitted.mix(0.14)))?;
                draw_line(plot, queue, Ink::Admitted, Dash::Solid, 2.0, style)
            }
        }
    }

    /// The whole chart on one area (SVG, tests).
    pub fn draw<DB: DrawingBackend>(
        self,
        root: &DrawingArea<DB, Shift>,
        data: &ServerWindow,
        style: &ChartStyle,
    ) -> Drawn<DB> {
        draw_layered(root, &self.axes(data), style, |plot| self.draw_data(plot, data, style))
    }
}

/// Whether the waiting room's size is drawn: once the queue has reached a quarter of it (a
/// bound a thousand times the queue would flatten the line to nothing).
fn queue_bound_shown(data: &ServerWindow) -> bool {
    data.peak(|p| p.queue_max as f64) * 4.0 >= data.queue_bound as f64 && data.queue_bound > 0
}

/// A count in a bucket as a rate per second.
fn rate(p: &ServerPoint, n: u64) -> f64 {
    n as f64 / p.width_secs
}

/// The corners of a step line through one value per bucket, x relative to the window's end.
fn steps(data: &ServerWindow, value: impl Fn(&ServerPoint) -> f64) -> Vec<(f64, f64)> {
    let mut points = Vec::with_capacity(data.points.len() * 2);
    for p in &data.points {
        let (x, y) = (p.start_secs - data.end_secs, value(p));
        points.push((x, y));
        points.push((x + p.width_secs, y));
    }
    points
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::sim::{Scenario, SimTime, Simulation};

    /// A retry storm (the server view's first storm preset): eight workers of 10 ms each, 600
    /// requests a second and 600 more from 10 s to 20 s; clients give up after 200 ms and retry.
    const STORM: &str = "capacity=1000000&refill=1000000&traffic=poisson&rate=600&duration=60&retry=backoff\
                         &retries=10&workers=8&service=10&client_timeout=200&spike=10-20&spike_rate=600";

    #[test]
    fn each_chart_draws_the_storm_to_svg_with_its_legend() {
        let mut sim = Simulation::new(&Scenario::from_query(STORM).unwrap());
        sim.step_until(SimTime::from_secs(40));
        let data = ServerWindow::of(&sim, 60).unwrap();
        for chart in [ServerChart::Load, ServerChart::Latency, ServerChart::Queue] {
            let mut svg = String::new();
            {
                let root = SVGBackend::with_string(&mut svg, (600, 260)).into_drawing_area();
                chart.draw(&root, &data, &ChartStyle::default()).unwrap();
                root.present().unwrap();
            }
            for key in chart.legend(&data) {
                assert!(svg.contains(key.label), "{chart:?}: {}", key.label);
            }
            assert!(chart.y_max(&data) > 0.0);
        }
        // The storm fills its waiting room: its size is drawn.
        assert!(queue_bound_shown(&data));
        assert_eq!(data.theory_ms, None, "a spike and retries: no closed form");
    }
}
