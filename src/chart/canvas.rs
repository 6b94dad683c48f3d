//! Browser glue for charts: sizes a `<canvas>` backing store to its CSS box × devicePixelRatio
//! (crisp on HiDPI screens), reads the chart colours from the page's CSS custom properties, and
//! hands the canvas to the backend-generic drawing code.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::{Element, HtmlCanvasElement};

use super::theme::{parse_hex_rgb, ChartTheme};
use super::throughput::{draw_throughput, ChartStyle, ThroughputWindow};

/// Resizes the canvas backing store to its displayed size in device pixels and returns the
/// scale (device pixels per CSS pixel) to draw with. A canvas not laid out yet keeps its size.
pub fn fit_to_display(canvas: &HtmlCanvasElement) -> f64 {
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (css_w, css_h) = (canvas.client_width(), canvas.client_height());
    if css_w > 0 && css_h > 0 {
        let (w, h) = ((f64::from(css_w) * ratio).round() as u32, (f64::from(css_h) * ratio).round() as u32);
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
    }
    ratio
}

/// The chart colours declared on `element` as CSS custom properties (`--chart-bg`,
/// `--chart-text`, `--chart-axis`, `--chart-grid`, `--admitted`, `--rejected`, each `#rrggbb`),
/// falling back to [`ChartTheme::LIGHT`] for any that is missing or unparsable.
pub fn theme_from_css(element: &Element) -> ChartTheme {
    let style = web_sys::window().and_then(|w| w.get_computed_style(element).ok().flatten());
    let read = |name: &str, fallback| {
        style.as_ref().and_then(|s| s.get_property_value(name).ok()).and_then(|v| parse_hex_rgb(&v)).unwrap_or(fallback)
    };
    let light = ChartTheme::LIGHT;
    ChartTheme {
        background: read("--chart-bg", light.background),
        text: read("--chart-text", light.text),
        axis: read("--chart-axis", light.axis),
        grid: read("--chart-grid", light.grid),
        admitted: read("--admitted", light.admitted),
        rejected: read("--rejected", light.rejected),
    }
}

/// Fits the canvas to its display size and draws the throughput chart on it, in the colours of
/// the page theme.
pub fn draw_throughput_on(canvas: &HtmlCanvasElement, data: &ThroughputWindow) -> Result<(), String> {
    let scale = fit_to_display(canvas);
    let style = ChartStyle { theme: theme_from_css(canvas), scale };
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).ok_or("the chart canvas has no 2d context")?;
    draw_throughput(&backend.into_drawing_area(), data, &style).map_err(|e| e.to_string())
}
