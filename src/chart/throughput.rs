//! The throughput chart: admitted and rejected requests per second over the last minute of
//! simulated time, with the rate the limiter allows in the long run as a dotted line and an
//! optional marker (the fixed window's 2 × limit burst). The x axis is "seconds ago", so its
//! labels never move as time passes; in the first minute it grows with the run, 10 s at a time. Generic over plotters' [`DrawingBackend`]: the web app draws
//! it on a canvas and native code can draw the same chart to SVG or a bitmap.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::axis::nice_ceiling;
pub use super::plot::ChartStyle;
use super::plot::{draw_all, draw_layered, draw_line, draw_marker, Axes, Dash, Drawn, Ink, Key, Plot, Ticks};
use crate::sim::{Metrics, SimTime};

/// How the throughput chart's time axis grows at the start of a run, until it spans its window.
pub const GROWTH: crate::sim::Nanos = crate::sim::Nanos::from_secs(10);

/// Counts of one completed metrics bucket.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BucketCounts {
    /// Simulated second at which the bucket starts.
    pub start_secs: f64,
    /// Length of the bucket in seconds (1.0 by default).
    pub width_secs: f64,
    /// Requests admitted during the bucket.
    pub admitted: u64,
    /// Requests rejected during the bucket.
    pub rejected: u64,
}

/// The data one throughput chart shows: the completed buckets inside `[end - width, end]`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ThroughputWindow {
    /// Right edge of the x axis ("now"), in simulated seconds: the end of the last completed bucket.
    pub end_secs: f64,
    /// Width of the x axis, in simulated seconds.
    pub width_secs: f64,
    /// Completed buckets in time order.
    pub buckets: Vec<BucketCounts>,
    /// The long-run rate the limiter allows (refill, or limit ÷ window), drawn as a dotted line.
    pub allowed_rate: Option<f64>,
    /// An instant to mark with a vertical line (simulated seconds), if it is in view.
    pub marker_secs: Option<f64>,
    /// What the marker marks, for the legend.
    pub marker_label: &'static str,
    /// When the marker is a window boundary (the fixed window's seam): the windows' length in
    /// simulated seconds, the window before and the window after it shaded as a pair.
    pub marker_span: Option<f64>,
    /// Whether the y axis fits admitted and the allowed rate only ([`Self::admitted_y_max`]),
    /// the rejected series cut at its top: a cluster's chart, whose point is what it admitted.
    pub admitted_scale: bool,
}

impl ThroughputWindow {
    /// The last `width_secs` of completed buckets at simulated time `now`. Until that much has
    /// run, the axis spans only the time run so far, rounded up to a whole 10 s ([`GROWTH`]), so the
    /// data fills the chart from the start instead of a sliver at its right edge. Seconds in which
    /// nothing happened have no bucket in the engine's series yet; they count as zero (the engine
    /// has run every event up to `now`).
    ///
    /// ```
    /// use ratelimit_playground::chart::throughput::ThroughputWindow;
    /// use ratelimit_playground::sim::{Metrics, Nanos, SimTime};
    /// let m = Metrics::new(Nanos::from_secs(1), 120);
    /// let at = |s| ThroughputWindow::from_metrics(&m, SimTime::from_secs(s), 60).width_secs;
    /// assert_eq!((at(0), at(3), at(10), at(11), at(59), at(600)), (10.0, 10.0, 10.0, 20.0, 60.0, 60.0));
    /// ```
    pub fn from_metrics(metrics: &Metrics, now: SimTime, width_secs: u64) -> Self {
        let width = metrics.bucket_width.as_nanos().max(1);
        let completed = now.as_nanos() / width;
        let per_window = (width_secs.saturating_mul(1_000_000_000) / width).max(1);
        let step = (GROWTH.as_nanos() / width).max(1);
        let per_window = per_window.min(completed.div_ceil(step).max(1).saturating_mul(step));
        let first = completed.saturating_sub(per_window);
        let mut recorded = metrics.buckets().filter(|b| b.start.as_nanos() / width >= first).peekable();
        let mut buckets = Vec::with_capacity((completed - first) as usize);
        for index in first..completed {
            while recorded.next_if(|b| b.start.as_nanos() / width < index).is_some() {}
            let (admitted, rejected) =
                recorded.next_if(|b| b.start.as_nanos() / width == index).map_or((0, 0), |b| (b.admitted, b.rejected));
            buckets.push(BucketCounts {
                start_secs: SimTime::from_nanos(index * width).as_secs_f64(),
                width_secs: metrics.bucket_width.as_secs_f64(),
                admitted,
                rejected,
            });
        }
        ThroughputWindow {
            end_secs: SimTime::from_nanos(completed * width).as_secs_f64(),
            width_secs: SimTime::from_nanos(per_window * width).as_secs_f64(),
            buckets,
            allowed_rate: None,
            marker_secs: None,
            marker_label: "",
            marker_span: None,
            admitted_scale: false,
        }
    }

    /// The largest per-second rate of either series, 0 when empty.
    pub fn peak_rate(&self) -> f64 {
        self.buckets.iter().map(|b| b.admitted.max(b.rejected) as f64 / b.width_secs).fold(0.0, f64::max)
    }

    /// A tidy top for the y axis: above the peak and the allowed rate, with some headroom.
    pub fn y_max(&self) -> f64 {
        if self.admitted_scale {
            return self.admitted_y_max();
        }
        nice_ceiling(self.peak_rate().max(self.allowed_rate.unwrap_or(0.0)) * 1.15)
    }

    /// A tidy top for a y axis that shows admitted against the allowed rate, whatever was
    /// rejected (a cluster's point is what it admitted; its rejections may be ten times more).
    ///
    /// ```
    /// use ratelimit_playground::chart::throughput::{BucketCounts, ThroughputWindow};
    /// let b = BucketCounts { start_secs: 0.0, width_secs: 1.0, admitted: 10, rejected: 95 };
    /// let w = ThroughputWindow { buckets: vec![b], allowed_rate: Some(5.0), ..Default::default() };
    /// assert!(w.admitted_y_max() < 20.0 && w.y_max() > 100.0);
    /// ```
    pub fn admitted_y_max(&self) -> f64 {
        let admitted = self.buckets.iter().map(|b| b.admitted as f64 / b.width_secs).fold(0.0, f64::max);
        nice_ceiling(admitted.max(self.allowed_rate.unwrap_or(0.0)) * 1.15)
    }

    /// Whether the marker is inside the window.
    fn marker_in_view(&self) -> Option<f64> {
        self.marker_secs.map(|m| m - self.end_secs).filter(|x| *x >= -self.width_secs && *x <= 0.0)
    }
}

/// The legend of a throughput chart of `data` on a y axis topped at `y_max`: the series, the
/// allowed rate, the marker while it is in view, and the rejected series said to be cut at the
/// top where it runs above it.
pub fn legend_for(data: &ThroughputWindow, y_max: f64) -> Vec<Key> {
    let mut legend = throughput_legend(data.allowed_rate.is_some());
    if data.buckets.iter().any(|b| b.rejected as f64 / b.width_secs > y_max) {
        legend[1].label = "rejected / s (above the top: cut)";
    }
    if data.marker_in_view().is_some() && !data.marker_label.is_empty() {
        legend.push(Key { label: data.marker_label, ink: Ink::Text, dash: Dash::Dashed });
    }
    legend
}

/// The layout of the throughput chart for `data`, with its y axis topped at `y_max` (compare
/// mode gives every small multiple the same one). `compact` leaves out the legend and the title.
pub fn throughput_axes(data: &ThroughputWindow, y_max: f64, compact: bool) -> Axes {
    let legend = legend_for(data, y_max);
    Axes {
        x: -data.width_secs.max(1.0)..0.0,
        y: 0.0..y_max,
        x_ticks: Ticks::SecondsAgo,
        y_ticks: Ticks::Count,
        x_title: (!compact).then_some("simulated time"),
        legend: if compact { Vec::new() } else { legend },
        compact,
    }
}

/// The legend of the throughput chart: admitted, rejected and (if drawn) the allowed rate.
pub fn throughput_legend(allowed_rate: bool) -> Vec<Key> {
    let mut legend = vec![
        Key { label: "admitted / s", ink: Ink::Admitted, dash: Dash::Solid },
        Key { label: "rejected / s", ink: Ink::Rejected, dash: Dash::Dashed },
    ];
    if allowed_rate {
        legend.push(Key { label: "allowed rate", ink: Ink::Text, dash: Dash::Dotted });
    }
    legend
}

/// The data layer: admitted as a solid step line over a light fill, rejected dashed (cut at the
/// axis's top), the allowed rate dotted, and the marker as a vertical dashed line in the text's
/// colour, unlike any series; at a window boundary, the windows on either side of it shaded.
pub fn draw_throughput_data<DB: DrawingBackend>(
    plot: &Plot<DB>,
    data: &ThroughputWindow,
    style: &ChartStyle,
) -> Drawn<DB> {
    let t = &style.theme;
    let admitted = step_points(data, |b| b.admitted);
    let top = plot.get_y_range().end;
    let rejected: Vec<(f64, f64)> =
        step_points(data, |b| b.rejected).into_iter().map(|(x, y)| (x, y.min(top))).collect();
    if let (Some(at), Some(span)) = (data.marker_in_view(), data.marker_span) {
        // The pair of windows at the seam under the series, each its own shade, clipped to the axis.
        let (lo, hi) = (plot.get_y_range().start, top);
        for (from, to, alpha) in [(at - span, at, 0.08), (at, at + span, 0.16)] {
            let (from, to) = (from.max(-data.width_secs), to.min(0.0));
            if from < to {
                let fill = Ink::Text.colour(t).mix(alpha).filled();
                draw_all(plot, std::iter::once(Rectangle::new([(from, lo), (to, hi)], fill)))?;
            }
        }
    }
    if let Some(rate) = data.allowed_rate {
        draw_line(plot, vec![(-data.width_secs, rate), (0.0, rate)], Ink::Text, Dash::Dotted, 1.5, style)?;
    }
    draw_all(plot, AreaSeries::new(admitted.iter().copied(), 0.0, t.admitted.mix(0.14)))?;
    draw_line(plot, admitted, Ink::Admitted, Dash::Solid, 2.0, style)?;
    draw_line(plot, rejected, Ink::Rejected, Dash::Dashed, 2.0, style)?;
    if let Some(at) = data.marker_in_view() {
        draw_marker(plot, at, Ink::Text, Dash::Dashed, style)?;
    }
    Ok(())
}

/// The whole chart on one area (SVG, bitmaps, tests): axes, legend and data.
pub fn draw_throughput<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ThroughputWindow,
    style: &ChartStyle,
) -> Drawn<DB> {
    draw_layered(root, &throughput_axes(data, data.y_max(), false), style, |plot| {
        draw_throughput_data(plot, data, style)
    })
}

/// Turns buckets into the corners of a step line, x relative to the window's end.
fn step_points(data: &ThroughputWindow, count: impl Fn(&BucketCounts) -> u64) -> Vec<(f64, f64)> {
    let mut points = Vec::with_capacity(data.buckets.len() * 2);
    for b in &data.buckets {
        let rate = count(b) as f64 / b.width_secs;
        let x = b.start_secs - data.end_secs;
        points.push((x, rate));
        points.push((x + b.width_secs, rate));
    }
    points
}
