//! The log panel's two charts as inline SVG: rejections over time, and the sizing trade-off by
//! sustained rate (a log axis, as the sweep's rates are). Drawn by hand rather than by plotters,
//! whose text measuring needs a `window` the worker does not have; colours are the page's CSS
//! variables (`.log-svg` in main.css), so a chart follows the theme when it flips, and the
//! legend is the page's HTML legend.

use std::fmt::Write as _;
use std::ops::Range;

use crate::chart::axis::{nice_ceiling, short_number};
use crate::markup::escape;
use crate::sim::support::decimal::{format_f64, format_f64_trimmed};

/// How tall the charts are, CSS pixels.
pub const HEIGHT: u32 = 240;
/// Room for the y labels, the x labels and title, and the right edge.
const LEFT: f64 = 52.0;
const BOTTOM: f64 = 44.0;
const TOP: f64 = 10.0;
const RIGHT: f64 = 16.0;

/// One series: its points, and its CSS class (`admitted`/`rejected` + `solid`/`dashed`/`dotted`).
pub struct Series {
    /// Data points.
    pub points: Vec<(f64, f64)>,
    /// Colour and line, as classes of `.log-svg`.
    pub class: &'static str,
    /// The legend's label.
    pub label: &'static str,
}

/// A line chart.
pub struct LineChart {
    /// The x range and its ticks (value, label).
    pub x: (Range<f64>, Vec<(f64, String)>),
    /// The y range and its ticks.
    pub y: (Range<f64>, Vec<(f64, String)>),
    /// Under the x axis.
    pub x_title: &'static str,
    /// The lines.
    pub series: Vec<Series>,
    /// A vertical marker at this x, if any.
    pub marker: Option<f64>,
    /// A horizontal line at this y (a target), if any.
    pub level: Option<f64>,
    /// The text alternative.
    pub label: &'static str,
}

impl LineChart {
    /// The chart `width` CSS pixels wide, with its legend (if more than one series) above it.
    pub fn markup(&self, width: u32) -> String {
        let (w, h) = (f64::from(width.max(200)), f64::from(HEIGHT));
        let (x0, x1, y0, y1) = (LEFT, w - RIGHT, h - BOTTOM, TOP);
        let span = |r: &Range<f64>| if r.end > r.start { r.end - r.start } else { 1.0 };
        let px = |x: f64| x0 + (x - self.x.0.start) / span(&self.x.0) * (x1 - x0);
        let py = |y: f64| y0 - (y - self.y.0.start) / span(&self.y.0) * (y0 - y1);
        let mut out = String::new();
        if self.series.len() > 1 {
            out.push_str("<ul class=\"legend\" aria-hidden=\"true\">");
            for s in &self.series {
                let _ = write!(out, "<li><span class=\"swatch ink-{}\"></span>{}</li>", s.class, escape(s.label));
            }
            out.push_str("</ul>");
        }
        // Coordinates to a tenth of a pixel, written without core's float printing.
        let [sw, sh, sx0, sx1, sy0, sy1] = [w, h, x0, x1, y0, y1].map(d);
        let _ = write!(out, "<svg class=\"log-svg\" role=\"img\" aria-label=\"{}\" viewBox=\"0 0 {sw} {sh}\" width=\"{sw}\" height=\"{sh}\">", escape(self.label));
        for (v, label) in &self.y.1 {
            let y = py(*v);
            let _ = write!(out, "<line class=\"grid\" x1=\"{sx0}\" x2=\"{sx1}\" y1=\"{}\" y2=\"{}\"/><text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>", f(y), f(y), f(x0 - 6.0), f(y + 4.0), escape(label));
        }
        for (v, label) in &self.x.1 {
            let x = f(px(*v));
            let _ = write!(out, "<line class=\"axis\" x1=\"{x}\" x2=\"{x}\" y1=\"{sy0}\" y2=\"{}\"/><text class=\"tick\" x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>", f(y0 + 5.0), f(y0 + 18.0), escape(label));
        }
        let _ = write!(out, "<line class=\"axis\" x1=\"{sx0}\" x2=\"{sx1}\" y1=\"{sy0}\" y2=\"{sy0}\"/><text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", f((x0 + x1) / 2.0), f(h - 6.0), escape(self.x_title));
        for s in &self.series {
            let points: Vec<String> = s.points.iter().map(|&(x, y)| format!("{},{}", f(px(x)), f(py(y)))).collect();
            let _ = write!(out, "<polyline class=\"{}\" points=\"{}\"/>", s.class, points.join(" "));
        }
        if let Some(m) = self.marker {
            let x = f(px(m));
            let _ = write!(out, "<line class=\"marker\" x1=\"{x}\" x2=\"{x}\" y1=\"{sy0}\" y2=\"{sy1}\"/>");
        }
        if let Some(l) = self.level {
            let y = f(py(l));
            let _ = write!(out, "<line class=\"marker\" x1=\"{sx0}\" x2=\"{sx1}\" y1=\"{y}\" y2=\"{y}\"/>");
        }
        out.push_str("</svg>");
        out
    }
}

/// A coordinate to a tenth of a pixel: `12.5`.
fn f(v: f64) -> String {
    format_f64(v, 1)
}

/// A coordinate that is usually whole: `600`, or `12.5` (as `{}` prints them).
fn d(v: f64) -> String {
    format_f64_trimmed(v, 1)
}

/// About `n` tidy ticks from 0 to `max`.
fn count_ticks(max: f64, n: u32) -> Vec<(f64, String)> {
    let step = nice_ceiling(max / f64::from(n)).max(1.0);
    let mut ticks = Vec::new();
    let mut v = 0.0;
    while v <= max + 1e-9 {
        ticks.push((v, short_number(v)));
        v += step;
    }
    ticks
}

/// Refusals per bucket of `bucket_s` seconds since the log's first request, as steps.
pub fn rejections_chart(counts: &[u64], bucket_s: u64) -> LineChart {
    let w = bucket_s.max(1) as f64;
    let end = counts.len().max(1) as f64 * w;
    let top = nice_ceiling(counts.iter().copied().max().unwrap_or(0) as f64);
    let mut points = Vec::with_capacity(counts.len() * 2);
    for (i, &n) in counts.iter().enumerate() {
        points.push((i as f64 * w, n as f64));
        points.push(((i + 1) as f64 * w, n as f64));
    }
    LineChart {
        x: (0.0..end, count_ticks(end, 6)),
        y: (0.0..top, count_ticks(top, 4)),
        x_title: "seconds since the log's first request",
        series: vec![Series { points, class: "rejected solid", label: "429s per bucket" }],
        marker: None,
        level: None,
        label: "Step chart of requests refused per bucket of time since the log's first request",
    }
}

/// One point of the trade-off: the rate (requests/s) and three shares (0–1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TradeOff {
    /// The policy's sustained rate.
    pub rate: f64,
    /// Keys that saw a 429.
    pub keys_throttled: f64,
    /// Requests refused.
    pub rejected: f64,
    /// What the heaviest key got through.
    pub heaviest_admitted: f64,
}

/// The x axis of the trade-off charts: log10 of the rates, with ticks at 1, 2, 5 × 10ⁿ (only
/// the powers of ten across many decades).
fn rate_axis(points: &[TradeOff]) -> (Range<f64>, Vec<(f64, String)>) {
    let logs = points.iter().map(|p| p.rate.max(1e-6).log10());
    let lo = logs.clone().fold(f64::INFINITY, f64::min);
    let hi = logs.fold(f64::NEG_INFINITY, f64::max);
    let (lo, hi) = if lo.is_finite() && hi > lo { (lo, hi) } else { (lo.min(0.0) - 1.0, lo.max(0.0) + 1.0) };
    let mut ticks = Vec::new();
    for k in lo.floor() as i32..=hi.ceil() as i32 {
        for m in [1.0, 2.0, 5.0] {
            let v = (m * 10f64.powi(k)).log10();
            if v >= lo - 1e-9 && v <= hi + 1e-9 && (m == 1.0 || hi - lo < 2.5) {
                ticks.push((v, format!("{}/s", short_number(10f64.powf(v)))));
            }
        }
    }
    (lo..hi, ticks)
}

/// Percent ticks from 0 to `top` (0–1), four of them, with a decimal below 4 %.
fn percent_ticks(top: f64) -> Vec<(f64, String)> {
    (0..=4)
        .map(|i| {
            let v = top * f64::from(i) / 4.0;
            (v, format!("{} %", format_f64(v * 100.0, if top < 0.04 { 1 } else { 0 })))
        })
        .collect()
}

fn along(points: &[TradeOff], f: fn(&TradeOff) -> f64) -> Vec<(f64, f64)> {
    points.iter().map(|p| (p.rate.max(1e-6).log10(), f(p))).collect()
}

/// The share of keys throttled by sustained rate, with the target as a level and the
/// recommended rate marked; the y axis spans the data and the target (a few percent is typical).
pub fn throttled_chart(points: &[TradeOff], target: f64, recommended: Option<f64>) -> LineChart {
    let most = points.iter().map(|p| p.keys_throttled).fold(target * 2.0, f64::max);
    let top = (nice_ceiling(most * 1000.0) / 1000.0).clamp(0.005, 1.0);
    LineChart {
        x: rate_axis(points),
        y: (0.0..top, percent_ticks(top)),
        x_title: "sustained rate, requests/s (log scale)",
        series: vec![Series {
            points: along(points, |p| p.keys_throttled),
            class: "rejected solid",
            label: "keys throttled",
        }],
        marker: recommended.map(|r| r.max(1e-6).log10()),
        level: Some(target),
        label: "Line chart by sustained rate of the share of keys that see a 429, with the target as a dotted level",
    }
}

/// What gets through by sustained rate: the share of requests refused, and of the heaviest
/// key's requests admitted.
pub fn through_chart(points: &[TradeOff], recommended: Option<f64>) -> LineChart {
    LineChart {
        x: rate_axis(points),
        y: (0.0..1.0, percent_ticks(1.0)),
        x_title: "sustained rate, requests/s (log scale)",
        series: vec![
            Series { points: along(points, |p| p.rejected), class: "rejected dashed", label: "requests refused" },
            Series {
                points: along(points, |p| p.heaviest_admitted),
                class: "admitted dotted",
                label: "heaviest key's requests admitted",
            },
        ],
        marker: recommended.map(|r| r.max(1e-6).log10()),
        level: None,
        label:
            "Line chart by sustained rate of the share of requests refused and of the heaviest key's requests admitted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_axis_is_in_decades_and_the_lines_fill_the_plot() {
        let p = |rate, k| TradeOff { rate, keys_throttled: k, rejected: k / 2.0, heaviest_admitted: 0.5 };
        let points = [p(0.1, 0.03), p(1.0, 0.012), p(100.0, 0.0)];
        let chart = throttled_chart(&points, 0.01, Some(1.0));
        assert_eq!((chart.x.0.start, chart.x.0.end), (-1.0, 2.0));
        let labels: Vec<&str> = chart.x.1.iter().map(|(_, l)| l.as_str()).collect();
        assert_eq!(labels, ["0.1/s", "1/s", "10/s", "100/s"]);
        assert_eq!((chart.y.0.end, chart.y.1[4].1.as_str()), (0.03, "3.0 %"), "the y axis spans the data, not 100 %");
        let svg = chart.markup(500);
        assert!(svg.contains("viewBox=\"0 0 500 240\"") && svg.matches("<polyline").count() == 1);
        assert!(svg.contains("class=\"marker\" x1=\"196.0\""), "1/s is a third of the way: {svg}");
        let through = through_chart(&points, Some(1.0)).markup(500);
        assert!(
            through.starts_with("<ul class=\"legend\"") && through.matches("<polyline").count() == 2,
            "two series get a legend"
        );
    }

    #[test]
    fn the_rejections_axis_covers_every_bucket() {
        let chart = rejections_chart(&[0, 4, 2], 10);
        assert_eq!((chart.x.0.end, chart.y.0.end), (30.0, 5.0));
        assert_eq!(chart.series[0].points.len(), 6, "steps");
        assert!(!chart.markup(400).contains("legend"), "one series needs no legend");
    }
}
