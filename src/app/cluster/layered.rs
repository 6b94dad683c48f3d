//! `LayeredCanvas`: a picture in two stacked layers — what moves below, a HiDPI canvas redrawn
//! whenever `redraw` changes, and the names above, written as SVG text
//! ([`crate::chart::text_layer`]) only when `labels` changes, the theme flips or the page is
//! resized. Canvas text is costly to draw, and a second canvas costly to keep: the browser copies
//! every canvas of the page out again on each frame any of them changes; SVG that stays put does
//! not cost a frame anything.

use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;

use crate::app::chart_env::use_chart_env;
use crate::app::hooks::in_view::use_in_view;
use crate::chart::batched::BatchedCanvas;
use crate::chart::canvas::Surface;
use crate::chart::plot::ChartStyle;
use crate::chart::text_layer::{write_svg, TextLayer};

/// Draws the moving layer over its whole canvas.
pub type Painter = Box<dyn Fn(&DrawingArea<BatchedCanvas, Shift>, &ChartStyle) -> Result<(), String>>;

/// Writes the names, in the moving canvas's pixels.
pub type Writer = Box<dyn Fn(&DrawingArea<TextLayer, Shift>, &ChartStyle) -> Result<(), String>>;

/// A moving canvas under its names, in a box `height` CSS pixels tall.
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
    /// Writes the names above it.
    write: Writer,
) -> impl IntoView {
    let env = use_chart_env();
    let below = NodeRef::<Canvas>::new();
    let surface = StoredValue::new_local(None::<Surface>);
    let written = StoredValue::new_local(None::<(u64, u64)>);
    let names = RwSignal::new(String::new());
    let seen = use_in_view(below);
    Effect::new(move |_| {
        let _ = redraw.get();
        if !env.draws(seen) {
            return; // drawn when it comes back into view
        }
        let fit = env.key() ^ (u64::from(height.get()) << 32);
        let text_key = (fit, labels.get());
        let Some(b) = below.get() else { return };
        surface.update_value(|s| {
            let lower = s.get_or_insert_with(|| Surface::new(b.clone()));
            if let Err(e) = lower.draw(fit, |root, style| paint(root, style)) {
                leptos::logging::warn!("{id} not drawn: {e}");
            }
        });
        // In the canvas's size as drawn: one the paint worker has is resized there, later.
        let Some((style, (w, h))) = surface.with_value(|s| s.as_ref().and_then(Surface::fitted)) else { return };
        if written.get_value() != Some(text_key) {
            match write_svg(w, h, |root| write(root, &style)) {
                Ok(svg) => {
                    names.set(svg);
                    written.set_value(Some(text_key));
                }
                Err(e) => leptos::logging::warn!("{id} labels not written: {e}"),
            }
        }
    });
    view! {
        <div class="layered" style:height=move || format!("{}px", height.get())>
            <canvas id=id class="layer-below" node_ref=below role="img" aria-label=label></canvas>
            <div class="layer-above" aria-hidden="true" inner_html=move || names.get()></div>
        </div>
    }
}
