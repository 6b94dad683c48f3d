//! Browser glue for charts: sizes a `<canvas>` backing store to its CSS box × devicePixelRatio
//! (crisp on HiDPI screens), reads the chart colours from the page's CSS custom properties, and
//! hands canvases to the backend-generic drawing code. [`Layers`] keeps a chart's axis layer (all
//! of its text) off the page and draws it again only when the axes, the theme or the size change;
//! a [`Surface`], a canvas redrawn on every frame, is painted by the paint worker once it can be.

use std::rc::Rc;

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, IntoDrawingArea};
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

use super::batched::{context, BatchedCanvas};
use super::paint_worker::{PaintWorker, Phase};
use super::plot::{draw_axes, plot_area, Axes, ChartStyle, Plot, PlotFrame};
use super::theme::{parse_hex_rgb, ChartTheme};

/// Resizes the canvas backing store to its displayed size in device pixels and returns the
/// scale (device pixels per CSS pixel) to draw with. A canvas not laid out yet keeps its size.
pub fn fit_to_display(canvas: &HtmlCanvasElement) -> f64 {
    let (ratio, size) = display_size(canvas);
    if let Some((w, h)) = size {
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
    }
    ratio
}

/// The device pixels per CSS pixel, and `canvas`'s displayed size in device pixels (`None` if it
/// is not laid out yet).
fn display_size(canvas: &HtmlCanvasElement) -> (f64, Option<(u32, u32)>) {
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio()).max(1.0);
    let (css_w, css_h) = (canvas.client_width(), canvas.client_height());
    let size = (css_w > 0 && css_h > 0)
        .then(|| ((f64::from(css_w) * ratio).round() as u32, (f64::from(css_h) * ratio).round() as u32));
    (ratio, size)
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

/// The style to draw `canvas` with: the page theme and its device pixel ratio (fitting its
/// backing store to its CSS size first).
pub fn style_for(canvas: &HtmlCanvasElement) -> ChartStyle {
    ChartStyle { scale: fit_to_display(canvas), theme: theme_from_css(canvas) }
}

fn area_of(canvas: &HtmlCanvasElement) -> Result<DrawingArea<BatchedCanvas, Shift>, String> {
    let backend = BatchedCanvas::new(canvas).ok_or("a chart canvas has no 2d context")?;
    Ok(backend.into_drawing_area())
}

/// A chart in one canvas whose axes (all of its text) are drawn once into a canvas kept off the
/// page and copied in under every redraw of the data. A second canvas in the page would cost the
/// compositor on every frame that any canvas changes (here ~0.07 ms a canvas).
pub struct Layers {
    axes: HtmlCanvasElement,
    data: HtmlCanvasElement,
    /// `data`'s 2d context, asked for once.
    ctx: CanvasRenderingContext2d,
    laid_out: Option<(Axes, u64, ChartStyle, PlotFrame)>,
    /// How many times the axis layer was drawn (for tests and measurements).
    pub layouts: u64,
}

impl Layers {
    /// Layers for the chart canvas `data`, or `None` without a document to make the axes' in or
    /// without a 2d context on `data`.
    pub fn new(data: HtmlCanvasElement) -> Option<Self> {
        let axes = web_sys::window()?.document()?.create_element("canvas").ok()?.dyn_into().ok()?;
        let ctx = context(&data)?;
        Some(Layers { axes, data, ctx, laid_out: None, layouts: 0 })
    }

    /// Draws the axis layer for `axes` unless it already has them under the same `env` (a
    /// number that changes with the theme or the page size), then repaints the chart: the axes,
    /// and over them what `draw` paints in the axes' coordinates. The legend of `axes` is left
    /// out: the page shows it as HTML, where it wraps on narrow screens.
    pub fn draw(
        &mut self,
        axes: &Axes,
        env: u64,
        draw: impl FnOnce(&Plot<BatchedCanvas>, &ChartStyle) -> Result<(), String>,
    ) -> Result<(), String> {
        let current = self.laid_out.as_ref().is_some_and(|(a, e, ..)| a == axes && *e == env);
        if !current {
            let style = style_for(&self.data);
            self.axes.set_width(self.data.width());
            self.axes.set_height(self.data.height());
            let without_legend = Axes { legend: Vec::new(), ..axes.clone() };
            let frame = draw_axes(&area_of(&self.axes)?, &without_legend, &style).map_err(|e| e.to_string())?;
            self.laid_out = Some((axes.clone(), env, style, frame));
            self.layouts += 1;
        }
        let Some((_, _, style, frame)) = self.laid_out.as_ref() else { return Ok(()) };
        let ctx = &self.ctx;
        ctx.clear_rect(0.0, 0.0, f64::from(self.data.width()), f64::from(self.data.height()));
        ctx.draw_image_with_html_canvas_element(&self.axes, 0.0, 0.0).map_err(|e| format!("{e:?}"))?;
        let root = BatchedCanvas::with_context(&self.data, ctx.clone()).into_drawing_area();
        draw(&plot_area(&root, frame), style)?;
        root.present().map_err(|e| e.to_string())
    }
}

/// One canvas redrawn whole each time (no text on it), re-measured only when `env` changes. The
/// paint worker paints it once it is ready ([`PaintWorker`]); the page does where there is no
/// worker.
pub struct Surface {
    canvas: HtmlCanvasElement,
    painter: Painter,
    fitted: Option<(u64, ChartStyle, (u32, u32))>,
}

/// Who paints a [`Surface`].
enum Painter {
    /// Nobody yet: the paint worker is starting.
    Waiting(Rc<PaintWorker>),
    /// The paint worker, where the canvas is called by this id.
    Worker(Rc<PaintWorker>, u32),
    /// The page, through the canvas's 2d context (asked for once; `None` if it has none).
    Page(Option<CanvasRenderingContext2d>),
}

impl Surface {
    /// A surface over `canvas`, which must not have been drawn on.
    pub fn new(canvas: HtmlCanvasElement) -> Self {
        let painter = match PaintWorker::shared() {
            Some(worker) => Painter::Waiting(worker),
            None => Painter::Page(context(&canvas)),
        };
        Surface { canvas, painter, fitted: None }
    }

    /// The style and the size in device pixels it was last drawn with (`None` before it was).
    pub fn fitted(&self) -> Option<(ChartStyle, (u32, u32))> {
        self.fitted.map(|(_, style, size)| (style, size))
    }

    /// Lets `draw` paint the whole canvas, after re-reading size and theme if `env` changed.
    /// Draws nothing while the paint worker starts; reading this in an effect runs it again when
    /// the worker is ready.
    pub fn draw(
        &mut self,
        env: u64,
        draw: impl FnOnce(&DrawingArea<BatchedCanvas, Shift>, &ChartStyle) -> Result<(), String>,
    ) -> Result<(), String> {
        if let Painter::Waiting(worker) = &self.painter {
            self.painter = match worker.phase() {
                Phase::Starting => return Ok(()),
                Phase::Ready => match worker.adopt(&self.canvas) {
                    Some(id) => Painter::Worker(Rc::clone(worker), id),
                    None => Painter::Page(context(&self.canvas)),
                },
                Phase::Failed => Painter::Page(context(&self.canvas)),
            };
        }
        let (style, size) = match self.fitted {
            Some((e, style, size)) if e == env => (style, size),
            _ => {
                let (scale, size) = match self.painter {
                    // Resized in the worker (it may not be here), to its box as now.
                    Painter::Worker(..) => {
                        let (scale, shown) = display_size(&self.canvas);
                        let last = self.fitted.map_or((self.canvas.width(), self.canvas.height()), |f| f.2);
                        (scale, shown.unwrap_or(last))
                    }
                    _ => (fit_to_display(&self.canvas), (self.canvas.width(), self.canvas.height())),
                };
                let style = ChartStyle { scale, theme: theme_from_css(&self.canvas) };
                self.fitted = Some((env, style, size));
                (style, size)
            }
        };
        match &self.painter {
            Painter::Worker(worker, id) => {
                draw(&BatchedCanvas::recording(Rc::clone(worker), *id, size).into_drawing_area(), &style)
            }
            Painter::Page(Some(ctx)) => {
                draw(&BatchedCanvas::with_context(&self.canvas, ctx.clone()).into_drawing_area(), &style)
            }
            Painter::Page(None) | Painter::Waiting(_) => Err("a chart canvas has no 2d context".into()),
        }
    }
}

impl Drop for Surface {
    fn drop(&mut self) {
        if let Painter::Worker(worker, id) = &self.painter {
            worker.forget(*id);
        }
    }
}
