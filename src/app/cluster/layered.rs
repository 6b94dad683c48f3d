//! `LayeredCanvas`: a picture in two stacked HiDPI canvases — what moves below, redrawn whenever
//! `redraw` changes, and a transparent text layer above, redrawn only when `labels` changes, the
//! theme flips or the page is resized. Canvas text is the costly part, so it is drawn rarely.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use web_sys::HtmlCanvasElement;

use crate::app::chart_env::use_chart_env;
use crate::chart::batched::BatchedCanvas;
use crate::chart::canvas::{context, Surface};
use crate::chart::plot::ChartStyle;

/// Draws one layer over its whole canvas.
pub type Painter = Box<dyn Fn(&DrawingArea<BatchedCanvas, Shift>, &ChartStyle) -> Result<(), String>>;

fn clear(canvas: &HtmlCanvasElement) {
    if let Some(ctx) = context(canvas) {
        ctx.clear_rect(0.0, 0.0, f64::from(canvas.width()), f64::from(canvas.height()));
    }
}

/// Two stacked canvases in a box `height` CSS pixels tall.
#[component]
pub fn LayeredCanvas(
    /// Element id of the lower (moving) canvas: what tests and assistive technology look at.
    id: &'static str,
    /// What the picture shows, for screen readers.
    #[prop(into)]
    label: Signal<String>,
    /// Height of the box in CSS pixels.
    #[prop(into)]
    height: Signal<u32>,
    /// Changes whenever the moving layer should be redrawn.
    #[prop(into)]
    redraw: Signal<u64>,
    /// Changes whenever the text layer should be redrawn.
    #[prop(into)]
    labels: Signal<u64>,
    /// Paints the moving layer (it must fill its background).
    paint: Painter,
    /// Writes the text layer (on a transparent canvas).
    write: Painter,
) -> impl IntoView {
    let env = use_chart_env();
    let below = NodeRef::<Canvas>::new();
    let above = NodeRef::<Canvas>::new();
    let surfaces = StoredValue::new_local(None::<(Surface, Surface)>);
    let written = StoredValue::new_local(None::<(u64, u64)>);
    Effect::new(move |_| {
        let _ = redraw.get();
        let fit = env.key() ^ (u64::from(height.get()) << 32);
        let text_key = (fit, labels.get());
        let (Some(b), Some(a)) = (below.get(), above.get()) else { return };
        surfaces.update_value(|s| {
            let (lower, upper) = s.get_or_insert_with(|| (Surface::new(b), Surface::new(a.clone())));
            if written.get_value() != Some(text_key) {
                let drawn = upper.draw(fit, |root, style| {
                    clear(&a);
                    write(root, style)
                });
                match drawn {
                    Ok(()) => written.set_value(Some(text_key)),
                    Err(e) => leptos::logging::warn!("{id} labels not drawn: {e}"),
                }
            }
            if let Err(e) = lower.draw(fit, |root, style| paint(root, style)) {
                leptos::logging::warn!("{id} not drawn: {e}");
            }
        });
    });
    view! {
        <div class="layered" style:height=move || format!("{}px", height.get())>
            <canvas id=id class="layer-below" node_ref=below role="img" aria-label=label></canvas>
            <canvas class="layer-above" node_ref=above aria-hidden="true"></canvas>
        </div>
    }
}
