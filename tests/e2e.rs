#![cfg(not(target_arch = "wasm32"))]
//! End to end: the release build in `dist/`, served under a sub-path, in headless Chromium.
//!
//! - here: the page loads with no console errors and no request outside the sub-path, the charts
//!   draw, the layout fits a phone, the canvases follow devicePixelRatio and dark mode, reduced
//!   motion starts paused on a computed picture; frame cost is measured; screenshots are saved to
//!   `target/screenshots/` (desktop, mobile full page, dark, compare);
//! - `e2e/capabilities.rs`: each capability of the playground driven like a user would;
//! - `e2e/paint_worker.rs`: the request strip is painted by the paint worker as the page would
//!   paint it, and by the page when the worker fails;
//! - `e2e/server_panel.rs`: "What the limiter protects": its presets' stories, knobs and cards;
//! - `e2e/resilience.rs`: hostile traces are refused by name, a hidden tab or an embed out of view
//!   holds the clock and comes back without a burst or a long frame, a busy soak shows no NaN.
//!
//! Needs `trunk build --release --public-url ./` first (the Makefile does it) and
//! /usr/bin/chromium + /usr/bin/chromedriver (`scripts/bootstrap.sh --test`).

#[path = "e2e/browser.rs"]
mod browser;
#[path = "e2e/capabilities.rs"]
mod capabilities;
#[path = "e2e/first_paint.rs"]
mod first_paint;
#[path = "e2e/folds.rs"]
mod folds;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[path = "e2e/leaky_queue.rs"]
mod leaky_queue;
#[path = "e2e/page.rs"]
mod page;
#[path = "e2e/paint_worker.rs"]
mod paint_worker;
#[path = "e2e/resilience.rs"]
mod resilience;
#[path = "e2e/server.rs"]
mod server;
#[path = "e2e/server_panel.rs"]
mod server_panel;

use std::time::Duration;

use browser::BrowserLog;
use fantoccini::Client;
use page::{cdp, click, counters, js, screenshot, set_control, slide, text, viewport, wait_until, PIXELS_OF};
use serde_json::{json, Value};
use server::StaticServer;

pub(crate) use harness::{launch, one_browser_at_a_time, script_ms_per_frame, ERROR_HOOK};

/// Pixel statistics of a chart's data layer (`#chart` unless given): its size, how many pixels
/// are drawn at all, and how many are close to the admitted and rejected colours of the CSS.
const CHART_PIXELS: &str = r#"
const c = document.querySelector(arguments.length && arguments[0] || '#chart');
const d = pixelsOf(c);
const css = getComputedStyle(c);
const rgb = name => { const h = css.getPropertyValue(name).trim().slice(1); return [0, 2, 4].map(i => parseInt(h.slice(i, i + 2), 16)); };
const near = (i, col, tol) => d[i + 3] > 200 && Math.abs(d[i] - col[0]) + Math.abs(d[i + 1] - col[1]) + Math.abs(d[i + 2] - col[2]) <= tol;
const admitted = rgb('--admitted'), rejected = rgb('--rejected');
let drawn = 0, a = 0, r = 0;
for (let i = 0; i < d.length; i += 4) {
  if (d[i + 3] > 0) drawn++;
  if (near(i, admitted, 40)) a++;
  if (near(i, rejected, 40)) r++;
}
return { width: c.width, height: c.height, cssWidth: c.clientWidth, drawn, admitted: a, rejected: r };
"#;

/// Opens the app at 1280×800 with the error hook installed, and waits until it has mounted.
pub(crate) async fn open_app(client: &Client, server: &StaticServer) {
    cdp(client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(client, 1280, 800, 1.0, false).await;
    client.goto(&server.url).await.expect("open the app");
    let mounted = "document.querySelector('#requests') && document.querySelector('.controls .slider') && document.querySelector('#chart') && document.querySelector('#chart').width > 0";
    wait_until(client, mounted, Duration::from_secs(15), "the app has mounted").await;
}

#[test]
fn playground_loads_under_a_sub_path_and_looks_right_everywhere() {
    one_browser_at_a_time(loads_and_looks_right());
}

async fn loads_and_looks_right() {
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;

    // The page opens on 8 requests/s into a bucket refilled at 5 tokens/s, running.
    wait_until(
        &client,
        "Number(document.querySelector('#requests').textContent.replaceAll(',', '')) > 0",
        Duration::from_secs(5),
        "requests arrive",
    )
    .await;
    let [requests, admitted, rejected] = counters(&client).await;
    assert_eq!(admitted + rejected, requests, "every request is decided at once");
    let valuetext = js(&client, "return document.querySelector('#rate').getAttribute('aria-valuetext');").await;
    assert_eq!(valuetext, json!("8 requests per second"), "aria-valuetext carries the unit");
    for id in ["#chart", "#state-chart", "#convergence-chart", "#strip"] {
        let sized = format!("document.querySelector('{id}').width > 0");
        wait_until(&client, &sized, Duration::from_secs(5), &format!("{id} is sized")).await;
    }

    // Frame cost at 100× with 1 000 requests/s (100 000 simulated requests per real second).
    cdp(&client, "Performance.enable", json!({})).await;
    slide(&client, "rate", 800, "1,000 requests per second").await;
    set_control(&client, "#speed", "100", "change").await;
    let (single_ms, frames) = script_ms_per_frame(&client, 2_000).await;
    click(&client, "#algo-compare").await;
    let (compare_ms, compare_frames) = script_ms_per_frame(&client, 2_000).await;
    println!("frame cost at 100× and 1,000 req/s: {single_ms:.2} ms script/frame over {frames} frames (single), {compare_ms:.2} ms over {compare_frames} frames (compare, 5 engines)");
    assert!(single_ms < 25.0 && compare_ms < 25.0, "frames too expensive: {single_ms:.1} / {compare_ms:.1} ms");

    // The screenshots: 8 req/s into 5 tokens/s at 10×, about 40 simulated seconds in.
    click(&client, "#algo-token_bucket").await;
    slide(&client, "rate", 381, "8 requests per second").await;
    set_control(&client, "#speed", "10", "change").await;
    click(&client, "#reset").await;
    wait_until(
        &client,
        "Number(document.querySelector('#clock').dataset.ns) > 40e9",
        Duration::from_secs(8),
        "40 s have run",
    )
    .await;
    click(&client, "#play").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    screenshot(&client, "desktop.png").await;
    page::full_page_screenshot(&client, "desktop-full.png", 1280).await;
    let pixels = js(&client, &format!("{PIXELS_OF}{CHART_PIXELS}")).await;
    assert!(pixels["admitted"].as_u64().unwrap() > 200, "no admitted series on the chart: {pixels}");
    assert!(pixels["rejected"].as_u64().unwrap() > 100, "no rejected series on the chart: {pixels}");
    assert!(text(&client, "#first-rejection").await.contains("C ÷ (λ − r) predicts 3.33 s"));

    // A phone: nothing overflows horizontally; playback and charts come first, parameters after.
    viewport(&client, 375, 812, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let layout = js(&client, "const c = document.querySelector('.controls').getBoundingClientRect(), k = document.querySelector('#chart').getBoundingClientRect(); return { scroll: document.documentElement.scrollWidth, chartFirst: k.bottom <= c.top, chartRight: k.right };").await;
    assert!(layout["scroll"].as_f64().unwrap() <= 375.0, "the page scrolls sideways at 375 px: {layout}");
    assert_eq!(layout["chartFirst"], json!(true), "the chart should come before the parameters: {layout}");
    let height = js(&client, "return document.documentElement.scrollHeight;").await;
    viewport(&client, 375, height.as_u64().unwrap_or(812) as u32, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    screenshot(&client, "mobile.png").await;

    // HiDPI: every canvas backing store follows devicePixelRatio.
    viewport(&client, 390, 844, 2.0, true).await;
    let crisp = "['#chart', '#state-chart', '#strip'].every(id => { const c = document.querySelector(id); return c.width === Math.round(c.clientWidth * 2); })";
    wait_until(&client, crisp, Duration::from_secs(5), "the canvases are sized for devicePixelRatio 2").await;

    // Dark mode: the page and the charts both turn dark.
    viewport(&client, 1280, 800, 1.0, false).await;
    let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
    cdp(&client, "Emulation.setEmulatedMedia", dark).await;
    let page_is_dark = "(() => { const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); return r + g + b < 120; })()";
    wait_until(&client, page_is_dark, Duration::from_secs(3), "the page background is dark").await;
    let chart_is_dark = format!("(() => {{ {PIXELS_OF} const c = document.querySelector('.plot canvas'); const p = pixelsOf(c, 2, 2, 1, 1); return p[0] + p[1] + p[2] < 150; }})()");
    wait_until(&client, &chart_is_dark, Duration::from_secs(3), "the chart background follows dark mode").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "dark.png").await;
    click(&client, "#algo-compare").await;
    click(&client, "#jump-60").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "compare-dark.png").await;
    cdp(&client, "Emulation.setEmulatedMedia", json!({ "features": [] })).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "compare.png").await;

    // prefers-reduced-motion: starts paused, on a computed 30 s picture, and runs only after Play.
    let calm = json!({ "features": [{ "name": "prefers-reduced-motion", "value": "reduce" }] });
    cdp(&client, "Emulation.setEmulatedMedia", calm).await;
    // The plain address (a reload would restore compare mode: the address holds the view).
    client.goto(&server.url).await.expect("reload the app");
    wait_until(
        &client,
        "document.querySelector('.controls .slider')",
        Duration::from_secs(15),
        "the app has mounted again",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(text(&client, "#play").await, "Play", "with reduced motion the app should start paused");
    assert_eq!(page::clock_ns(&client).await, 30_000_000_000, "the preview is 30 simulated seconds");
    assert!(counters(&client).await[2] > 0, "the preview already shows the rejections");
    click(&client, "#play").await;
    wait_until(
        &client,
        "Number(document.querySelector('#clock').dataset.ns) > 30e9",
        Duration::from_secs(5),
        "time runs after Play",
    )
    .await;

    // Nothing went wrong along the way, and nothing was fetched from outside the sub-path.
    let errors = js(&client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "console errors on the page");
    let logs = client.issue_cmd(BrowserLog).await.expect("read the browser log");
    let severe: Vec<&Value> = logs.as_array().into_iter().flatten().filter(|e| e["level"] == "SEVERE").collect();
    assert!(severe.is_empty(), "severe browser log entries: {severe:?}");
    let origin = server.url.clone();
    let foreign = js(
        &client,
        &format!(
            "return performance.getEntriesByType('resource').map(e => e.name).filter(n => !n.startsWith('{origin}'));"
        ),
    )
    .await;
    assert_eq!(foreign, json!([]), "requests outside {origin}");
    let not_found: Vec<_> = server.log.lock().unwrap().iter().filter(|(s, _)| *s != 200).cloned().collect();
    assert!(not_found.is_empty(), "requests the server could not answer: {not_found:?}");

    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
