#![cfg(target_arch = "wasm32")]
//! Browser tests of the web app (run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown`): the page mounts and counts live, fast-forward and compare mode work,
//! the loop pauses out of view and resumes without a burst, charts keep their axis layer between
//! data redraws, and the page cleans up after itself; a link in the address restores the page and
//! edits are written back, the embed layout shows only its controls and posts its height and
//! status, and the production panel follows the policy.

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use ratelimit_playground::app::App;
use ratelimit_playground::chart::canvas::{fit_to_display, theme_from_css, Layers};
use ratelimit_playground::chart::plot::{draw_line, Axes, Dash, Ink, Ticks};
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::chart::throughput::{draw_throughput, BucketCounts, ChartStyle, ThroughputWindow};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{js_sys, HtmlCanvasElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh 1100 px wide container attached to the body.
fn host() -> HtmlElement {
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "1100px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    host
}

fn el(host: &HtmlElement, selector: &str) -> HtmlElement {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).unchecked_into()
}

fn text_of(host: &HtmlElement, selector: &str) -> String {
    el(host, selector).text_content().unwrap()
}

fn count(host: &HtmlElement, selector: &str) -> u64 {
    let text = text_of(host, selector);
    text.replace(',', "").parse().unwrap_or_else(|_| panic!("{selector} is not an integer like 12,345: {text:?}"))
}

/// Simulated time shown by the clock, in nanoseconds.
fn clock_ns(host: &HtmlElement) -> u64 {
    el(host, "#clock").get_attribute("data-ns").unwrap().parse().unwrap()
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
async fn app_counts_live_jumps_ahead_compares_and_cleans_up() {
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(600).await;

    // The page opens on 8 requests/s into a bucket refilled at 5 tokens/s, running.
    let requests = count(&host, "#requests");
    assert!(requests > 0, "no requests after 0.6 s of running");
    assert_eq!(count(&host, "#admitted") + count(&host, "#rejected"), requests);
    let chart: HtmlCanvasElement = el(&host, "#chart").unchecked_into();
    assert!(chart.width() > 0 && chart.width() == chart.client_width() as u32, "data layer not sized at DPR 1");

    // Fast-forward a minute: computed at once, and the bucket has long been rejecting.
    let before = clock_ns(&host);
    let drawn_before = chart.to_data_url().unwrap();
    el(&host, "#jump-60").click();
    TimeoutFuture::new(50).await;
    // Regression: the data layer drew once at mount and never again.
    assert_ne!(chart.to_data_url().unwrap(), drawn_before, "the chart did not redraw after the jump");
    assert!(clock_ns(&host) >= before + 60_000_000_000, "the jump did not add 60 s");
    assert!(count(&host, "#rejected") > 100, "a minute of 8/s into 5/s should reject");
    assert!(text_of(&host, "#first-rejection").contains("C ÷ (λ − r) predicts 3.33 s"));
    assert!(text_of(&host, "#headers").contains("RateLimit-Policy: \"default\";q=10;w=2"));

    // Compare mode: five columns on the same arrivals.
    el(&host, "#algo-compare").click();
    el(&host, "#jump-10").click();
    TimeoutFuture::new(100).await;
    let columns = host.query_selector_all(".compare-column").unwrap();
    assert_eq!(columns.length(), 5);
    let requests: Vec<String> = (0..5)
        .map(|i| columns.item(i).unwrap().unchecked_into::<HtmlElement>().get_attribute("data-requests").unwrap())
        .collect();
    assert!(requests.iter().all(|r| r == &requests[0] && r != "0"), "{requests:?}");
    assert!(host.query_selector("#disagreement").unwrap().is_some());

    // Unmounting removes the page and stops the loop.
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the app left elements behind");
    host.remove();
}

#[wasm_bindgen_test]
async fn the_loop_pauses_out_of_view_or_in_a_hidden_tab_and_resumes_without_a_burst() {
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(400).await;
    assert!(clock_ns(&host) > 0, "not running");

    // Scrolled far out of view: the IntersectionObserver holds the loop.
    host.style().set_property("margin-top", "20000px").unwrap();
    TimeoutFuture::new(300).await;
    let held = clock_ns(&host);
    TimeoutFuture::new(700).await;
    assert_eq!(clock_ns(&host), held, "simulated time moved while out of view");
    assert_eq!(text_of(&host, "#play-status"), "waiting while out of view");

    // Back in view: it resumes from where it was, without catching up the second it missed.
    host.style().set_property("margin-top", "0").unwrap();
    TimeoutFuture::new(400).await;
    let resumed = clock_ns(&host) - held;
    assert!(resumed > 0, "did not resume");
    assert!(resumed < 700_000_000, "resumed with a burst of {} ms", resumed / 1_000_000);

    // A hidden tab holds it too (headless Chromium is never hidden: pretend, and tell the page).
    let set_hidden = |hidden: bool| {
        let script = format!(
            "Object.defineProperty(document, 'hidden', {{ configurable: true, get: () => {hidden} }}); document.dispatchEvent(new Event('visibilitychange'));"
        );
        js_sys::Function::new_no_args(&script).call0(&wasm_bindgen::JsValue::NULL).unwrap();
    };
    set_hidden(true);
    TimeoutFuture::new(100).await;
    let hidden_at = clock_ns(&host);
    TimeoutFuture::new(600).await;
    assert_eq!(clock_ns(&host), hidden_at, "simulated time moved while the tab was hidden");
    set_hidden(false);
    TimeoutFuture::new(300).await;
    let after = clock_ns(&host) - hidden_at;
    assert!(after > 0 && after < 600_000_000, "resumed by {} ms after the tab came back", after / 1_000_000);
    js_sys::Function::new_no_args("delete document.hidden;").call0(&wasm_bindgen::JsValue::NULL).unwrap();

    drop(handle);
    host.remove();
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
    let root = BatchedCanvas::new(&batched).unwrap().into_drawing_area();
    draw_throughput(&root, &data, &style).unwrap();
    marks(&root);
    root.present().unwrap();

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

/// Replaces the page's address query (the app reads it when it mounts); returns the old one.
fn set_query(query: &str) -> String {
    let window = web_sys::window().unwrap();
    let old = window.location().search().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("?{query}")))
        .unwrap();
    old
}

/// Puts the address back as it was before a test changed it.
fn restore_query(old: &str) {
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{old}")))
        .unwrap();
}

fn ids(host: &HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into::<web_sys::Element>().id()).collect()
}

#[wasm_bindgen_test]
async fn a_link_restores_the_view_and_edits_are_written_back_to_the_address() {
    let old = set_query("algo=sliding_log&limit=7&window=2&rate=9&seed=5&view=compare");
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(300).await;
    assert_eq!(host.query_selector_all(".compare-column").unwrap().length(), 5, "view=compare was not restored");
    assert!(host.query_selector("#link-notice").unwrap().is_none(), "a clean link got a notice");
    let search = || web_sys::window().unwrap().location().search().unwrap();
    assert_eq!(search(), "?algo=sliding_log&limit=7&window=2&rate=9&seed=5&view=compare");

    // Back to one algorithm: the address follows once the edit settles.
    el(&host, "#algo-sliding_log").click();
    TimeoutFuture::new(400).await;
    assert_eq!(search(), "?algo=sliding_log&limit=7&window=2&rate=9&seed=5");
    assert_eq!(el(&host, "#limit").get_attribute("aria-valuetext").unwrap(), "7 requests");

    drop(handle);
    host.remove();
    restore_query(&old);
}

#[wasm_bindgen_test]
async fn the_embed_shows_only_its_controls_and_reports_height_and_status() {
    let record = "window.__wasmMessages = []; window.__wasmRecord = e => window.__wasmMessages.push(e.data); addEventListener('message', window.__wasmRecord);";
    js_sys::Function::new_no_args(record).call0(&wasm_bindgen::JsValue::NULL).unwrap();
    let old = set_query("embed=1&controls=seed,rate,knob&rate=6");
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(1500).await;
    assert!(host.query_selector(".site-header").unwrap().is_none(), "page chrome in the embed");
    assert!(host.query_selector(".embed").unwrap().is_some(), "no embed layout");
    assert_eq!(ids(&host, "input[type=range]"), ["rate"]);
    assert!(host.query_selector("#seed").unwrap().is_some(), "the seed control is missing");
    assert_eq!(host.query_selector_all("#link-notice li").unwrap().length(), 1, "one notice, for the unknown control");
    assert!(text_of(&host, "#link-notice").contains("controls: 'knob' is not a control"));
    assert!(count(&host, "#requests") > 0, "the embed does not run");

    let messages = js_sys::Function::new_no_args(
        "return window.__wasmMessages.map(m => m.type + ':' + (m.height || m.requests || 0));",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap();
    let messages: Vec<String> = js_sys::Array::from(&messages).iter().map(|m| m.as_string().unwrap()).collect();
    let height =
        messages.iter().find_map(|m| m.strip_prefix("ratelimit-playground:height:")).expect("a height message");
    assert!(height.parse::<f64>().unwrap() > 100.0, "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("ratelimit-playground:status:")), "{messages:?}");

    // The address is not rewritten in an embed (a sandboxed frame may not).
    assert_eq!(web_sys::window().unwrap().location().search().unwrap(), "?embed=1&controls=seed,rate,knob&rate=6");
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the embed left elements behind");
    host.remove();
    restore_query(&old);
    js_sys::Function::new_no_args("removeEventListener('message', window.__wasmRecord);")
        .call0(&wasm_bindgen::JsValue::NULL)
        .unwrap();
}

#[wasm_bindgen_test]
async fn the_production_panel_follows_the_policy() {
    let old = set_query("capacity=10&refill=5&rate=8");
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(200).await;
    assert_eq!(host.query_selector_all("#production [role=tab]").unwrap().length(), 6);
    let snippet = || text_of(&host, "#production-snippet");
    assert!(snippet().contains("rate=5r/s"), "{}", snippet());
    assert!(snippet().contains("burst=9 nodelay"), "{}", snippet());

    // A bigger bucket changes the burst at once.
    let capacity: web_sys::HtmlInputElement = el(&host, "#capacity").unchecked_into();
    capacity.set_value("20");
    capacity.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    TimeoutFuture::new(50).await;
    assert!(snippet().contains("burst=19 nodelay"), "{}", snippet());
    el(&host, "#production-tab-2").click();
    TimeoutFuture::new(50).await;
    assert_eq!(text_of(&host, "#production-language"), "rust");

    drop(handle);
    host.remove();
    restore_query(&old);
}

#[wasm_bindgen_test]
async fn multi_node_mode_draws_the_cluster_and_leaves_nothing_behind() {
    let window = web_sys::window().unwrap();
    let address = format!("{}{}", window.location().pathname().unwrap(), window.location().search().unwrap());
    let host = host();
    let handle = mount_to(host.clone(), App);
    TimeoutFuture::new(100).await;
    el(&host, "#play").click(); // pause: what follows is computed, not waited for
    el(&host, "#mode-cluster").click();
    TimeoutFuture::new(100).await;
    assert!(host.query_selector("#state-chart").unwrap().is_none(), "the single view is still shown");
    assert!(host.query_selector("#nodes").unwrap().is_some(), "no cluster controls");

    // Four nodes racing: a jump fills the counters, the per-node bars and both canvases.
    el(&host, "#jump-10").click();
    TimeoutFuture::new(100).await;
    assert!(count(&host, "#requests") > 0);
    assert_eq!(host.query_selector_all("#node-bars li").unwrap().length(), 4);
    for id in ["#topology", "#swimlane"] {
        let canvas: HtmlCanvasElement = el(&host, id).unchecked_into();
        assert!(canvas.width() > 0, "{id} is not sized");
        assert!(pixels_near(&canvas, ChartTheme::LIGHT.axis) > 20, "{id} drew nothing");
    }

    // The atomic script: its Lua is shown beside the node's code.
    let store: web_sys::HtmlSelectElement = el(&host, "#store").unchecked_into();
    store.set_value("atomic");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    store.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    TimeoutFuture::new(100).await;
    assert!(text_of(&host, "#lua-script").contains("redis.call"), "no Lua script in atomic mode");
    assert!(text_of(&host, "#node-code").contains("evalsha"));

    // Back to one server, then unmounted: nothing is left, and the address is put back.
    el(&host, "#mode-single").click();
    TimeoutFuture::new(50).await;
    assert!(host.query_selector("#topology").unwrap().is_none());
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the app left elements behind");
    host.remove();
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address)).unwrap();
}
