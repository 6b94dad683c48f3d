//! Charts in two layers. [`draw_axes`] lays out and draws everything with text — background,
//! legend, grid, tick labels — and returns the [`PlotFrame`] it chose; [`plot_area`] maps the
//! same frame onto any drawing area (the same one for SVG, a second, transparent canvas in the
//! browser) where the data is drawn. The browser keeps the frame and redraws only the data layer
//! while the [`Axes`] stay equal, so text is measured and laid out only when an axis changes.

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;

pub use super::mesh::{draw_axes, Axes, PlotFrame};
pub use super::style::{font, ChartStyle, Dash, Ink, Key, Ticks, FONT};

/// A drawing area in data coordinates: x and y as `f64`.
pub type Plot<DB> = DrawingArea<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// The drawing result of every chart function.
pub type Drawn<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

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
