//! The throughput chart: admitted and rejected requests per second over a sliding window of
//! simulated time. Generic over plotters' [`DrawingBackend`], so the web app draws it on a canvas and
//! native code can draw the same chart to SVG or a bitmap.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::axis::{nice_ceiling, short_number};
use super::theme::ChartTheme;
use crate::sim::{Metrics, SimTime};

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
    /// Right edge of the x axis, in simulated seconds.
    pub end_secs: f64,
    /// Width of the x axis, in simulated seconds.
    pub width_secs: f64,
    /// Completed buckets in time order.
    pub buckets: Vec<BucketCounts>,
}

impl ThroughputWindow {
    /// The last `width_secs` of completed buckets at simulated time `now`. Before `width_secs`
    /// have passed the axis still spans `0..width_secs`, so the chart grows left to right.
    /// Seconds in which nothing happened have no bucket in the engine's series yet; they count
    /// as zero (the engine has run every event up to `now`).
    pub fn from_metrics(metrics: &Metrics, now: SimTime, width_secs: u64) -> Self {
        let width = metrics.bucket_width.as_nanos().max(1);
        let completed = now.as_nanos() / width;
        let per_window = (width_secs.saturating_mul(1_000_000_000) / width).max(1);
        let end = completed.max(per_window);
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
            end_secs: SimTime::from_nanos(end * width).as_secs_f64(),
            width_secs: SimTime::from_nanos(per_window * width).as_secs_f64(),
            buckets,
        }
    }

    /// The largest per-second rate of either series, 0 when empty.
    pub fn peak_rate(&self) -> f64 {
        self.buckets.iter().map(|b| b.admitted.max(b.rejected) as f64 / b.width_secs).fold(0.0, f64::max)
    }
}

/// How to draw: colours, and `scale` = device pixels per CSS pixel (fonts, strokes and margins
/// are multiplied by it so a HiDPI canvas looks the same size, only sharper).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartStyle {
    /// Colours.
    pub theme: ChartTheme,
    /// Device pixels per CSS pixel; 1.0 for SVG.
    pub scale: f64,
}

impl Default for ChartStyle {
    fn default() -> Self {
        ChartStyle { theme: ChartTheme::LIGHT, scale: 1.0 }
    }
}

const FONT: &str = "system-ui, -apple-system, Segoe UI, Roboto, sans-serif";

/// Draws admitted (solid line, light fill) and rejected (dashed line) requests per second as step
/// lines, with a legend strip above the plot so it never covers data.
pub fn draw_throughput<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    data: &ThroughputWindow,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = style.scale.max(0.5);
    let px = |v: f64| (v * s).round() as i32;
    let t = &style.theme;
    root.fill(&t.background)?;
    let (legend_area, plot_area) = root.split_vertically(px(30.0));
    draw_legend(&legend_area, style)?;

    let y_max = nice_ceiling(data.peak_rate() * 1.15);
    let x_start = data.end_secs - data.width_secs;
    let label_font = (FONT, 12.0 * s).into_font().color(&t.text);
    let mut chart = ChartBuilder::on(&plot_area)
        .margin_left(px(4.0))
        .margin_right(px(14.0))
        .margin_bottom(px(4.0))
        .x_label_area_size(px(40.0))
        .y_label_area_size(px(46.0))
        .build_cartesian_2d(x_start..data.end_secs, 0.0..y_max)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(t.background)
        .bold_line_style(t.grid.stroke_width(px(1.0).max(1) as u32))
        .axis_style(t.axis.stroke_width(px(1.0).max(1) as u32))
        .x_labels(7)
        .y_labels(5)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| short_number(*y))
        .x_desc("simulated time (s)")
        .label_style(label_font.clone())
        .axis_desc_style(label_font)
        .draw()?;

    let stroke = px(2.0).max(1) as u32;
    let admitted = step_points(&data.buckets, |b| b.admitted);
    let rejected = step_points(&data.buckets, |b| b.rejected);
    chart.draw_series(AreaSeries::new(admitted.iter().copied(), 0.0, t.admitted.mix(0.14)))?;
    chart.draw_series(LineSeries::new(admitted, t.admitted.stroke_width(stroke)))?;
    chart.draw_series(DashedLineSeries::new(rejected, px(7.0), px(4.0), t.rejected.stroke_width(stroke)))?;
    root.present()
}

/// The legend strip: a solid sample for admitted, a dashed one for rejected, each with its label.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = style.scale.max(0.5);
    let px = |v: f64| (v * s).round() as i32;
    let t = &style.theme;
    let font = (FONT, 13.0 * s).into_font().color(&t.text).pos(Pos::new(HPos::Left, VPos::Center));
    let stroke = px(2.5).max(1) as u32;
    let y = px(15.0);
    let x0 = px(56.0);
    area.draw(&PathElement::new(vec![(x0, y), (x0 + px(24.0), y)], t.admitted.stroke_width(stroke)))?;
    area.draw(&Text::new("admitted / s", (x0 + px(30.0), y), font.clone()))?;
    let x1 = x0 + px(140.0);
    for dash in 0..3 {
        let a = x1 + dash * px(9.0);
        area.draw(&PathElement::new(vec![(a, y), (a + px(6.0), y)], t.rejected.stroke_width(stroke)))?;
    }
    area.draw(&Text::new("rejected / s", (x1 + px(30.0), y), font))?;
    Ok(())
}

/// Turns buckets into the corners of a step line: each bucket is a flat segment over its width.
fn step_points(buckets: &[BucketCounts], count: impl Fn(&BucketCounts) -> u64) -> Vec<(f64, f64)> {
    let mut points = Vec::with_capacity(buckets.len() * 2);
    for b in buckets {
        let rate = count(b) as f64 / b.width_secs;
        points.push((b.start_secs, rate));
        points.push((b.start_secs + b.width_secs, rate));
    }
    points
}
