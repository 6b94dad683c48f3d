//! The current chart as a PNG. Each chart on the page is two stacked canvases (axes and text
//! below, data above): this composites both layers of every chart shown — the throughput chart,
//! or the five small multiples — onto one canvas at their on-screen positions and device-pixel
//! resolution, with each chart's title and the legend drawn in (on the page those are HTML) and
//! a caption saying what ran, so the image stands on its own in a document.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Blob, CanvasRenderingContext2d, DomRect, Element, HtmlCanvasElement};

use crate::chart::canvas::theme_from_css;
use crate::chart::plot::{Dash, Key, FONT};
use crate::chart::theme::ChartTheme;

/// The charts that make up "the current chart", most specific first.
const CHARTS: &str = ".throughput-card, .compare-column";
/// Height of the legend strip, when the charts have no legend of their own, CSS px.
const LEGEND_PX: f64 = 28.0;
/// Height of the caption along the bottom, CSS px.
const CAPTION_PX: f64 = 18.0;
/// Margin around everything, CSS px.
const PAD: f64 = 16.0;

fn all(root: &Element, selector: &str) -> Vec<Element> {
    let Ok(list) = root.query_selector_all(selector) else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.item(i)?.dyn_into::<Element>().ok()).collect()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

/// Draws `keys` as line samples and labels from `(x, y)` (the middle of the line), device px.
fn draw_legend(ctx: &CanvasRenderingContext2d, keys: &[Key], theme: &ChartTheme, scale: f64, (mut x, y): (f64, f64)) {
    ctx.set_font(&format!("{}px {FONT}", (13.0 * scale).round()));
    ctx.set_text_baseline("middle");
    for key in keys {
        let dash: &[f64] = match key.dash {
            Dash::Solid => &[],
            Dash::Dashed => &[6.0 * scale, 4.0 * scale],
            Dash::Dotted => &[2.0 * scale, 3.0 * scale],
        };
        let segments: js_sys::Array = dash.iter().map(|d| JsValue::from_f64(*d)).collect();
        let _ = ctx.set_line_dash(&segments);
        ctx.set_stroke_style_str(&hex(key.ink.colour(theme)));
        ctx.set_line_width(2.5 * scale);
        ctx.begin_path();
        ctx.move_to(x, y);
        ctx.line_to(x + 22.0 * scale, y);
        ctx.stroke();
        x += 28.0 * scale;
        ctx.set_fill_style_str(&hex(theme.text));
        let _ = ctx.fill_text(key.label, x, y);
        x += ctx.measure_text(key.label).map_or(80.0 * scale, |m| m.width()) + 18.0 * scale;
    }
    let _ = ctx.set_line_dash(&js_sys::Array::new());
}

/// The smallest box around `rects`: (left, top, right, bottom), CSS px.
fn union<'a>(rects: impl Iterator<Item = &'a DomRect> + Clone) -> (f64, f64, f64, f64) {
    let fold = |f: fn(&DomRect) -> f64, start: f64, pick: fn(f64, f64) -> f64| rects.clone().map(f).fold(start, pick);
    (
        fold(|r| r.left(), f64::INFINITY, f64::min),
        fold(|r| r.top(), f64::INFINITY, f64::min),
        fold(|r| r.right(), f64::NEG_INFINITY, f64::max),
        fold(|r| r.bottom(), f64::NEG_INFINITY, f64::max),
    )
}

/// One canvas holding every chart inside `region` — titles, both canvas layers and the legend
/// where the page shows them (or in a strip on top when the charts have no legend of their own)
/// — with `caption` along the bottom. `None` if the region shows no chart.
pub fn compose(region: &Element, legend: &[Key], caption: &str) -> Option<HtmlCanvasElement> {
    let charts = all(region, CHARTS);
    let canvases: Vec<HtmlCanvasElement> =
        charts.iter().flat_map(|c| all(c, ".plot canvas")).filter_map(|c| c.dyn_into().ok()).collect();
    let first = canvases.first()?;
    let scale = f64::from(first.width()) / f64::from(first.client_width().max(1));
    let titles: Vec<Element> =
        charts.iter().filter_map(|c| c.query_selector("h3, .chart-title").ok().flatten()).collect();
    let rects: Vec<DomRect> = canvases.iter().map(|c| c.get_bounding_client_rect()).collect();
    let title_rects: Vec<DomRect> = titles.iter().map(Element::get_bounding_client_rect).collect();
    let legend_rect =
        charts.first().and_then(|c| c.query_selector(".legend").ok().flatten()).map(|l| l.get_bounding_client_rect());
    let (left, top, right, bottom) = union(rects.iter().chain(&title_rects).chain(&legend_rect));
    let strip = if legend_rect.is_some() { 0.0 } else { LEGEND_PX };
    let (width, height) = (right - left + 2.0 * PAD, bottom - top + 2.0 * PAD + strip + CAPTION_PX);
    let out: HtmlCanvasElement = web_sys::window()?.document()?.create_element("canvas").ok()?.unchecked_into();
    out.set_width((width * scale).round() as u32);
    out.set_height((height * scale).round() as u32);
    let ctx = crate::chart::batched::context(&out)?;
    let theme = theme_from_css(first);
    ctx.set_fill_style_str(&hex(theme.background));
    ctx.fill_rect(0.0, 0.0, f64::from(out.width()), f64::from(out.height()));
    let at = |r: &DomRect| ((r.left() - left + PAD) * scale, (r.top() - top + PAD + strip) * scale);
    let legend_at = legend_rect.as_ref().map_or((PAD * scale, (PAD + strip / 2.0) * scale), |r| {
        let (x, y) = at(r);
        (x, y + r.height() * scale / 2.0)
    });
    draw_legend(&ctx, legend, &theme, scale, legend_at);
    ctx.set_font(&format!("600 {}px {FONT}", (15.0 * scale).round()));
    ctx.set_text_baseline("top");
    ctx.set_fill_style_str(&hex(theme.text));
    for (title, rect) in titles.iter().zip(&title_rects) {
        let (x, y) = at(rect);
        let _ = ctx.fill_text(&title.text_content().unwrap_or_default(), x, y);
    }
    for (canvas, rect) in canvases.iter().zip(&rects) {
        let (x, y) = at(rect);
        let (w, h) = (rect.width() * scale, rect.height() * scale);
        let _ = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(canvas, x, y, w, h);
    }
    ctx.set_font(&format!("{}px {FONT}", (12.0 * scale).round()));
    ctx.set_text_baseline("bottom");
    ctx.set_fill_style_str(&hex(theme.axis));
    let _ = ctx.fill_text(caption, PAD * scale, (height - PAD / 2.0) * scale);
    Some(out)
}

/// Encodes `canvas` as PNG and hands the blob to `done` (`None` if the browser could not).
pub fn to_png(canvas: &HtmlCanvasElement, done: impl FnOnce(Option<Blob>) + 'static) {
    // Called exactly once by the browser, so the closure frees itself.
    let callback = Closure::once_into_js(move |blob: JsValue| done(blob.dyn_into::<Blob>().ok()));
    let _ = canvas.to_blob_with_type(callback.unchecked_ref(), "image/png");
}
