//! [`draw_axes`]: a chart's axis layer — background, legend, grid, axes, ticks and their
//! labels — laid out as plotters' `ChartBuilder` and mesh lay it out (plotters 0.3.7,
//! `src/chart/builder.rs`, `src/chart/mesh.rs`, `src/chart/context/cartesian2d/draw_impl.rs`),
//! but drawn by this file: those three would bring their generic code into every first module for
//! one layout that is always the same here (labels left and below, y grid lines only, no title),
//! so this is kept for the first module's size (see docs/size.md).
//! The same pixels come out, less the light grid lines plotters draws in the background colour
//! (invisible); the test below draws both and compares them. What decides the layer is an
//! [`Axes`], and where it leaves room for the data a [`PlotFrame`]; [`super::plot`] re-exports
//! all three.

use std::ops::Range;

use plotters::coord::ranged1d::{BoldPoints, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::{font, ChartStyle, Dash, Key, Ticks};

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

/// Fills `root` with the background and draws the legend, grid, axes and tick labels of `axes`.
/// Returns where the data goes.
pub fn draw_axes<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    axes: &Axes,
    style: &ChartStyle,
) -> Result<PlotFrame, DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &style.theme;
    let Top { legend_height, x_area, y_area, label_font } = draw_top(root, axes, style)?;
    let (x_area, y_area) = (style.px(x_area), style.px(y_area));

    // The chart's box, relative to `root`: below the legend, inside the margins.
    let (width, height) = root.dim_in_pixel();
    let (left, top) = (style.px(2.0), legend_height);
    let right = width as i32 - style.px(if axes.compact { 14.0 } else { 18.0 });
    let bottom = height as i32 - style.px(2.0);
    // The y labels take a strip on the left, the x labels one at the bottom; what is left is the
    // plot, `[x0, x1) × [y0, y1)` (plotters splits the box at sorted breakpoints, hence min/max).
    let x0 = (left + y_area).min(right).max(left);
    let y1 = (bottom - x_area).max(top).min(bottom);
    let (x1, y0) = (right.max(x0), top);
    let (base_x, base_y) = root.get_base_pixel();
    let frame = PlotFrame {
        x: axes.x.clone(),
        y: axes.y.clone(),
        pixels: (base_x + x0..base_x + x1 - 1, base_y + y1 - 1..base_y + y0),
    };
    let (plot_w, plot_h) = (x1 - x0, y1 - y0);
    if plot_w <= 0 || plot_h <= 0 {
        return Ok(frame);
    }
    let has_x_labels = bottom > y1;
    let has_y_labels = x0 > left;

    if let (Some(title), true) = (axes.x_title, has_x_labels) {
        let at = (x0 + plot_w / 2, bottom);
        root.draw_text(title, &label_font.pos(Pos::new(HPos::Center, VPos::Bottom)), at)?;
    }

    // The bold grid: one line per y key point, across the plot.
    let (x_count, y_count) = if axes.compact { (3, 3) } else { (7, 5) };
    let x_ticks = key_pixels(&axes.x, x_count, (x0, x1 - 1));
    let y_ticks = key_pixels(&axes.y, y_count, (y1 - 1, y0));
    let grid = t.grid.stroke_width(style.stroke(1.0));
    for &(y, _) in &y_ticks {
        root.draw(&PathElement::new(vec![(x0, y), (x1 - 1, y)], grid))?;
    }

    // Ticks are 5 % of the plot's smaller side, at most 5 pixels; labels sit twice that away.
    let tick = ((0.05 * f64::from(plot_w.min(plot_h))).round() as i32).min(5);
    let axis = t.axis.stroke_width(style.stroke(1.0));
    if has_y_labels {
        let edge = x0 - 1;
        root.draw(&PathElement::new(vec![(edge, y0), (edge, y1 - 1)], axis))?;
        let anchored = label_font.pos(Pos::new(HPos::Right, VPos::Center));
        for (y, value) in y_ticks.into_iter().filter(|&(y, _)| (y0..y1).contains(&y)) {
            root.draw_text(&axes.y_ticks.label(value), &anchored, (x0 - 2 * tick, y))?;
            root.draw(&PathElement::new(vec![(edge - tick, y), (edge, y)], axis))?;
        }
    }
    if has_x_labels {
        root.draw(&PathElement::new(vec![(x0, y1), (x1 - 1, y1)], axis))?;
        let anchored = label_font.pos(Pos::new(HPos::Center, VPos::Top));
        for (x, value) in x_ticks.into_iter().filter(|&(x, _)| (x0..x1).contains(&x)) {
            root.draw_text(&axes.x_ticks.label(value), &anchored, (x, y1 + 2 * tick))?;
            root.draw(&PathElement::new(vec![(x, y1), (x, y1 + tick)], axis))?;
        }
    }
    Ok(frame)
}

/// What both layouts start with: the background and the legend drawn, the legend's height, the
/// label areas' sizes in CSS pixels (x below, y left) and the labels' font.
struct Top {
    legend_height: i32,
    x_area: f64,
    y_area: f64,
    label_font: TextStyle<'static>,
}

/// Fills `root` and draws the legend; returns the rest of the layout's sizes ([`Top`]).
fn draw_top<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    axes: &Axes,
    style: &ChartStyle,
) -> Result<Top, DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&style.theme.background)?;
    let key_font = font(12.5 * style.scale).color(&style.theme.text).pos(Pos::new(HPos::Left, VPos::Center));
    let places = legend_places(root, &axes.legend, &key_font, style)?;
    let rows = places.last().map_or(0, |&(_, row)| row + 1);
    let legend_height = if rows == 0 { style.px(6.0) } else { style.px(28.0) + (rows - 1) * style.px(20.0) };
    let (legend_area, _) = root.split_vertically(legend_height);
    draw_legend(&legend_area, &axes.legend, &places, &key_font, style)?;
    let (font_size, y_area, x_area) = if axes.compact { (10.5, 34.0, 22.0) } else { (12.0, 48.0, 26.0) };
    let x_area = x_area + if axes.x_title.is_some() { 16.0 } else { 0.0 };
    let label_font = font(font_size * style.scale).color(&style.theme.text);
    Ok(Top { legend_height, x_area, y_area, label_font })
}

/// At most `count` round values in `range` (plotters' key points for an `f64` axis), each with
/// the pixel it maps to between `pixels.0` and `pixels.1`.
/// None for a range with a NaN bound, where plotters would panic.
fn key_pixels(range: &Range<f64>, count: usize, pixels: (i32, i32)) -> Vec<(i32, f64)> {
    if range.start.is_nan() || range.end.is_nan() {
        return Vec::new();
    }
    let axis = RangedCoordf64::from(range.clone());
    axis.key_points(BoldPoints(count)).into_iter().map(|v| (axis.map(&v, pixels), v)).collect()
}

/// The legend: each key's line sample and label, left to right along the top of `area`.
/// Where each legend key starts, `(x, row)`: side by side, on a new row where the next would
/// run past the area's right edge. Only the stills and the CLI's SVG draw a legend on the chart
/// (the page writes its legends in HTML), so a wasm build keeps one row and leaves the rest out.
fn legend_places<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    keys: &[Key],
    font: &TextStyle<'static>,
    style: &ChartStyle,
) -> Result<Vec<(i32, i32)>, DrawingAreaErrorKind<DB::ErrorType>> {
    let (width, _) = area.dim_in_pixel();
    let (start, mut x, mut row) = (style.px(52.0), style.px(52.0), 0);
    let mut places = Vec::with_capacity(keys.len());
    for key in keys {
        let (w, _) = area.estimate_text_size(key.label, font)?;
        let item = style.px(30.0) + w as i32;
        if cfg!(not(target_arch = "wasm32")) && x > start && x + item > width as i32 {
            (x, row) = (start, row + 1);
        }
        places.push((x, row));
        x += item + style.px(22.0);
    }
    Ok(places)
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    keys: &[Key],
    places: &[(i32, i32)],
    font: &TextStyle<'static>,
    style: &ChartStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let t = &style.theme;
    for (key, &(x, row)) in keys.iter().zip(places) {
        let y = style.px(14.0) + row * style.px(20.0);
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
    }
    Ok(())
}

// Native only: wasm builds have no SVG backend.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::chart::style::Ink;
    use crate::chart::theme::ChartTheme;
    use plotters::coord::ranged1d::{KeyPointHint, NoDefaultFormatting, ValueFormatter};

    /// The axis layer as plotters' `ChartBuilder` and mesh draw it: what [`draw_axes`] replaced.
    fn plotters_axes<DB: DrawingBackend>(
        root: &DrawingArea<DB, Shift>,
        axes: &Axes,
        style: &ChartStyle,
    ) -> Result<PlotFrame, DrawingAreaErrorKind<DB::ErrorType>> {
        let t = &style.theme;
        let Top { legend_height, x_area, y_area, label_font } = draw_top(root, axes, style)?;
        let (_, plot_area) = root.split_vertically(legend_height);
        let mut chart = ChartBuilder::on(&plot_area)
            .margin_left(style.px(2.0))
            .margin_right(style.px(if axes.compact { 14.0 } else { 18.0 }))
            .margin_bottom(style.px(2.0))
            .x_label_area_size(style.px(x_area))
            .y_label_area_size(style.px(y_area))
            .build_cartesian_2d(TickAxis(axes.x.clone().into()), TickAxis(axes.y.clone().into()))?;
        let (x_ticks, y_ticks) = (axes.x_ticks, axes.y_ticks);
        let x_fmt = move |v: &f64| x_ticks.label(*v);
        let y_fmt = move |v: &f64| y_ticks.label(*v);
        let mut mesh = chart.configure_mesh();
        mesh.disable_x_mesh()
            .light_line_style(t.background)
            .bold_line_style(t.grid.stroke_width(style.stroke(1.0)))
            .axis_style(t.axis.stroke_width(style.stroke(1.0)))
            .x_labels(if axes.compact { 3 } else { 7 })
            .y_labels(if axes.compact { 3 } else { 5 })
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .label_style(label_font.clone())
            .axis_desc_style(label_font);
        if let Some(title) = axes.x_title {
            mesh.x_desc(title);
        }
        mesh.draw()?;
        let (px, py) = chart.plotting_area().get_pixel_range();
        let pixels = (px.start..px.end - 1, py.end - 1..py.start);
        Ok(PlotFrame { x: axes.x.clone(), y: axes.y.clone(), pixels })
    }

    struct TickAxis(RangedCoordf64);

    impl Ranged for TickAxis {
        type FormatOption = NoDefaultFormatting;
        type ValueType = f64;
        fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
            self.0.map(value, limit)
        }
        fn key_points<Hint: KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
            self.0.key_points(hint)
        }
        fn range(&self) -> Range<f64> {
            self.0.range()
        }
    }

    impl ValueFormatter<f64> for TickAxis {
        fn format(value: &f64) -> String {
            Ticks::Count.label(*value)
        }
    }

    /// `draw` on a `width` × `height` SVG below a 37-pixel band (so the area's origin is not the
    /// document's), with the frame it returned.
    fn svg(
        width: u32,
        height: u32,
        draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> PlotFrame,
    ) -> (String, PlotFrame) {
        let mut out = String::new();
        let frame = {
            let root = SVGBackend::with_string(&mut out, (width, height + 37)).into_drawing_area();
            let (_, area) = root.split_vertically(37);
            let frame = draw(&area);
            root.present().unwrap();
            frame
        };
        (out, frame)
    }

    /// plotters' SVG without its invisible light grid (lines in the background colour), and its
    /// grid lines, `<line … x1="a" y1="b" x2="c" y2="d"/>`, written as the two-point paths this
    /// file draws: `<polyline fill="none" … points="a,b c,d "/>`.
    fn without_light_lines(svg: &str, background: RGBColor) -> String {
        let hidden = format!("stroke=\"#{:02X}{:02X}{:02X}\"", background.0, background.1, background.2);
        let mut out = String::new();
        for line in svg.lines().filter(|l| !(l.starts_with("<line") && l.contains(&hidden))) {
            match line.strip_prefix("<line ").and_then(|rest| rest.split_once(" x1=\"")) {
                Some((paint, ends)) => {
                    let v: Vec<&str> = ends.split('"').collect();
                    let [x1, _, y1, _, x2, _, y2, ..] = v[..] else { panic!("{line}") };
                    out += &format!("<polyline fill=\"none\" {paint} points=\"{x1},{y1} {x2},{y2} \"/>\n");
                }
                None => out += &format!("{line}\n"),
            }
        }
        out
    }

    fn cases() -> Vec<(Axes, u32, u32, f64)> {
        let legend = vec![
            Key { label: "passed", ink: Ink::Admitted, dash: Dash::Solid },
            Key { label: "429", ink: Ink::Rejected, dash: Dash::Dashed },
        ];
        let base = Axes {
            x: -60.0..0.0,
            y: 0.0..12.0,
            x_ticks: Ticks::SecondsAgo,
            y_ticks: Ticks::Count,
            x_title: None,
            legend,
            compact: false,
        };
        let mut out = Vec::new();
        for (x, y) in [(-60.0..0.0, 0.0..12.0), (0.0..7.3, 0.0..1.0), (0.0..1000.0, 0.0..2500.0), (3.0..3.0, 0.0..0.04)]
        {
            for compact in [false, true] {
                for x_title in [None, Some("seconds since the start")] {
                    // (At 160 px the legend takes two rows: 120 px leave a plot under them.)
                    for (w, h, scale) in
                        [(640, 300, 1.0), (343, 200, 2.0), (600, 400, 1.5), (220, 110, 1.0), (160, 120, 1.0)]
                    {
                        let legend = if compact { Vec::new() } else { base.legend.clone() };
                        let axes = Axes { x: x.clone(), y: y.clone(), x_title, legend, compact, ..base.clone() };
                        out.push((axes, w, h, scale));
                    }
                }
            }
        }
        out
    }

    #[test]
    fn axes_are_drawn_and_laid_out_as_plotters_mesh_drew_them() {
        for (axes, w, h, scale) in cases() {
            for theme in [ChartTheme::LIGHT, ChartTheme::DARK] {
                let style = ChartStyle { theme, scale };
                let (ours, frame) = svg(w, h, |a| draw_axes(a, &axes, &style).unwrap());
                let (theirs, their_frame) = svg(w, h, |a| plotters_axes(a, &axes, &style).unwrap());
                assert_eq!(frame, their_frame, "{axes:?} at {w}x{h}, scale {scale}");
                assert_eq!(ours, without_light_lines(&theirs, theme.background), "{axes:?} at {w}x{h}, scale {scale}");
            }
        }
    }

    #[test]
    fn a_chart_with_no_room_for_its_plot_draws_its_legend_and_no_axes() {
        let (axes, ..) = cases().remove(0);
        for (w, h) in [(90, 40), (30, 20), (1, 1), (0, 0)] {
            let (drawn, frame) = svg(w, h, |a| draw_axes(a, &axes, &ChartStyle::default()).unwrap());
            assert!(!drawn.contains("now"), "{w}x{h}: {drawn}");
            assert!(
                frame.pixels.0.start >= frame.pixels.0.end || frame.pixels.1.end >= frame.pixels.1.start,
                "{frame:?}"
            );
        }
    }
}
