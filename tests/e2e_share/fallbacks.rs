//! What a post's reader sees when a widget cannot run as built, in any engine (e2e_share runs it
//! in Chromium, e2e_engines in Firefox and WebKit): a post on another origin with three snippets
//! from a plain static host (one that ignores `_headers`: no CORS headers, no CSP), each over
//! its still:
//!
//! - sandboxed to scripts only (an opaque origin: its own files are another site's to it): the
//!   frame says, in styled words, that it needs allow-same-origin, and the snippet's script moves
//!   it under the still at once, long before its 8 s watchdog would;
//! - sandboxed without scripts (as with JavaScript off): the frame shows nothing, on a
//!   transparent page, so its still shows;
//! - a healthy frame below the fold: it says it is loading, so the watchdog never moves it, and
//!   once scrolled into view it reports its height and stays over its still;
//!
//! and a snippet whose script a host stripped, at 375 px: the snippet's own height rule leaves
//! the widget's whole content showing, and a one-card widget fits one phone screen.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use ratelimit_playground::present::share::snippet::{height_rule, PHONE_FRAME, SIZER};

use super::cli;
use super::harness::dist_dir;
use super::page::{js, wait_until};
use super::server::StaticServer;

/// The widgets' scenario: the fixed window's seam; they open paused at 10 s.
const SCENARIO: &str = "algo=fixed_window&traffic=seam";
const QUERY: &str = "algo=fixed_window&traffic=seam&t=10&autoplay=0";

/// One snippet over its still: `sandbox` for the frame, `extra` attributes.
fn snippet(host: &str, id: &str, sandbox: &str, extra: &str) -> String {
    let src = format!("{host}?{}&amp;embed=1#embedded", QUERY.replace('&', "&amp;"));
    format!(
        "<div style=\"display: grid; max-width: 600px\">\n  <a href=\"{host}\" style=\"grid-area: 1 / 1\"><img src=\"/post/still.svg\" alt=\"A still\" width=\"600\" style=\"max-width: 100%; height: auto\"></a>\n  <iframe id=\"{id}\" src=\"{src}\" title=\"The seam\" width=\"600\" height=\"420\" sandbox=\"{sandbox}\" {extra} data-ratelimit-playground style=\"grid-area: 1 / 1; border: 0; width: 100%\"></iframe>\n</div>"
    )
}

/// The post: what it hears from each frame (`window.__heard`: `[frame, type, ms since load]`),
/// then the three snippets and the snippet's script.
fn post(host: &str) -> String {
    let full = ratelimit_playground::present::share::snippet::SANDBOX;
    format!(
        r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widgets that cannot run as built</title><link rel="icon" href="data:,">
<script>
window.__heard = [];
addEventListener('message', e => {{
  const type = e.data && String(e.data.type);
  if (!type || !type.startsWith('ratelimit-playground:')) return;
  const i = [...document.querySelectorAll('iframe')].findIndex(f => f.contentWindow === e.source);
  window.__heard.push([i, type.slice(21), Math.round(performance.now())]);
}});
</script></head>
<body style="margin: 0; padding: 8px; font: 16px system-ui">
<p>A strict sandbox:</p>
{}
<p>No scripts in the frame:</p>
{}
<div style="height: 1400px"></div>
<p>Far down, healthy:</p>
{}
{SIZER}
</body></html>"#,
        snippet(host, "strict", "allow-scripts", ""),
        snippet(host, "noscript", "allow-same-origin", ""),
        snippet(host, "later", full, ""),
    )
}

/// Whether the post heard `kind` from frame `i`.
fn heard(i: usize, kind: &str) -> String {
    format!("window.__heard.some(([f, t]) => f === {i} && t === '{kind}')")
}

/// The post of three snippets, checked in `client`'s browser; `server` serves the post.
pub async fn widgets_that_cannot_run_as_built(client: &Client, server: &StaticServer) {
    let plain = StaticServer::start_plain(dist_dir());
    let still = cli(&["--query", SCENARIO, "--format", "svg", "--show", "throughput", "--at", "10"]);
    server.pages.lock().unwrap().push(("/post/still.svg".into(), still));
    server.pages.lock().unwrap().push(("/post/fallbacks.html".into(), post(&plain.url)));
    client.set_window_size(1280, 800).await.expect("size the window");
    client.goto(&server.at("/post/fallbacks.html")).await.expect("open the post");

    // The strict sandbox: "failed" at once, under its still, in words naming the sandbox.
    wait_until(client, &heard(0, "failed"), Duration::from_secs(10), "the sandboxed frame says it failed").await;
    let when = js(client, "return window.__heard.find(([f, t]) => f === 0 && t === 'failed')[2];").await;
    assert!(when.as_u64().is_some_and(|ms| ms < 6000), "it said so {when} ms after the post loaded");
    let strict = js(client, "const f = document.querySelector('#strict'); return [f.style.gridRowStart, f.getBoundingClientRect().top > document.querySelector('img').getBoundingClientRect().bottom - 1];").await;
    assert_eq!(strict, json!(["2", true]), "the sandboxed frame moved under its still");
    client.enter_frame(0).await.expect("enter the sandboxed frame");
    let inside =
        js(client, "return [document.body.children.length, document.querySelector('#frame-blocked').textContent];")
            .await;
    let words = inside[1].as_str().unwrap_or_default();
    assert!(inside[0] == json!(1) && words.starts_with("This live widget needs allow-same-origin"), "{inside}");
    client.enter_parent_frame().await.expect("back to the post");

    // No scripts: nothing drawn over the still, on a transparent page.
    client.enter_frame(1).await.expect("enter the frame without scripts");
    let empty = js(client, "return [getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor, [...document.body.children].every(c => getComputedStyle(c).display === 'none')];").await;
    let clear = |v: &Value| ["rgba(0, 0, 0, 0)", "transparent"].contains(&v.as_str().unwrap_or_default());
    assert!(clear(&empty[0]) && clear(&empty[1]) && empty[2] == json!(true), "the frame without scripts: {empty}");
    client.enter_parent_frame().await.expect("back to the post");

    // The healthy frame far down: loading, never moved by the watchdog (8 s after its load).
    wait_until(client, &heard(2, "loading"), Duration::from_secs(10), "the far frame says it is loading").await;
    tokio::time::sleep(Duration::from_secs(9)).await;
    let later = js(client, "return document.querySelector('#later').style.gridRowStart;").await;
    assert_eq!(later, json!("1"), "the watchdog moved a healthy frame that is not in view yet");
    js(client, "document.querySelector('#later').scrollIntoView(); return true;").await;
    wait_until(client, &heard(2, "height"), Duration::from_secs(15), "the far frame reports its height in view").await;
    assert_eq!(js(client, "return document.querySelector('#later').style.gridRowStart;").await, json!("1"));
}

/// A snippet without its script, at 375 px: the frame's own height rule shows all of the widget.
/// Its two heights are the widget's at 600 px and at [`PHONE_FRAME`], as the builder measures them.
pub async fn a_stripped_snippet_fits_a_phone(client: &Client, server: &StaticServer) {
    let query = "algo=fixed_window&amp;traffic=seam&amp;embed=1&amp;controls=limit,window&amp;show=throughput&amp;t=10&amp;autoplay=0&amp;caption=The%20seam%2C%20at%2010%20s";
    let src = format!("{}?{query}#embedded", server.url);
    // The builder's two previews measure these; measured here the same way.
    let mut heights = [0u32; 2];
    for (i, width) in [600u32, PHONE_FRAME].into_iter().enumerate() {
        let page = format!("<!doctype html><meta charset=utf-8><link rel=icon href=\"data:,\"><body style=margin:0><iframe src=\"{src}\" style=\"border:0;width:{width}px;height:300px\"></iframe><script>window.__h=0;addEventListener('message',e=>{{if(e.data&&e.data.type==='ratelimit-playground:height')window.__h=e.data.height}})</script>");
        server.pages.lock().unwrap().push((format!("/post/measure-{width}.html"), page));
        client.goto(&server.at(&format!("/post/measure-{width}.html"))).await.expect("open the measure");
        wait_until(client, "window.__h > 100", Duration::from_secs(20), "a height").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        heights[i] = js(client, "return Math.ceil(window.__h);").await.as_u64().expect("px") as u32;
    }
    let [wide, narrow] = heights;
    assert!(narrow <= 700, "a one-card widget on a 375 px phone is {narrow} px tall: more than its screen");
    let rule = height_rule(wide, narrow);
    let post = format!(
        // (A phone's scroll bar takes no width: none here either.)
        "<!doctype html><html lang=en style=\"scrollbar-width: none\"><head><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\"><title>Stripped</title><link rel=icon href=\"data:,\"></head><body style=\"margin:0;padding:8px 16px\"><p>A host that strips scripts:</p><iframe src=\"{src}\" title=\"The seam\" width=\"600\" height=\"{wide}\" data-ratelimit-playground style=\"border: 0; max-width: 100%{rule}\"></iframe></body></html>"
    );
    server.pages.lock().unwrap().push(("/post/stripped.html".into(), post));
    for (width, height) in [(1280, 800), (375, 812)] {
        client.set_window_size(width, height).await.expect("size the window");
        client.goto(&server.at("/post/stripped.html")).await.expect("open the stripped post");
        let post_width = js(client, "return innerWidth;").await;
        client.enter_frame(0).await.expect("enter the frame");
        let mounted = "document.querySelector('.embed-cards') && !document.querySelector('#frame-paint')";
        wait_until(client, mounted, Duration::from_secs(20), "the stripped snippet's frame").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let size = js(client, "return [innerWidth, innerHeight, document.documentElement.scrollHeight];").await;
        let [frame_width, frame_height, content] = [0, 1, 2].map(|i| size[i].as_u64().unwrap_or(0));
        assert!(
            content <= frame_height + 1,
            "a post {post_width} px wide, script stripped: the frame ({frame_width} px wide) is {frame_height} px tall for {content} px of widget ({wide} at 600 px, {narrow} at {PHONE_FRAME})"
        );
        client.enter_parent_frame().await.expect("back to the post");
    }
    client.set_window_size(1280, 800).await.expect("size the window");
}
