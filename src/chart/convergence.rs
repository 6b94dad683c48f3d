//! The steady-state chart: the measured pass ratio since t = 0 converging on the analytic one,
//! with the first rejection marked where it happened and, for a token bucket under constant
//! overload, where C ÷ (λ − r) predicts it. The x axis grows in tidy steps (10 s, 12 s, 15 s, …),
//! so it is laid out again only a few times per decade of simulated time.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::nice_ceiling;
use super::history::PassHistory;
use super::plot::{draw_layered, draw_line, draw_marker, Axes, ChartStyle, Dash, Drawn, Ink, Key, Plot, Ticks};

/// The data of one steady-state chart.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ConvergenceView {
    /// `(seconds, cumulative pass ratio)` in time order.
    pub points: Vec<(f64, f64)>,
    /// The simulated time now, in seconds.
    pub now_secs: f64,
    /// The long-run pass ratio the engine predicts, where its formula holds.
    pub predicted: Option<f64>,
    /// What the predicted line is, e.g. "refill ÷ arrival".
    pub predicted_label: &'static str,
    /// When the first request was rejected, in seconds.
    pub first_rejection: Option<f64>,
    /// When C ÷ (λ − r) says the first rejection comes, if that formula applies.
    pub predicted_first: Option<f64>,
}

impl ConvergenceView {
    /// The view of `history` at `now_secs`.
    pub fn new(history: &PassHistory, now_secs: f64, predicted: Option<f64>, predicted_label: &'static str) -> Self {
        ConvergenceView { points: history.points().collect(), now_secs, predicted, predicted_label, ..Self::default() }
    }

    /// The right edge of the x axis: a tidy value at or above now (at least 10 s).
    ///
    /// ```
    /// use ratelimit_playground::chart::convergence::ConvergenceView;
    /// let at = |s| ConvergenceView { now_secs: s, ..ConvergenceView::default() }.x_max();
    /// assert_eq!((at(0.0), at(10.5), at(13.0), at(640.0)), (10.0, 12.0, 15.0, 800.0));
    /// ```
    pub fn x_max(&self) -> f64 {
        nice_ceiling(self.now_secs.max(10.0))
    }
}

/// The legend of the steady-state chart: the measured ratio, the predicted one if drawn
/// (`predicted` names it), and the first-rejection markers that are drawn.
pub fn convergence_legend(predicted: Option<&'static str>, first_rejection: bool, predicted_first: bool) -> Vec<Key> {
    let mut legend = vec![Key { label: "pass ratio so far", ink: Ink::Admitted, dash: Dash::Solid }];
    if let Some(label) = predicted {
        legend.push(Key { label, ink: Ink::Text, dash: Dash::Dashed });
    }
    if first_rejection {
        legend.push(Key { label: "first 429", ink: Ink::Rejected, dash: Dash::Solid });
    }
    if predicted_first {
        legend.push(Key { label: "C ÷ (λ − r)", ink: Ink::Rejected, dash: Dash::Dotted });
    }
    legend
}

/// The layout of the steady-state chart.
pub fn convergence_axes(data: &ConvergenceView) -> Axes {
    let predicted = data.predicted.map(|_| data.predicted_label);
    let legend = convergence_legend(predicted, data.first_rejection.is_some(), data.predicted_first.is_some());
    Axes {
        x: 0.0..data.x_max(),
        y: 0.0..1.05,
        x_ticks: Ticks::Seconds,
        y_ticks: Ticks::Percent,
        x_title: Some("simulated time (s)"),
        legend,
        compact: false,
    }
}

/// The data layer: the predicted ratio dashed, the markers, then the measured ratio on top.
pub fn draw_convergence_data<DB: DrawingBackend>(
    plot: &Plot<DB>,
    data: &ConvergenceView,
    style: &ChartStyle,
) -> Drawn<DB> {
    let x_max = plot.get_x_range().end;
    if let Some(p) = data.predicted {
        draw_line(plot, vec![(0.0, p), (x_max, p)], Ink::Text, Dash::Dashed, 1.5, style)?;
    }
    if let Some(at) = data.predicted_first {
        draw_marker(plot, at, Ink::Rejected, Dash::Dotted, style)?;
    }
    if let Some(at) = data.first_rejection {
        draw_marker(plot, at, Ink::Rejected, Dash::Solid, style)?;
    }
    draw_line(plot, data.points.clone(), Ink::Admitted, Dash::Solid, 2.25, style)
}

/// The whole chart on one area (SVG, bitmaps, tests).
pub fn draw_convergence<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ConvergenceView,
    style: &ChartStyle,
) -> Drawn<DB> {
    draw_layered(root, &convergence_axes(data), style, |plot| draw_convergence_data(plot, data, style))
}
