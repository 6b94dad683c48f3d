//! Charts in two layers. [`draw_axes`] lays out and draws everything with text — background,
//! legend, grid, tick labels — and returns the [`PlotFrame`] it chose; [`plot_area`] maps the
//! same frame onto any drawing area (the same one for SVG, a second, transparent canvas in the
//! browser) where the data is drawn. The browser keeps the frame and redraws only the data layer
//! while the [`Axes`] stay equal, so text is measured and laid out only when an axis changes.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

pub use super::mesh::draw_axes;
pub use super::style::{font, ChartStyle, Dash, Ink, Key, Ticks, FONT};

/// A drawing area in data coordinates: x and y as `f64`.
pub type Plot<DB> = DrawingArea<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The drawing result of every chart function.
pub type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// Everything that decides a chart's layout. Two equal `Axes` lay out identically, which is
/// what lets the browser keep the axis layer between data redraws.
#[derive(Clone, Debug, PartialEq)]
pub struct Axes {
    /// The x range shown.
    pub x: Range<f64>,
    /// The y range shown.
    pub y: Range<f64>,
    /// How x ticks are labelled.
    pub x_ticks: Ticks,
    /// How y ticks are labelled.
    pub y_ticks: Ticks,
    /// Title under the x axis, if any.
    pub x_title: Option<&'static str>,
    /// Legend entries, drawn in a strip above the plot.
    pub legend: Vec<Key>,
    /// Small multiples: fewer ticks, smaller margins.
    pub compact: bool,
}

/// Where the data goes: the value ranges and the plot rectangle in the backend's pixels.
#[derive(Clone, Debug, PartialEq)]
pub struct PlotFrame {
    /// The x range.
    pub x: Range<f64>,
    /// The y range.
    pub y: Range<f64>,
    /// The plot rectangle in backend pixels: `x` left to right, `y` from the bottom edge up
    /// (the order in which values map onto pixels).
    pub pixels: (Range<i32>, Range<i32>),
}

/// `root` in the data coordinates of `frame`.
pub fn plot_area<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, frame: &PlotFrame) -> Plot<DB> {
    root.apply_coord_spec(Cartesian2d::<RangedCoordf64, RangedCoordf64>::new(
        frame.x.clone(),
        frame.y.clone(),
        frame.pixels.clone(),
    ))
}

/// Both layers on one area (SVG, bitmaps, tests): the axes, then `data` on top. The caller
/// presents the root, so several charts can share one SVG document.
pub fn draw_layered<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    axes: &Axes,
    style: &ChartStyle,
    data: impl FnOnce(&Plot<DB>) -> Drawn<DB>,
) -> Drawn<DB> {
    let frame = draw_axes(root, axes, style)?;
    data(&plot_area(root, &frame))
}

/// A line through `points` in `ink`, solid, dashed or dotted.
pub fn draw_line<DB: DrawingBackend>(
    plot: &Plot<DB>,
    points: Vec<(f64, f64)>,
    ink: Ink,
    dash: Dash,
    width: f64,
    style: &ChartStyle,
) -> Drawn<DB> {
    let line = ink.colour(&style.theme).stroke_width(style.stroke(width));
    match dash {
        Dash::Solid => plot.draw(&PathElement::new(points, line)),
        Dash::Dashed => draw_all(plot, DashedLineSeries::new(points, style.px(7.0), style.px(4.0), line)),
        Dash::Dotted => draw_all(plot, DashedLineSeries::new(points, style.px(2.0), style.px(3.0), line)),
    }
}

/// Draws every element of a plotters series (e.g. an `AreaSeries`) on `plot`.
pub fn draw_all<DB, S, E>(plot: &Plot<DB>, series: S) -> Drawn<DB>
where
    DB: DrawingBackend,
    S: IntoIterator<Item = E>,
    for<'a> &'a E: PointCollection<'a, (f64, f64)>,
    E: Drawable<DB>,
{
    for element in series {
        plot.draw(&element)?;
    }
    Ok(())
}

/// A vertical marker at `x` across the whole y range.
pub fn draw_marker<DB: DrawingBackend>(plot: &Plot<DB>, x: f64, ink: Ink, dash: Dash, style: &ChartStyle) -> Drawn<DB> {
    let (lo, hi) = (plot.get_y_range().start, plot.get_y_range().end);
    draw_line(plot, vec![(x, lo), (x, hi)], ink, dash, 1.5, style)
}

/// The legend: each key's line sample and label, left to right along the top of `area`.
pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    keys: &[Key],
    style: &ChartStyle,
) -> Drawn<DB> {
    let t = &style.theme;
    let font = font(12.5 * style.scale).color(&t.text).pos(Pos::new(HPos::Left, VPos::Center));
    let y = style.px(14.0);
    let mut x = style.px(52.0);
    for key in keys {
        let colour = key.ink.colour(t).stroke_width(style.stroke(2.5));
        let (on, period) = match key.dash {
            Dash::Solid => (24.0, 24.0),
            Dash::Dashed => (6.0, 9.0),
            Dash::Dotted => (2.0, 5.0),
        };
        let mut a: f64 = 0.0;
        while a < 24.0 {
            let end = (a + on).min(24.0);
            area.draw(&PathElement::new(vec![(x + style.px(a), y), (x + style.px(end), y)], colour))?;
            a += period;
        }
        area.draw(&Text::new(key.label, (x + style.px(30.0), y), font.clone()))?;
        let (w, _) = area.estimate_text_size(key.label, &font)?;
        x += style.px(30.0) + w as i32 + style.px(22.0);
    }
    Ok(())
}
