//! [`TextLayer`]: a plotters backend that writes a picture's text as SVG `<text>` elements, for
//! the names over the cluster's moving canvases. As a canvas of its own, that layer cost every
//! frame: whenever any canvas in the page changes, the browser copies out every canvas again for
//! the compositor (~0.3 ms a frame at 16 nodes for the two name layers); SVG that does not
//! change costs nothing. Canvas and SVG share the text model (anchor, baseline, font), so the
//! names land where the canvas put them. Only text is kept: a text layer draws nothing else.
//! Plain Rust, tested natively.

use std::cell::RefCell;
use std::rc::Rc;

use crate::markup::escape;
use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind, FontTransform,
};

/// The layer's text, collected as SVG (see [`write_svg`]).
pub struct TextLayer {
    size: (u32, u32),
    svg: Rc<RefCell<String>>,
}

/// A text layer never fails.
#[derive(Debug)]
pub struct Never;

impl std::fmt::Display for Never {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("never")
    }
}

impl std::error::Error for Never {}

/// What `write` draws over `width` × `height` pixels (the canvas's own, device pixels), as one
/// `<svg>` element whose user units are those pixels, to lay over the canvas at its CSS size.
///
/// ```
/// use plotters::prelude::*;
/// use plotters::style::text_anchor::{HPos, Pos, VPos};
/// use ratelimit_playground::chart::text_layer::write_svg;
/// let svg = write_svg(200, 100, |root| {
///     let style = ("sans-serif", 12.0).into_font().color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center));
///     root.draw(&Text::new("node 1 <a>", (50, 40), style)).map_err(|e| e.to_string())
/// })
/// .unwrap();
/// assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100""#));
/// assert!(svg.contains(r#"x="50" y="40" text-anchor="end" dominant-baseline="middle""#));
/// assert!(svg.contains(">node 1 &lt;a&gt;</text>"));
/// ```
pub fn write_svg<E>(
    width: u32,
    height: u32,
    write: impl FnOnce(&DrawingArea<TextLayer, Shift>) -> Result<(), E>,
) -> Result<String, E> {
    let svg = Rc::new(RefCell::new(String::new()));
    write(&TextLayer { size: (width, height), svg: Rc::clone(&svg) }.into_drawing_area())?;
    let text = svg.take();
    Ok(format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" preserveAspectRatio="none" aria-hidden="true">{text}</svg>"#
    ))
}

impl DrawingBackend for TextLayer {
    type ErrorType = Never;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_pixel(&mut self, _: BackendCoord, _: BackendColor) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        _: BackendCoord,
        _: BackendCoord,
        _: &S,
    ) -> Result<(), DrawingErrorKind<Never>> {
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        (x, y): BackendCoord,
    ) -> Result<(), DrawingErrorKind<Never>> {
        let color = style.color();
        if color.alpha == 0.0 {
            return Ok(());
        }
        // The canvas's textAlign and textBaseline, as SVG says them.
        let anchor = match style.anchor().h_pos {
            HPos::Left => "start",
            HPos::Center => "middle",
            HPos::Right => "end",
        };
        let baseline = match style.anchor().v_pos {
            VPos::Top => "hanging",
            VPos::Center => "middle",
            VPos::Bottom => "text-after-edge",
        };
        let rotate = match style.transform() {
            FontTransform::None => String::new(),
            FontTransform::Rotate90 => format!(r#" transform="rotate(90 {x} {y})""#),
            FontTransform::Rotate180 => format!(r#" transform="rotate(180 {x} {y})""#),
            FontTransform::Rotate270 => format!(r#" transform="rotate(270 {x} {y})""#),
        };
        let (r, g, b) = color.rgb;
        self.svg.borrow_mut().push_str(&format!(
            r#"<text x="{x}" y="{y}" text-anchor="{anchor}" dominant-baseline="{baseline}" font-family="{}" font-size="{:.1}" font-weight="{}" fill="rgb({r},{g},{b})" fill-opacity="{:.3}"{rotate}>{}</text>"#,
            escape(style.family().as_str()),
            style.size(),
            if style.style().as_str() == "bold" { "bold" } else { "normal" },
            color.alpha,
            escape(text)
        ));
        Ok(())
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
        // Only for layouts that measure before they write; the names are placed, not measured.
        let size = style.size();
        Ok(((text.chars().count() as f64 * size * 0.55).ceil() as u32, size.ceil() as u32))
    }
}
