#![cfg(target_arch = "wasm32")]
//! Browser tests of the chart canvases (run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test
//! --target wasm32-unknown-unknown --test wasm_charts`): a chart keeps its axis layer until the
//! axes change, both series land on the canvas, the batching backend paints what plotters-canvas
//! paints, and canvases follow their CSS size and the page's colour variables.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use ratelimit_playground::chart::canvas::{fit_to_display, theme_from_css, Layers};
use ratelimit_playground::chart::plot::{draw_line, Axes, Dash, Ink, Ticks};
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::chart::throughput::{draw_throughput, BucketCounts, ChartStyle, ThroughputWindow};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlCanvasElement;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn canvas(width: u32, height: u32) -> HtmlCanvasElement {
    let canvas: HtmlCanvasElement = document().create_element("canvas").unwrap().unchecked_into();
    canvas.set_width(width);
    canvas.set_height(height);
    canvas
}

/// Pixels of `canvas` within a small distance of `colour`.
fn pixels_near(canvas: &HtmlCanvasElement, colour: plotters::style::RGBColor) -> usize {
    let ctx: web_sys::CanvasRenderingContext2d = canvas.get_context("2d").unwrap().unwrap().unchecked_into();
    let data = ctx.get_image_data(0.0, 0.0, canvas.width().into(), canvas.height().into()).unwrap().data();
    data.chunks(4)
        .filter(|p| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs();
            p[3] > 0 && d(p[0], colour.0) + d(p[1], colour.1) + d(p[2], colour.2) <= 30
        })
        .count()
}

#[wasm_bindgen_test]
fn layers_keep_the_axis_layer_until_the_axes_change() {
    let data_canvas = canvas(10, 10);
    data_canvas.style().set_property("width", "400px").unwrap();
    data_canvas.style().set_property("height", "200px").unwrap();
    document().body().unwrap().append_child(&data_canvas).unwrap();
    let mut layers = Layers::new(data_canvas.clone()).unwrap();
    let axes = |top: f64| Axes {
        x: -10.0..0.0,
        y: 0.0..top,
        x_ticks: Ticks::SecondsAgo,
        y_ticks: Ticks::Count,
        x_title: None,
        legend: vec![],
        compact: false,
    };
    for level in [1.0, 2.0, 3.0] {
        layers
            .draw(&axes(5.0), 0, |plot, style| {
                draw_line(plot, vec![(-10.0, level), (0.0, level)], Ink::Admitted, Dash::Solid, 2.0, style)
                    .map_err(|e| e.to_string())
            })
            .unwrap();
    }
    assert_eq!(layers.layouts, 1, "the axis layer was redrawn although the axes stayed the same");
    assert!(pixels_near(&data_canvas, ChartTheme::LIGHT.admitted) > 300, "the data layer is empty");
    layers.draw(&axes(10.0), 0, |_, _| Ok(())).unwrap();
    layers.draw(&axes(10.0), 1, |_, _| Ok(())).unwrap();
    assert_eq!(layers.layouts, 3, "new axes, then a new environment, each lay out again");
    assert_eq!(pixels_near(&data_canvas, ChartTheme::LIGHT.admitted), 0, "the data layer was not cleared");
    assert!(pixels_near(&data_canvas, ChartTheme::LIGHT.background) > 400 * 200 / 2, "the axes are not under the data");
    data_canvas.remove();
}

#[wasm_bindgen_test]
fn chart_draws_both_series_onto_a_canvas() {
    let canvas = canvas(600, 300);
    let buckets =
        (0..30).map(|s| BucketCounts { start_secs: f64::from(s), width_secs: 1.0, admitted: 5, rejected: 3 }).collect();
    let data = ThroughputWindow { end_secs: 30.0, width_secs: 60.0, buckets, ..ThroughputWindow::default() };
    let style = ChartStyle { theme: ChartTheme::LIGHT, scale: 1.0 };
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).unwrap();
    draw_throughput(&backend.into_drawing_area(), &data, &style).unwrap();

    assert!(pixels_near(&canvas, ChartTheme::LIGHT.admitted) > 300, "admitted series missing");
    assert!(pixels_near(&canvas, ChartTheme::LIGHT.rejected) > 150, "rejected series missing");
    let total = (canvas.width() * canvas.height()) as usize;
    assert!(pixels_near(&canvas, ChartTheme::LIGHT.background) < total, "nothing drawn");
}

/// Pixels of the two canvases (same size) whose colours differ by more than a rounding.
fn pixels_differing(a: &HtmlCanvasElement, b: &HtmlCanvasElement) -> usize {
    let data = |c: &HtmlCanvasElement| {
        let ctx: web_sys::CanvasRenderingContext2d = c.get_context("2d").unwrap().unwrap().unchecked_into();
        ctx.get_image_data(0.0, 0.0, c.width().into(), c.height().into()).unwrap().data().0
    };
    let (a, b) = (data(a), data(b));
    a.chunks(4).zip(b.chunks(4)).filter(|(p, q)| p.iter().zip(q.iter()).any(|(x, y)| x.abs_diff(*y) > 8)).count()
}

#[wasm_bindgen_test]
fn the_batching_backend_paints_what_plotters_canvas_paints() {
    use plotters::prelude::*;
    use ratelimit_playground::chart::batched::BatchedCanvas;
    use ratelimit_playground::chart::sprites::sprite_count;
    let (w, h) = (600, 300);
    let (plain, batched) = (canvas(w, h), canvas(w, h));
    let buckets = (0..30u32)
        .map(|s| BucketCounts {
            start_secs: f64::from(s),
            width_secs: 1.0,
            admitted: 5 + u64::from(s % 4),
            rejected: 3,
        })
        .collect();
    let data = ThroughputWindow { end_secs: 30.0, width_secs: 60.0, buckets, ..ThroughputWindow::default() };
    let style = ChartStyle { theme: ChartTheme::LIGHT, scale: 1.0 };
    // A chart with axes and text, then marks of every shape on top, in alternating colours so
    // batches open and close.
    fn marks<DB: DrawingBackend>(root: &DrawingArea<DB, plotters::coord::Shift>) {
        for i in 0..40 {
            let (x, colour) = (10 + i * 14, if i % 3 == 0 { RED } else { BLUE });
            root.draw(&Circle::new((x, 250), 4, colour.stroke_width(2))).unwrap();
            root.draw(&Circle::new((x, 270), 3, colour.filled())).unwrap();
            root.draw(&Cross::new((x, 232), 4, colour.stroke_width(1))).unwrap();
            root.draw(&Rectangle::new([(x - 2, 200), (x + 2, 220)], colour.filled())).unwrap();
            root.draw(&Rectangle::new([(x - 4, 180), (x + 4, 195)], colour.stroke_width(1))).unwrap();
            root.draw(&PathElement::new(vec![(x, 150), (x + 7, 170), (x + 14, 150)], colour.stroke_width(1))).unwrap();
        }
    }
    let root = CanvasBackend::with_canvas_object(plain.clone()).unwrap().into_drawing_area();
    draw_throughput(&root, &data, &style).unwrap();
    marks(&root);
    let sprites_before = sprite_count();
    let root = BatchedCanvas::new(&batched).unwrap().into_drawing_area();
    draw_throughput(&root, &data, &style).unwrap();
    marks(&root);
    root.present().unwrap();

    // The rings, dots and crosses came from sprites: one per shape, size and colour.
    assert_eq!(sprite_count() - sprites_before, 6, "the marks were not all stamped from sprites");
    assert!(
        pixels_near(&batched, ChartTheme::LIGHT.admitted) > 300,
        "the batched chart is missing its admitted series"
    );
    let differing = pixels_differing(&plain, &batched);
    assert!(differing * 1000 <= (w * h) as usize, "{differing} of {} pixels differ from plotters-canvas's", w * h);
}

#[wasm_bindgen_test]
fn canvas_follows_css_size_and_theme_variables() {
    let canvas = canvas(10, 10);
    let style = canvas.style();
    style.set_property("width", "320px").unwrap();
    style.set_property("height", "160px").unwrap();
    style.set_property("--chart-bg", "#1b1f26").unwrap();
    style.set_property("--rejected", "#e69f00").unwrap();
    document().body().unwrap().append_child(&canvas).unwrap();

    let ratio = fit_to_display(&canvas);
    assert_eq!((canvas.width(), canvas.height()), ((320.0 * ratio) as u32, (160.0 * ratio) as u32));
    let theme = theme_from_css(&canvas);
    assert_eq!(theme.background, ChartTheme::DARK.background);
    assert_eq!(theme.rejected, ChartTheme::DARK.rejected);
    canvas.remove();
}
