//! Small helpers for driving the app's page through WebDriver: scripts, waits, viewport
//! emulation, form controls, screenshots and reading the counters.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::Client;
use serde_json::{json, Value};

use super::browser::Cdp;

/// A script's first line that defines `pixelsOf(canvas, x?, y?, w?, h?)`: the RGBA bytes a canvas
/// shows, read through a copy, because a canvas painted by the paint worker (handed over with
/// `transferControlToOffscreen`) has no context of its own to read from.
pub const PIXELS_OF: &str = "const pixelsOf = (k, x = 0, y = 0, w = k.width, h = k.height) => { const s = document.createElement('canvas'); s.width = k.width; s.height = k.height; const c = s.getContext('2d'); c.drawImage(k, 0, 0); return c.getImageData(x, y, w, h).data; };";

/// Runs `script` (a function body) in the page and returns its result.
pub async fn js(client: &Client, script: &str) -> Value {
    client.execute(script, vec![]).await.unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
}

/// A Chrome DevTools Protocol call.
pub async fn cdp(client: &Client, method: &'static str, params: Value) -> Value {
    client.issue_cmd(Cdp(method, params)).await.unwrap_or_else(|e| panic!("CDP {method} failed: {e}"))
}

/// Polls `condition` (a JS expression) until it is true, or fails with `what` after `timeout`.
pub async fn wait_until(client: &Client, condition: &str, timeout: Duration, what: &str) {
    let deadline = Instant::now() + timeout;
    loop {
        if js(client, &format!("return !!({condition});")).await == json!(true) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out after {timeout:?} waiting until {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Emulates a viewport of `width`×`height` CSS px at `scale` device pixels per CSS px.
pub async fn viewport(client: &Client, width: u32, height: u32, scale: f64, mobile: bool) {
    let metrics = json!({ "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile });
    cdp(client, "Emulation.setDeviceMetricsOverride", metrics).await;
    let fits = format!("innerWidth === {width}");
    wait_until(client, &fits, Duration::from_secs(5), "the viewport is resized").await;
}

/// Sets a form control's value and fires the event a user's change would.
pub async fn set_control(client: &Client, selector: &str, value: &str, event: &str) {
    let script = format!(
        "const el = document.querySelector('{selector}'); el.value = {value:?}; el.dispatchEvent(new Event('{event}', {{ bubbles: true }}));"
    );
    js(client, &script).await;
}

/// Clicks the element matching `selector` (through the DOM, so it need not be scrolled into view).
pub async fn click(client: &Client, selector: &str) {
    js(client, &format!("document.querySelector('{selector}').click();")).await;
}

/// Opens the panel `#id` by its title's button, as a reader does, unless it is open already,
/// and waits until its body is there (panels start folded: `src/app/fold.rs`).
pub async fn unfold(client: &Client, id: &str) {
    let script = format!(
        "const b = document.querySelector('#{id} > h2 > .fold-toggle'); if (b && b.getAttribute('aria-expanded') === 'false') b.click(); return null;"
    );
    js(client, &script).await;
    wait_until(
        client,
        &format!("document.querySelector('#{id}-body')"),
        Duration::from_secs(5),
        &format!("#{id} is open"),
    )
    .await;
}

/// The text of the element matching `selector`.
pub async fn text(client: &Client, selector: &str) -> String {
    let value =
        js(client, &format!("const e = document.querySelector('{selector}'); return e ? e.textContent : null;")).await;
    value.as_str().unwrap_or_else(|| panic!("no element {selector}")).to_string()
}

/// Simulated time on the clock, in nanoseconds.
pub async fn clock_ns(client: &Client) -> u64 {
    let ns = js(client, "return document.querySelector('#clock').dataset.ns;").await;
    ns.as_str().and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("clock has no data-ns: {ns}"))
}

/// Sets a 375 px phone's viewport and checks the page does not scroll sideways.
pub async fn phone(client: &Client) {
    viewport(client, 375, 812, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let scroll = js(client, "return document.documentElement.scrollWidth;").await;
    assert!(scroll.as_f64().unwrap() <= 375.0, "the page scrolls sideways at 375 px: {scroll}");
}

/// Back to 1280 × 800, in dark mode (`prefers-color-scheme: dark`).
pub async fn desktop_dark(client: &Client) {
    viewport(client, 1280, 800, 1.0, false).await;
    let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
    cdp(client, "Emulation.setEmulatedMedia", dark).await;
}

/// Saves a PNG of the viewport as `target/screenshots/NAME`.
pub async fn screenshot(client: &Client, name: &str) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    let png = client.screenshot().await.expect("take a screenshot");
    std::fs::write(dir.join(name), png).expect("write the screenshot");
}

/// `#requests`, `#admitted` and `#rejected`, read in one go so they belong to the same frame
/// (shown with thousands separators: "12,345").
pub async fn counters(client: &Client) -> [u64; 3] {
    let texts =
        js(client, "return ['requests', 'admitted', 'rejected'].map(id => document.getElementById(id).textContent);")
            .await;
    let texts: Vec<String> = serde_json::from_value(texts).expect("three strings");
    let parse = |t: &String| {
        t.replace(',', "").parse().unwrap_or_else(|_| panic!("counters should be integers like 12,345: {texts:?}"))
    };
    [parse(&texts[0]), parse(&texts[1]), parse(&texts[2])]
}

/// Sets the range input `id` to the position whose readout is `expected` (e.g. "20 requests per
/// second"), checking the value through its `aria-valuetext`.
pub async fn slide(client: &Client, id: &str, position: u32, expected: &str) {
    set_control(client, &format!("#{id}"), &position.to_string(), "input").await;
    let spoken = js(client, &format!("return document.querySelector('#{id}').getAttribute('aria-valuetext');")).await;
    assert_eq!(spoken, json!(expected), "#{id} at position {position}");
}

/// Saves a PNG of the whole page at `width` CSS px (the viewport grows to the page's height for
/// the picture, then returns to `width`×800).
pub async fn full_page_screenshot(client: &Client, name: &str, width: u32) {
    let height = js(client, "return document.documentElement.scrollHeight;").await;
    viewport(client, width, height.as_u64().unwrap_or(800) as u32, 1.0, width < 600).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(client, name).await;
    viewport(client, width, 800, 1.0, width < 600).await;
}
