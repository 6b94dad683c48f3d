//! [`BatchedCanvas`]: the plotters backend every chart in the page draws with. It paints what
//! plotters-canvas would, in far fewer canvas calls: consecutive shapes of one colour and width
//! go into a single path that is stroked or filled once, and a style is set only when it changes.
//! A 16-node topology frame was ~280 separate `stroke()` calls, each with a colour string
//! formatted in Rust and parsed again by the canvas; batched, it is a handful.
//!
//! Order is kept (a shape of another style closes the open path first), so the picture is the
//! same, except that overlapping translucent shapes of one style blend once where they overlap.
//! Small circles and crosses (plotters draws a `Cross` as two diagonals, one after the other) are
//! copied from [sprites](super::sprites) instead of being rasterised as paths each time.
//! Text is drawn and measured as plotters-canvas does it ([`super::canvas_text`]). The calls go through a
//! [`Pen`]: onto the page's canvas, or written down for the paint worker, which has sprites of its
//! own and draws no text.

use std::rc::Rc;

use plotters_backend::{BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::ink::{fill_ink, stroke_ink, Ink};
use super::paint_worker::PaintWorker;
use super::pen::Pen;
use super::sprites::{Mark, MAX_RADIUS};

/// A failed canvas call, as the canvas reported it.
#[derive(Debug)]
pub struct BatchError(String);

impl std::fmt::Display for BatchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BatchError {}

type Result<T = ()> = std::result::Result<T, DrawingErrorKind<BatchError>>;

/// A `<canvas>` as a plotters backend that merges consecutive shapes of one style into one path.
/// What is still open is painted by [`present`](DrawingBackend::present) or when it is dropped;
/// a recorded frame goes to the worker then.
pub struct BatchedCanvas {
    pen: Pen,
    size: (u32, u32),
    open: Option<Ink>,
    stroke_style: Option<Ink>,
    fill_style: Option<Ink>,
    /// A down-right diagonal held back: if the next line is its mirror, the two are a cross.
    diagonal: Option<(BackendCoord, BackendCoord, Ink)>,
}

impl BatchedCanvas {
    /// The backend for `canvas`, or `None` if it has no 2d context.
    pub fn new(canvas: &HtmlCanvasElement) -> Option<Self> {
        Some(Self::with_context(canvas, context(canvas)?))
    }

    /// The backend for `canvas` drawing through `ctx`, its 2d context (which a canvas keeps for
    /// life, so a chart redrawn every frame asks for it once).
    pub fn with_context(canvas: &HtmlCanvasElement, ctx: CanvasRenderingContext2d) -> Self {
        let size = (canvas.width(), canvas.height());
        Self::with_pen(Pen::Context(ctx), size)
    }

    /// The backend for canvas `id` of the paint worker `to`, `size` device pixels: it writes the
    /// frame down and hands it over when dropped.
    pub fn recording(to: Rc<PaintWorker>, id: u32, size: (u32, u32)) -> Self {
        Self::with_pen(Pen::record(to, id, size), size)
    }

    fn with_pen(pen: Pen, size: (u32, u32)) -> Self {
        BatchedCanvas { pen, size, open: None, stroke_style: None, fill_style: None, diagonal: None }
    }

    /// Opens a path for `ink` unless the open one already has it.
    fn begin(&mut self, ink: Ink) {
        if self.open == Some(ink) {
            return;
        }
        self.flush();
        if ink.stroke_width.is_some() {
            if self.stroke_style != Some(ink) {
                self.pen.stroke_style(ink);
                self.stroke_style = Some(ink);
            }
        } else if self.fill_style.map(|f| (f.rgb, f.alpha_bits)) != Some((ink.rgb, ink.alpha_bits)) {
            self.pen.fill_style(ink);
            self.fill_style = Some(ink);
        }
        self.pen.begin_path();
        self.open = Some(ink);
    }

    /// Adds a line to the open path of `ink`.
    fn line(&mut self, from: BackendCoord, to: BackendCoord, ink: Ink) {
        let (a, b) = crisp(from, to);
        self.begin(ink);
        self.pen.move_to(a.0, a.1);
        self.pen.line_to(b.0, b.1);
    }

    /// Draws a held-back diagonal as the plain line it turned out to be.
    fn settle(&mut self) {
        if let Some((from, to, ink)) = self.diagonal.take() {
            self.line(from, to, ink);
        }
    }

    /// Copies `mark` from its sprite (the page's, or the worker's), after painting everything
    /// drawn before it. False if no sprite could be made.
    fn stamp(&mut self, mark: Mark, ink: Ink, centre: BackendCoord) -> bool {
        self.flush();
        self.pen.stamp(mark, ink, centre)
    }

    /// Paints the open path, if any.
    fn flush(&mut self) {
        match self.open.take() {
            Some(Ink { stroke_width: Some(_), .. }) => self.pen.stroke(),
            Some(_) => self.pen.fill(),
            None => {}
        }
    }
}

impl Drop for BatchedCanvas {
    fn drop(&mut self) {
        self.settle();
        self.flush();
        self.pen.send();
    }
}

/// The 2d context of `canvas`, if it has one.
pub fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok()??.dyn_into().ok()
}

fn no_context() -> DrawingErrorKind<BatchError> {
    DrawingErrorKind::DrawingError(BatchError("a chart canvas has no 2d context".into()))
}

/// plotters-canvas's half-pixel shift for horizontal and vertical lines, so 1 px lines are crisp.
fn crisp(from: BackendCoord, to: BackendCoord) -> ((f64, f64), (f64, f64)) {
    let (mut a, mut b) = ((f64::from(from.0), f64::from(from.1)), (f64::from(to.0), f64::from(to.1)));
    if from.0 == to.0 {
        a.0 -= 0.5;
        b.0 -= 0.5;
    }
    if from.1 == to.1 {
        a.1 -= 0.5;
        b.1 -= 0.5;
    }
    (a, b)
}

/// A canvas call's exception as a drawing error.
fn js_error(e: &JsValue) -> DrawingErrorKind<BatchError> {
    DrawingErrorKind::DrawingError(BatchError(format!("{e:?}")))
}

impl DrawingBackend for BatchedCanvas {
    type ErrorType = BatchError;

    fn get_size(&self) -> (u32, u32) {
        self.size
    }

    fn ensure_prepared(&mut self) -> Result {
        Ok(())
    }

    fn present(&mut self) -> Result {
        self.settle();
        self.flush();
        Ok(())
    }

    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result {
        self.settle();
        if let Some(ink) = fill_ink(color) {
            self.begin(ink);
            self.pen.rect(f64::from(point.0), f64::from(point.1), 1.0, 1.0);
        }
        Ok(())
    }

    fn draw_line<S: BackendStyle>(&mut self, from: BackendCoord, to: BackendCoord, style: &S) -> Result {
        let Some(ink) = stroke_ink(style) else {
            self.settle();
            return Ok(());
        };
        if let Some((a, b, held)) = self.diagonal.take() {
            // plotters' Cross: (x−s, y−s)→(x+s, y+s), then (x−s, y+s)→(x+s, y−s).
            let mirror = from == (a.0, b.1) && to == (b.0, a.1) && held == ink;
            let reach = ((b.0 - a.0) / 2) as u32;
            if mirror && self.stamp(Mark::Cross(reach), ink, (a.0 + reach as i32, a.1 + reach as i32)) {
                return Ok(());
            }
            self.line(a, b, held);
            if mirror {
                self.line(from, to, ink);
                return Ok(());
            }
        }
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        if dx == dy && dx > 0 && dx % 2 == 0 && (dx / 2) as u32 <= MAX_RADIUS {
            self.diagonal = Some((from, to, ink));
        } else {
            self.line(from, to, ink);
        }
        Ok(())
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result {
        self.settle();
        let ink = if fill { fill_ink(style.color()) } else { stroke_ink(style) };
        if let Some(ink) = ink {
            self.begin(ink);
            let (x, y) = (f64::from(upper_left.0), f64::from(upper_left.1));
            self.pen.rect(x, y, f64::from(bottom_right.0) - x, f64::from(bottom_right.1) - y);
        }
        Ok(())
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result {
        self.settle();
        let Some(ink) = stroke_ink(style) else { return Ok(()) };
        let mut points = path.into_iter();
        if let Some(start) = points.next() {
            self.begin(ink);
            self.pen.move_to(f64::from(start.0), f64::from(start.1));
            for p in points {
                self.pen.line_to(f64::from(p.0), f64::from(p.1));
            }
        }
        Ok(())
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(&mut self, path: I, style: &S) -> Result {
        self.settle();
        let Some(ink) = fill_ink(style.color()) else { return Ok(()) };
        let mut points = path.into_iter();
        if let Some(start) = points.next() {
            self.begin(ink);
            self.pen.move_to(f64::from(start.0), f64::from(start.1));
            for p in points {
                self.pen.line_to(f64::from(p.0), f64::from(p.1));
            }
            self.pen.close_path();
        }
        Ok(())
    }

    fn draw_circle<S: BackendStyle>(&mut self, center: BackendCoord, radius: u32, style: &S, fill: bool) -> Result {
        self.settle();
        let ink = if fill { fill_ink(style.color()) } else { stroke_ink(style) };
        if let Some(ink) = ink {
            if radius <= MAX_RADIUS && self.stamp(Mark::Circle(radius), ink, center) {
                return Ok(());
            }
            self.begin(ink);
            let (x, y, r) = (f64::from(center.0), f64::from(center.1), f64::from(radius));
            self.pen.circle(x, y, r).map_err(|e| js_error(&e))?;
        }
        Ok(())
    }

    fn draw_text<S: BackendTextStyle>(&mut self, text: &str, style: &S, pos: BackendCoord) -> Result {
        self.settle();
        self.flush();
        // Text sets the fill colour itself.
        self.fill_style = None;
        let ctx = self.pen.context().ok_or_else(no_context)?;
        super::canvas_text::fill_text(ctx, text, style, pos).map_err(|e| js_error(&e))
    }

    fn estimate_text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> Result<(u32, u32)> {
        super::canvas_text::measure(text, style).ok_or_else(|| js_error(&"text could not be measured".into()))
    }
}
