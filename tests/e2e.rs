#![cfg(not(target_arch = "wasm32"))]
//! End to end: the release build in `dist/`, served under a sub-path, in headless Chromium. Checks
//! that the page loads with no console errors and no request outside the sub-path, the chart draws,
//! raising the arrival rate above the refill rate produces rejections, the layout fits a phone and
//! the chart follows dark mode; saves screenshots to `target/screenshots/`.
//!
//! Needs `trunk build --release --public-url ./` first (the Makefile does it) and
//! /usr/bin/chromium + /usr/bin/chromedriver (`scripts/bootstrap.sh --test`).

#[path = "e2e/browser.rs"]
mod browser;
#[path = "e2e/server.rs"]
mod server;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use browser::{Browser, BrowserLog, Cdp};
use fantoccini::Client;
use serde_json::{json, Value};
use server::StaticServer;

/// Installed before any page script runs: records console.error calls, uncaught errors and
/// unhandled promise rejections in `window.__e2eErrors`.
const ERROR_HOOK: &str = r#"
window.__e2eErrors = [];
const original = console.error.bind(console);
console.error = (...args) => { window.__e2eErrors.push(args.map(String).join(' ')); original(...args); };
addEventListener('error', e => window.__e2eErrors.push('uncaught: ' + (e.message || e.type)));
addEventListener('unhandledrejection', e => window.__e2eErrors.push('unhandled rejection: ' + String(e.reason)));
"#;

/// Pixel statistics of `#chart`: its size, how many pixels differ from the top-left (background)
/// pixel, and how many are close to the admitted and rejected colours from the page's CSS.
const CHART_PIXELS: &str = r#"
const c = document.querySelector('#chart');
const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
const css = getComputedStyle(c);
const rgb = name => { const h = css.getPropertyValue(name).trim().slice(1); return [0, 2, 4].map(i => parseInt(h.slice(i, i + 2), 16)); };
const near = (i, col, tol) => Math.abs(d[i] - col[0]) + Math.abs(d[i + 1] - col[1]) + Math.abs(d[i + 2] - col[2]) <= tol;
const bg = [d[0], d[1], d[2]], admitted = rgb('--admitted'), rejected = rgb('--rejected');
let drawn = 0, a = 0, r = 0;
for (let i = 0; i < d.length; i += 4) {
  if (!near(i, bg, 24)) drawn++;
  if (near(i, admitted, 40)) a++;
  if (near(i, rejected, 40)) r++;
}
return { width: c.width, height: c.height, cssWidth: c.clientWidth, drawn, admitted: a, rejected: r, bg };
"#;

fn dist_dir() -> PathBuf {
    let dir = std::env::var_os("E2E_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("dist"));
    assert!(
        dir.join("index.html").is_file(),
        "no built app at {} — run `trunk build --release --public-url ./` first (or set E2E_DIST)",
        dir.display()
    );
    dir
}

async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

async fn cdp(client: &Client, method: &'static str, params: Value) {
    client.issue_cmd(Cdp(method, params)).await.unwrap_or_else(|e| panic!("CDP {method} failed: {e}"));
}

/// Polls `condition` (a JS expression) until it is true, or fails with `what` after `timeout`.
async fn wait_until(client: &Client, condition: &str, timeout: Duration, what: &str) {
    let deadline = Instant::now() + timeout;
    loop {
        if js(client, &format!("return !!({condition});")).await == json!(true) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out after {timeout:?} waiting until {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Emulates a viewport of `width`×`height` CSS px at `scale` device pixels per CSS px.
async fn viewport(client: &Client, width: u32, height: u32, scale: f64, mobile: bool) {
    let metrics = json!({ "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile });
    cdp(client, "Emulation.setDeviceMetricsOverride", metrics).await;
    let fits = format!("innerWidth === {width}");
    wait_until(client, &fits, Duration::from_secs(5), "the viewport is resized").await;
}

/// Sets a form control's value and fires the event a user's change would.
async fn set_control(client: &Client, selector: &str, value: &str, event: &str) {
    let script = format!(
        "const el = document.querySelector('{selector}'); el.value = '{value}'; el.dispatchEvent(new Event('{event}', {{ bubbles: true }}));"
    );
    js(client, &script).await;
}

async fn screenshot(client: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    let png = client.screenshot().await.expect("take a screenshot");
    std::fs::write(dir.join(name), png).expect("write the screenshot");
}

/// `#requests`, `#admitted` and `#rejected`, read in one go so they belong to the same frame.
async fn counters(client: &Client) -> [u64; 3] {
    let texts =
        js(client, "return ['requests', 'admitted', 'rejected'].map(id => document.getElementById(id).textContent);")
            .await;
    let texts: Vec<String> = serde_json::from_value(texts).expect("three strings");
    let parse = |t: &String| t.parse().unwrap_or_else(|_| panic!("counters should be plain integers: {texts:?}"));
    [parse(&texts[0]), parse(&texts[1]), parse(&texts[2])]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playground_runs_in_headless_chromium_under_a_sub_path() {
    let server = StaticServer::start(dist_dir());
    let browser = Browser::start();
    let client = browser.connect().await;

    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    client.goto(&server.url).await.expect("open the app");
    let mounted = "document.querySelector('#requests') && document.querySelector('#chart')";
    wait_until(&client, mounted, Duration::from_secs(15), "the app has mounted").await;

    // The chart draws (axes and grid at least) as soon as it mounts.
    wait_until(&client, "document.querySelector('#chart').width > 0", Duration::from_secs(5), "the canvas is sized")
        .await;
    let pixels = js(&client, CHART_PIXELS).await;
    assert!(pixels["drawn"].as_u64().unwrap() > 1000, "the chart canvas is blank: {pixels}");

    // The defaults (4 req/s into a 5 tokens/s bucket) admit everything; the engine is running.
    wait_until(
        &client,
        "Number(document.querySelector('#requests').textContent) > 0",
        Duration::from_secs(5),
        "requests arrive",
    )
    .await;
    assert_eq!(counters(&client).await[2], 0, "the default scenario should reject nothing");
    let valuetext = js(&client, "return document.querySelector('#rate').getAttribute('aria-valuetext');").await;
    assert!(
        valuetext.as_str().unwrap_or_default().contains("requests per second"),
        "aria-valuetext lacks units: {valuetext}"
    );

    // Arrivals far above the refill rate get rejected within seconds.
    set_control(&client, "#rate", "1000", "input").await;
    let rejected = "Number(document.querySelector('#rejected').textContent) > 0";
    wait_until(&client, rejected, Duration::from_secs(5), "#rejected > 0 after raising the arrival rate").await;
    let [requests, admitted, rejected] = counters(&client).await;
    assert_eq!(admitted + rejected, requests, "every request is decided at once");

    // For the screenshots: 8 req/s into 5 tokens/s at 10× speed.
    set_control(&client, "#rate", "381", "input").await;
    set_control(&client, "#speed", "10", "change").await;
    wait_until(
        &client,
        "document.querySelector('#rate').getAttribute('aria-valuetext').startsWith('8 ')",
        Duration::from_secs(2),
        "the arrival rate reads 8/s",
    )
    .await;
    // ~45 simulated seconds: the opening burst (a full bucket) is still in the window.
    tokio::time::sleep(Duration::from_millis(4_500)).await;
    screenshot(&client, "desktop.png").await;
    let pixels = js(&client, CHART_PIXELS).await;
    assert!(pixels["admitted"].as_u64().unwrap() > 200, "no admitted series on the chart: {pixels}");
    assert!(pixels["rejected"].as_u64().unwrap() > 100, "no rejected series on the chart: {pixels}");

    // A phone: nothing overflows horizontally and the controls stack above the chart.
    viewport(&client, 375, 812, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let layout = js(&client, "const c = document.querySelector('.controls').getBoundingClientRect(), k = document.querySelector('#chart').getBoundingClientRect(); return { scroll: document.documentElement.scrollWidth, stacked: c.bottom <= k.top, chartRight: k.right };").await;
    assert!(layout["scroll"].as_f64().unwrap() <= 375.0, "the page scrolls sideways at 375 px: {layout}");
    assert_eq!(layout["stacked"], json!(true), "controls should stack above the chart: {layout}");
    // The whole stacked page in one picture: grow the viewport to the page's height.
    let height = js(&client, "return document.documentElement.scrollHeight;").await;
    viewport(&client, 375, height.as_u64().unwrap_or(812) as u32, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "mobile.png").await;

    // HiDPI: the canvas backing store follows devicePixelRatio.
    viewport(&client, 390, 844, 2.0, true).await;
    let crisp =
        "(() => { const c = document.querySelector('#chart'); return c.width === Math.round(c.clientWidth * 2); })()";
    wait_until(&client, crisp, Duration::from_secs(5), "the canvas is sized for devicePixelRatio 2").await;

    // Dark mode: the page and the chart both turn dark.
    viewport(&client, 1280, 800, 1.0, false).await;
    let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
    cdp(&client, "Emulation.setEmulatedMedia", dark).await;
    wait_until(
        &client,
        "matchMedia('(prefers-color-scheme: dark)').matches",
        Duration::from_secs(3),
        "dark mode is emulated",
    )
    .await;
    let page_is_dark = "(() => { const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number); return r + g + b < 120; })()";
    wait_until(&client, page_is_dark, Duration::from_secs(3), "the page background is dark").await;
    let chart_is_dark = "(() => { const c = document.querySelector('#chart'); const p = c.getContext('2d').getImageData(1, 1, 1, 1).data; return p[0] + p[1] + p[2] < 150; })()";
    wait_until(&client, chart_is_dark, Duration::from_secs(3), "the chart background follows dark mode").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "dark.png").await;

    // prefers-reduced-motion: the page starts paused and runs only after Play.
    let calm = json!({ "features": [{ "name": "prefers-reduced-motion", "value": "reduce" }] });
    cdp(&client, "Emulation.setEmulatedMedia", calm).await;
    client.refresh().await.expect("reload the app");
    wait_until(&client, mounted, Duration::from_secs(15), "the app has mounted again").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let play = js(&client, "return document.querySelector('#play').textContent;").await;
    assert_eq!(play, json!("Play"), "with reduced motion the app should start paused");
    assert_eq!(counters(&client).await, [0, 0, 0], "a paused simulation should not advance");
    js(&client, "document.querySelector('#play').click();").await;
    let running = "Number(document.querySelector('#requests').textContent) > 0";
    wait_until(&client, running, Duration::from_secs(5), "requests arrive after pressing Play").await;

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
