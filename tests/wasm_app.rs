#![cfg(target_arch = "wasm32")]
//! Browser tests of the web app (run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown`): the page mounts and counts live, its sliders restart the engine, it
//! cleans up after itself, and the chart code really puts pixels on a canvas.

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use ratelimit_playground::app::App;
use ratelimit_playground::chart::canvas::{fit_to_display, theme_from_css};
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::chart::throughput::{draw_throughput, BucketCounts, ChartStyle, ThroughputWindow};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Event, EventInit, HtmlCanvasElement, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh 960 px wide container attached to the body.
fn host() -> HtmlElement {
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "960px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    host
}

fn text_of(host: &HtmlElement, selector: &str) -> String {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).text_content().unwrap()
}

fn count(host: &HtmlElement, selector: &str) -> u64 {
    let text = text_of(host, selector);
    text.parse().unwrap_or_else(|_| panic!("{selector} is not a plain integer: {text:?}"))
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
            d(p[0], colour.0) + d(p[1], colour.1) + d(p[2], colour.2) <= 30
        })
        .count()
}

#[wasm_bindgen_test]
async fn app_counts_live_and_rejects_once_arrivals_outpace_refill() {
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(300).await;
    let chart: HtmlCanvasElement = host.query_selector("#chart").unwrap().unwrap().unchecked_into();
    let before_first_second = chart.to_data_url().unwrap();
    TimeoutFuture::new(1_200).await;

    // Defaults: 4 requests/s into a bucket refilled at 5 tokens/s, so all are admitted.
    let (requests, admitted) = (count(&host, "#requests"), count(&host, "#admitted"));
    assert!(requests > 0, "no requests after 1.5 s of running");
    assert_eq!((admitted, count(&host, "#rejected")), (requests, 0));
    assert_eq!(text_of(&host, "#pass-ratio"), "100.0 %");

    assert!(chart.width() > 0 && chart.height() > 0, "the chart canvas has no size");
    assert_eq!(chart.width(), chart.client_width() as u32, "backing store should match the CSS size at DPR 1");

    // The chart redraws once a simulated second has completed (regression: it drew only once).
    assert_ne!(chart.to_data_url().unwrap(), before_first_second, "the chart did not redraw");

    // Raising the arrival rate to the maximum restarts the engine and rejections follow.
    let rate: HtmlInputElement = host.query_selector("#rate").unwrap().unwrap().unchecked_into();
    rate.set_value(&rate.max());
    let init = EventInit::new();
    init.set_bubbles(true);
    rate.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap()).unwrap();
    TimeoutFuture::new(1_000).await;
    assert_eq!(rate.get_attribute("aria-valuetext").as_deref(), Some("10,000 requests per second"));
    assert!(count(&host, "#rejected") > 0, "nothing rejected at 10,000 requests/s");

    // Unmounting removes the page and stops the loop.
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the app left elements behind");
    host.remove();
}

#[wasm_bindgen_test]
fn chart_draws_both_series_onto_a_canvas() {
    let canvas = canvas(600, 300);
    let buckets =
        (0..30).map(|s| BucketCounts { start_secs: f64::from(s), width_secs: 1.0, admitted: 5, rejected: 3 }).collect();
    let data = ThroughputWindow { end_secs: 60.0, width_secs: 60.0, buckets };
    let style = ChartStyle { theme: ChartTheme::LIGHT, scale: 1.0 };
    let backend = CanvasBackend::with_canvas_object(canvas.clone()).unwrap();
    draw_throughput(&backend.into_drawing_area(), &data, &style).unwrap();

    assert!(pixels_near(&canvas, ChartTheme::LIGHT.admitted) > 300, "admitted series missing");
    assert!(pixels_near(&canvas, ChartTheme::LIGHT.rejected) > 150, "rejected series missing");
    let total = (canvas.width() * canvas.height()) as usize;
    assert!(pixels_near(&canvas, ChartTheme::LIGHT.background) < total, "nothing drawn");
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
