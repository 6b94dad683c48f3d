//! Text on a page canvas, drawn and measured as plotters-canvas and plotters do it (read:
//! plotters-canvas 0.3 `src/canvas.rs`, `draw_text`; plotters 0.3.7 `src/style/font/web.rs`,
//! `estimate_layout`), but with the font size and the colour written without core's float
//! printing: theirs is `format!("{}px", size)`, which alone would put it in the page (see
//! docs/size.md). Charts lay out exactly as plotters lays them out: text is measured as an
//! inline-block `<span>` in that font.

use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{BackendCoord, BackendTextStyle, FontTransform};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlElement};

use super::ink::{css_color, fill_ink};
use crate::sim::support::decimal::format_f64_trimmed;

/// A CSS pixel size: `12px`, `13.125px`, to the micro-pixel.
fn px(size: f64) -> String {
    format!("{}px", format_f64_trimmed(size, 6))
}

/// Fills `text` at `pos` in `style`'s font, colour, anchor and rotation (plotters-canvas's
/// `draw_text`, step for step).
pub fn fill_text<S: BackendTextStyle>(
    ctx: &CanvasRenderingContext2d,
    text: &str,
    style: &S,
    (mut x, mut y): BackendCoord,
) -> Result<(), JsValue> {
    let Some(ink) = fill_ink(style.color()) else { return Ok(()) };
    let degrees = match style.transform() {
        FontTransform::None => 0.0,
        FontTransform::Rotate90 => 90.0,
        FontTransform::Rotate180 => 180.0,
        FontTransform::Rotate270 => 270.0,
    };
    let rotated = degrees != 0.0;
    if rotated {
        ctx.save();
        ctx.translate(f64::from(x), f64::from(y))?;
        ctx.rotate(degrees / 180.0 * std::f64::consts::PI)?;
        (x, y) = (0, 0);
    }
    ctx.set_text_baseline(match style.anchor().v_pos {
        VPos::Top => "top",
        VPos::Center => "middle",
        VPos::Bottom => "bottom",
    });
    ctx.set_text_align(match style.anchor().h_pos {
        HPos::Left => "start",
        HPos::Right => "end",
        HPos::Center => "center",
    });
    ctx.set_fill_style_str(&css_color(ink));
    ctx.set_font(&format!("{} {} {}", style.style().as_str(), px(style.size()), style.family().as_str()));
    ctx.fill_text(text, f64::from(x), f64::from(y))?;
    if rotated {
        ctx.restore();
    }
    Ok(())
}

/// The width and height `text` takes in `style`'s font: an inline-block `<span>` of it, laid out
/// below the viewport and removed again (plotters' `estimate_layout` on the web).
pub fn measure<S: BackendTextStyle>(text: &str, style: &S) -> Option<(u32, u32)> {
    let document = web_sys::window()?.document()?;
    let body = document.body()?;
    let span: HtmlElement = document.create_element("span").ok()?.dyn_into().ok()?;
    span.set_text_content(Some(text));
    let css = format!(
        "display: inline-block; font-family:{}; font-style:{}; font-size: {}; position: fixed; top: 100%",
        style.family().as_str(),
        style.style().as_str(),
        px(style.size())
    );
    span.set_attribute("style", &css).ok()?;
    body.append_child(&span).ok()?;
    let size = (span.offset_width().max(0) as u32, span.offset_height().max(0) as u32);
    span.remove();
    Some(size)
}
