//! The inner-state chart: what the limiter holds over the last seconds — tokens in the bucket
//! (GCRA: the equivalent tokens), the count in the window or log, for the sliding window counter
//! the weighted estimate with the two counters it is made of, or the leaky bucket's queue —
//! against the line where requests start to be refused. Drawn from the engine's [`StateSamples`], taken at exact instants.

use std::ops::Range;

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::nice_ceiling;
use super::plot::{draw_layered, draw_line, Axes, ChartStyle, Dash, Drawn, Ink, Key, Plot, Ticks};
use crate::sim::samples::StateSamples;
use crate::sim::{Algorithm, SimTime, Simulation};

/// What the level means, which decides the legend and which series are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// Tokens in a bucket (token bucket, GCRA), against the capacity.
    Tokens,
    /// Requests counted in the current fixed window, against the limit.
    WindowCount,
    /// The weighted estimate and the two window counters, against the limit.
    Weighted,
    /// Admissions in the log's last window, against the limit.
    LogCount,
    /// The leaky bucket's queue: the requests waiting in it, against the queue's size.
    Queue,
}

impl StateKind {
    /// The kind of state the textbook algorithm `algo` keeps (a product's: its textbook one's).
    pub fn of(algo: Algorithm) -> Self {
        match algo.textbook(&crate::sim::products::ProductOptions::default()) {
            Algorithm::FixedWindow => StateKind::WindowCount,
            Algorithm::SlidingWindow => StateKind::Weighted,
            Algorithm::SlidingLog => StateKind::LogCount,
            Algorithm::LeakyBucket => StateKind::Queue,
            _ => StateKind::Tokens,
        }
    }
}

/// One sample, `x` in seconds relative to now (≤ 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StatePoint {
    /// Seconds before now (negative).
    pub x: f64,
    /// The headline level.
    pub level: f64,
    /// The current window's counter.
    pub current: u64,
    /// The previous window's counter.
    pub previous: u64,
}

/// The data of one inner-state chart.
#[derive(Clone, Debug, PartialEq)]
pub struct StateWindow {
    /// What is shown.
    pub kind: StateKind,
    /// Width of the x axis in seconds.
    pub span_secs: f64,
    /// Capacity or limit: where refusals start.
    pub bound: f64,
    /// Samples in time order.
    pub points: Vec<StatePoint>,
}

impl StateWindow {
    /// The samples of the last `span_secs` before `now`.
    /// The inner-state chart of `sim` over the last `span_secs`, bounded by the bucket's
    /// capacity or the window's limit (empty if the simulation does not sample its state).
    pub fn of(sim: &Simulation, span_secs: f64) -> Self {
        let sc = sim.scenario();
        let kind = StateKind::of(sc.algo.textbook(&sc.product));
        let bound =
            if matches!(kind, StateKind::Tokens | StateKind::Queue) { sc.capacity } else { sc.effective_limit() };
        match sim.state_samples() {
            Some(samples) => StateWindow::from_samples(samples, sim.now(), span_secs, kind, bound),
            None => StateWindow { kind, span_secs, bound: bound as f64, points: Vec::new() },
        }
    }

    /// The samples in the last `span_secs` before `now`, as a chart of `kind` bounded by `bound`.
    pub fn from_samples(samples: &StateSamples, now: SimTime, span_secs: f64, kind: StateKind, bound: u64) -> Self {
        let points = samples
            .iter()
            .map(|(t, g)| StatePoint {
                x: t.as_secs_f64() - now.as_secs_f64(),
                level: g.level,
                current: g.current,
                previous: g.previous,
            })
            .filter(|p| p.x >= -span_secs && p.x <= 0.0)
            .collect();
        StateWindow { kind, span_secs, bound: bound as f64, points }
    }

    /// The y range: from 0 (or below, when a bucket is in debt) to a tidy value above the bound
    /// and every sample.
    ///
    /// ```
    /// use ratelimit_playground::chart::state::{StateKind, StateWindow};
    /// let w = StateWindow { kind: StateKind::Tokens, span_secs: 20.0, bound: 10.0, points: vec![] };
    /// assert_eq!(w.y_range(), 0.0..12.0);
    /// ```
    pub fn y_range(&self) -> Range<f64> {
        let high =
            self.points.iter().map(|p| p.level.max(p.current as f64).max(p.previous as f64)).fold(self.bound, f64::max);
        let low = self.points.iter().map(|p| p.level).fold(0.0, f64::min);
        let bottom = if low < 0.0 { -nice_ceiling(-low * 1.1) } else { 0.0 };
        bottom..nice_ceiling(high * 1.1)
    }
}

/// The legend of the inner-state chart for `kind`.
pub fn state_legend(kind: StateKind) -> Vec<Key> {
    LEGENDS[kind as usize].to_vec()
}

/// Each kind's legend, in [`StateKind`]'s order: the level, then where refusals start (one
/// table rather than a `vec!` per kind, which would add code to every module for each kind).
const LEGENDS: [&[Key]; 5] = {
    const fn level(label: &'static str) -> Key {
        Key { label, ink: Ink::Admitted, dash: Dash::Solid }
    }
    const fn bound(label: &'static str) -> Key {
        Key { label, ink: Ink::Rejected, dash: Dash::Dashed }
    }
    [
        &[level("tokens"), bound("capacity")],
        &[level("count in this window"), bound("limit")],
        &[
            level("estimate"),
            Key { label: "this window", ink: Ink::Text, dash: Dash::Solid },
            Key { label: "previous", ink: Ink::Text, dash: Dash::Dotted },
            bound("limit"),
        ],
        &[level("admitted in the last window"), bound("limit")],
        &[level("waiting"), bound("queue size")],
    ]
};

/// The layout of the inner-state chart.
pub fn state_axes(data: &StateWindow) -> Axes {
    Axes {
        x: -data.span_secs..0.0,
        y: data.y_range(),
        x_ticks: Ticks::SecondsAgo,
        y_ticks: Ticks::Count,
        x_title: None,
        legend: state_legend(data.kind),
        compact: false,
    }
}

/// The data layer: the bound, then the counters (sliding window counter), then the level on top.
pub fn draw_state_data<DB: DrawingBackend>(plot: &Plot<DB>, data: &StateWindow, style: &ChartStyle) -> Drawn<DB> {
    draw_line(plot, vec![(-data.span_secs, data.bound), (0.0, data.bound)], Ink::Rejected, Dash::Dashed, 1.5, style)?;
    let series = |f: fn(&StatePoint) -> f64| data.points.iter().map(|p| (p.x, f(p))).collect::<Vec<_>>();
    if data.kind == StateKind::Weighted {
        draw_line(plot, series(|p| p.previous as f64), Ink::Text, Dash::Dotted, 1.5, style)?;
        draw_line(plot, series(|p| p.current as f64), Ink::Text, Dash::Solid, 1.25, style)?;
    }
    draw_line(plot, series(|p| p.level), Ink::Admitted, Dash::Solid, 2.25, style)
}

/// The whole chart on one area (SVG, bitmaps, tests).
pub fn draw_state<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &StateWindow,
    style: &ChartStyle,
) -> Drawn<DB> {
    draw_layered(root, &state_axes(data), style, |plot| draw_state_data(plot, data, style))
}
