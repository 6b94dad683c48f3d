//! The paint worker (src/chart/paint_worker.rs), in headless Chromium: the request strip, redrawn
//! on every frame, is handed to it and shows exactly what the page would have painted itself,
//! in a sandboxed frame too; where the worker fails, the page paints the strip. (The cluster's topology and swimlane go to
//! the same worker: e2e_cluster reads their pixels through the same copy.)

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use super::page::{cdp, js, wait_until, PIXELS_OF};
use super::{launch, one_browser_at_a_time, CHART_PIXELS};

/// A frame showing only the request strip, paused at a fixed moment: the same picture every time.
const STRIP_AT: &str = "?rate=8&embed=1&show=strip&t=12.5&autoplay=0";

/// Who paints the strip: a canvas handed to a worker has no context the page can ask for.
const PAINTER: &str = "const c = document.querySelector('#strip'); try { c.getContext('2d'); return 'page'; } catch (e) { return 'worker'; }";

/// A page of another site embedding the strip in a 600 px frame, with the Embed panel's sandbox
/// (an opaque origin) or without.
const HOST: &str = r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><title>A post</title><link rel="icon" href="data:,"></head>
<body><iframe src="SRC" title="Rate limiter playground" width="600" height="300" SANDBOX></iframe></body></html>"#;

/// Makes every worker started from a script `Blob` throw as it starts, as a worker would that a
/// browser or an extension broke.
const BREAK_WORKERS: &str = "(() => { const B = Blob; window.Blob = function (parts, options) { return new B(options && options.type === 'text/javascript' ? ['throw new Error(\\'a paint worker broken on purpose\\')'] : parts, options); }; window.Blob.prototype = B.prototype; })();";

/// Who painted the paused strip in the current document, its pixels as a data URL, and its
/// colour statistics, once it shows its marks.
async fn paused_strip(client: &Client) -> (Value, Value, Value) {
    let painted = format!(
        "(() => {{ {PIXELS_OF} const c = document.querySelector('#strip'); if (!c || c.width < 100) return false; const d = pixelsOf(c); let n = 0; for (let i = 3; i < d.length; i += 4) n += d[i] > 0; return n > 1000; }})()"
    );
    wait_until(client, &painted, Duration::from_secs(15), "the strip is painted").await;
    // A frame paused at one moment paints once; give a late second paint the time to land.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stats = js(client, &format!("{PIXELS_OF} return (function () {{ {CHART_PIXELS} }})('#strip');")).await;
    let data_url = js(client, &format!("{PIXELS_OF} const c = document.querySelector('#strip'); const s = document.createElement('canvas'); s.width = c.width; s.height = c.height; s.getContext('2d').drawImage(c, 0, 0); return s.toDataURL();")).await;
    (js(client, PAINTER).await, data_url, stats)
}

#[test]
fn the_strip_is_painted_by_the_worker_as_the_page_would_even_sandboxed_and_by_the_page_when_the_worker_fails() {
    one_browser_at_a_time(worker_or_page());
}

/// Opens `host` (a page of [`HOST`]) and the strip in its frame: see [`paused_strip`].
async fn strip_in(client: &Client, host: &str) -> (Value, Value, Value) {
    client.goto(host).await.expect("open the host page");
    client.enter_frame(0).await.expect("enter the frame");
    let strip = paused_strip(client).await;
    client.enter_parent_frame().await.expect("leave the frame");
    strip
}

async fn worker_or_page() {
    let (server, browser, client) = launch().await;
    let frame = format!("{}{STRIP_AT}", server.url);
    for (path, sandbox) in [("/host/strip.html", ""), ("/host/strip-sandboxed.html", "sandbox=\"allow-scripts\"")] {
        server.pages.lock().unwrap().push((path.into(), HOST.replace("SRC", &frame).replace("SANDBOX", sandbox)));
    }
    let (painter, by_worker, stats) = strip_in(&client, &server.at("/host/strip.html")).await;
    assert_eq!(painter, json!("worker"), "the strip should be handed to the paint worker");
    assert!(stats["admitted"].as_u64().unwrap_or(0) > 100, "no admitted marks: {stats}");
    assert!(stats["rejected"].as_u64().unwrap_or(0) > 20, "no rejected marks: {stats}");
    assert_eq!(stats["width"], stats["cssWidth"], "the worker sized the strip to its box: {stats}");

    // Sandboxed (an opaque origin may start a worker only from a blob: URL).
    let (painter, in_sandbox, sandbox_stats) = strip_in(&client, &server.at("/host/strip-sandboxed.html")).await;
    assert_eq!(painter, json!("worker"), "a sandboxed frame's strip should be handed to the paint worker too");
    assert_eq!(sandbox_stats, stats, "the sandboxed frame paints another strip");
    assert!(in_sandbox == by_worker, "the same statistics but not the same pixels, sandboxed");

    // A worker that fails as it starts: the strip stays the page's, and shows the same picture.
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": BREAK_WORKERS })).await;
    let (painter, by_page, page_stats) = strip_in(&client, &server.at("/host/strip.html")).await;
    assert_eq!(painter, json!("page"), "with its worker broken, the page paints the strip");
    assert_eq!(page_stats, stats, "the page and the worker paint different strips");
    assert!(by_page == by_worker, "the same statistics but not the same pixels");
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
