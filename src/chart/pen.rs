//! [`Pen`]: where a [`BatchedCanvas`](super::batched::BatchedCanvas) sends its canvas calls —
//! straight to a 2d context on the page, or written down as numbers for the paint worker
//! ([`super::paint_worker`], `static/paint-worker.js`), which makes the same calls on a canvas the
//! page handed it. The calls are the few the batching makes: styles, paths, rectangles, circles.
//!
//! A recorded frame is a `Float64Array`: the canvas's id, its width and height in device pixels,
//! then each call as its command number (the constants in [`cmd`]) followed by its arguments.

use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::CanvasRenderingContext2d;

use super::ink::{css_color, Ink};
use super::paint_worker::PaintWorker;
use super::sprites::{self, Mark};

/// The command numbers of a recorded frame; `static/paint-worker.js` reads the same.
pub mod cmd {
    /// `strokeStyle` = rgba(r, g, b, a), `lineWidth` = w: 5 arguments.
    pub const STROKE_STYLE: f64 = 0.0;
    /// `fillStyle` = rgba(r, g, b, a): 4 arguments.
    pub const FILL_STYLE: f64 = 1.0;
    /// `beginPath()`.
    pub const BEGIN: f64 = 2.0;
    /// `moveTo(x, y)`.
    pub const MOVE: f64 = 3.0;
    /// `lineTo(x, y)`.
    pub const LINE: f64 = 4.0;
    /// `rect(x, y, w, h)`.
    pub const RECT: f64 = 5.0;
    /// `moveTo(x + r, y); arc(x, y, r, 0, 2π)`: a circle as a sub-path of its own.
    pub const CIRCLE: f64 = 6.0;
    /// `closePath()`.
    pub const CLOSE: f64 = 7.0;
    /// `stroke()`.
    pub const STROKE: f64 = 8.0;
    /// `fill()`.
    pub const FILL: f64 = 9.0;
    /// A small mark copied from a sprite the worker draws once (as [`super::sprites`] does on
    /// the page): shape (0 circle, 1 cross), reach, r, g, b, a, stroke width (0 fills),
    /// centre x, centre y.
    pub const STAMP: f64 = 10.0;
}

/// Where canvas calls go.
pub enum Pen {
    /// Made at once on the page's own canvas.
    Context(CanvasRenderingContext2d),
    /// Written down for the paint worker `to`; [`Pen::record`] starts the frame, [`Pen::send`]
    /// hands it over.
    Record {
        /// The frame so far.
        frame: Vec<f64>,
        /// Who paints it.
        to: Rc<PaintWorker>,
    },
}

impl Pen {
    /// A pen that writes down a frame for canvas `id` of worker `to`, `size` device pixels.
    pub fn record(to: Rc<PaintWorker>, id: u32, size: (u32, u32)) -> Pen {
        let mut frame = Vec::with_capacity(1024);
        frame.extend([f64::from(id), f64::from(size.0), f64::from(size.1)]);
        Pen::Record { frame, to }
    }

    /// Hands the frame written down so far to the worker (nothing to do on the page's canvas).
    pub fn send(&mut self) {
        if let Pen::Record { frame, to } = self {
            to.paint(frame);
            frame.truncate(3);
        }
    }

    /// The 2d context calls go to, if they go to one.
    pub fn context(&self) -> Option<&CanvasRenderingContext2d> {
        match self {
            Pen::Context(ctx) => Some(ctx),
            Pen::Record { .. } => None,
        }
    }

    fn put(&mut self, command: f64, args: &[f64]) {
        if let Pen::Record { frame, .. } = self {
            frame.push(command);
            frame.extend_from_slice(args);
        }
    }

    /// Strokes from now on in `ink` (which strokes) at its width.
    pub fn stroke_style(&mut self, ink: Ink) {
        let width = f64::from(ink.stroke_width().unwrap_or(1));
        match self {
            Pen::Context(ctx) => {
                ctx.set_stroke_style_str(&css_color(ink));
                ctx.set_line_width(width);
            }
            Pen::Record { .. } => {
                let [r, g, b, a] = rgba(ink);
                self.put(cmd::STROKE_STYLE, &[r, g, b, a, width]);
            }
        }
    }

    /// Fills from now on in `ink`'s colour.
    pub fn fill_style(&mut self, ink: Ink) {
        match self {
            Pen::Context(ctx) => ctx.set_fill_style_str(&css_color(ink)),
            Pen::Record { .. } => self.put(cmd::FILL_STYLE, &rgba(ink)),
        }
    }

    /// Starts a new path.
    pub fn begin_path(&mut self) {
        match self {
            Pen::Context(ctx) => ctx.begin_path(),
            Pen::Record { .. } => self.put(cmd::BEGIN, &[]),
        }
    }

    /// Moves to `(x, y)` without drawing.
    pub fn move_to(&mut self, x: f64, y: f64) {
        match self {
            Pen::Context(ctx) => ctx.move_to(x, y),
            Pen::Record { .. } => self.put(cmd::MOVE, &[x, y]),
        }
    }

    /// A line to `(x, y)`.
    pub fn line_to(&mut self, x: f64, y: f64) {
        match self {
            Pen::Context(ctx) => ctx.line_to(x, y),
            Pen::Record { .. } => self.put(cmd::LINE, &[x, y]),
        }
    }

    /// A rectangle from `(x, y)`, `w` by `h`.
    pub fn rect(&mut self, x: f64, y: f64, w: f64, h: f64) {
        match self {
            Pen::Context(ctx) => ctx.rect(x, y, w, h),
            Pen::Record { .. } => self.put(cmd::RECT, &[x, y, w, h]),
        }
    }

    /// A circle around `(x, y)` of radius `r`, as a sub-path of its own (without the move, the
    /// circle would be joined to the shape before it).
    pub fn circle(&mut self, x: f64, y: f64, r: f64) -> Result<(), JsValue> {
        match self {
            Pen::Context(ctx) => {
                ctx.move_to(x + r, y);
                ctx.arc(x, y, r, 0.0, std::f64::consts::TAU)
            }
            Pen::Record { .. } => {
                self.put(cmd::CIRCLE, &[x, y, r]);
                Ok(())
            }
        }
    }

    /// Closes the current sub-path.
    pub fn close_path(&mut self) {
        match self {
            Pen::Context(ctx) => ctx.close_path(),
            Pen::Record { .. } => self.put(cmd::CLOSE, &[]),
        }
    }

    /// Strokes the path.
    pub fn stroke(&mut self) {
        match self {
            Pen::Context(ctx) => ctx.stroke(),
            Pen::Record { .. } => self.put(cmd::STROKE, &[]),
        }
    }

    /// Copies `mark` in `ink` centred on `(x, y)` from its sprite: the page's
    /// ([`sprites::stamp`]), or one the worker draws once. False if no sprite could be made.
    pub fn stamp(&mut self, mark: Mark, ink: Ink, (x, y): (i32, i32)) -> bool {
        if let Pen::Context(ctx) = self {
            return sprites::stamp(ctx, mark, ink, (x, y));
        }
        let (shape, reach) = match mark {
            Mark::Circle(r) => (0.0, r),
            Mark::Cross(r) => (1.0, r),
        };
        let [r, g, b, a] = rgba(ink);
        let width = f64::from(ink.stroke_width().unwrap_or(0));
        self.put(cmd::STAMP, &[shape, f64::from(reach), r, g, b, a, width, f64::from(x), f64::from(y)]);
        true
    }

    /// Fills the path.
    pub fn fill(&mut self) {
        match self {
            Pen::Context(ctx) => ctx.fill(),
            Pen::Record { .. } => self.put(cmd::FILL, &[]),
        }
    }
}

/// `ink`'s colour as the worker's four numbers, its alpha rounded to thousandths as
/// [`css_color`] writes it for the page's own canvases, so both paint the same.
fn rgba(ink: Ink) -> [f64; 4] {
    let (r, g, b) = ink.rgb();
    let alpha = (crate::sim::support::within::within(ink.alpha(), 0.0, 1.0) * 1000.0).round() / 1000.0;
    [f64::from(r), f64::from(g), f64::from(b), alpha]
}
