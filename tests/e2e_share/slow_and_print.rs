//! A widget on a slow link and on paper, in Chromium (its DevTools Protocol throttles the network
//! and emulates print media):
//!
//! - a frame opened paused at 50 KB/s with 150 ms of latency: while its files arrive its first
//!   paint says Play, is transparent around its bar (the still under it shows), and never says it
//!   "did not start"; then it runs;
//! - print: the page prints its charts without its controls; a frame that has been seen prints
//!   itself without its buttons and controls, its playground link written out; a frame never
//!   scrolled into view prints nothing, so the snippet's still under it prints instead. A PDF of
//!   the post goes to `target/screenshots/post-print.pdf`, and a picture of it as printed to
//!   `post-print.png`.

use std::time::Duration;

use fantoccini::Client;
use serde_json::json;

use super::page::{cdp, js, wait_until};
use super::server::StaticServer;
use super::{base64, save_png};

/// The widget: the fixed window's seam, paused at 10 s, with two controls.
const QUERY: &str = "algo=fixed_window&traffic=seam&t=10&autoplay=0&embed=1&controls=limit,window";

pub async fn a_slow_link_and_paper(client: &Client, server: &StaticServer) {
    // A slow link: the first paint says Play, lets the still show, and waits without crying wolf.
    cdp(client, "Network.enable", json!({})).await;
    let slow = json!({ "offline": false, "latency": 150, "downloadThroughput": 50_000, "uploadThroughput": 50_000 });
    cdp(client, "Network.emulateNetworkConditions", slow).await;
    client.goto("about:blank").await.expect("a blank page");
    js(client, &format!("location.href = '{}?{QUERY}#embedded'; return true;", server.url)).await;
    let painted = "document.querySelector('#frame-paint') && document.readyState !== 'loading'";
    wait_until(client, painted, Duration::from_secs(20), "the frame's first paint").await;
    let first = js(client, "return [document.querySelector('#frame-paint .primary').innerText, getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor];").await;
    assert_eq!(first, json!(["Play", "rgba(0, 0, 0, 0)", "rgba(0, 0, 0, 0)"]), "the first paint of a paused frame");
    tokio::time::sleep(Duration::from_secs(7)).await;
    let waiting = js(client, "const w = document.querySelector('#boot-failed'); return [!!document.querySelector('#frame-paint'), !w || getComputedStyle(w).visibility === 'hidden'];").await;
    assert_eq!(waiting[1], json!(true), "\"did not start\" showed while the files were arriving ({waiting})");
    assert_eq!(waiting[0], json!(true), "the frame's files arrived in 7 s at 50 KB/s: slow the link further");
    let running = "document.querySelector('.embed-cards') && !document.querySelector('#frame-paint')";
    wait_until(client, running, Duration::from_secs(90), "the frame starts once its files have arrived").await;
    let fast = json!({ "offline": false, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1 });
    cdp(client, "Network.emulateNetworkConditions", fast).await;

    // Paper: the page without its controls.
    client.goto(&format!("{}?algo=fixed_window&traffic=seam", server.url)).await.expect("open the page");
    wait_until(client, "document.querySelector('.controls .slider')", Duration::from_secs(15), "the page").await;
    cdp(client, "Emulation.setEmulatedMedia", json!({ "media": "print" })).await;
    let page = js(
        client,
        "return ['.controls', '.playback', '.picker'].map(s => getComputedStyle(document.querySelector(s)).display);",
    )
    .await;
    assert_eq!(page, json!(["none", "none", "none"]), "the page on paper");
    cdp(client, "Emulation.setEmulatedMedia", json!({ "media": "" })).await;

    // A post (same origin as its frames, so the emulated media reaches them) with a frame in view
    // and one far below it, each over its still.
    let still = super::cli(&[
        "--query",
        "algo=fixed_window&traffic=seam",
        "--format",
        "svg",
        "--show",
        "throughput",
        "--at",
        "10",
    ]);
    server.pages.lock().unwrap().push(("/post/print-still.svg".into(), still));
    let snippet = |id: &str| {
        format!("<div style=\"display: grid; max-width: 600px\"><a href=\"{0}\" style=\"grid-area: 1 / 1\"><img src=\"/post/print-still.svg\" alt=\"A still\" width=\"600\" style=\"max-width: 100%; height: auto\"></a><iframe id=\"{id}\" src=\"{0}?{1}#embedded\" title=\"The seam\" width=\"600\" height=\"560\" data-ratelimit-playground style=\"grid-area: 1 / 1; border: 0; width: 100%\"></iframe></div>", server.url, QUERY.replace('&', "&amp;"))
    };
    let post = format!("<!doctype html><html lang=en><head><meta charset=utf-8><title>On paper</title><link rel=icon href=\"data:,\"></head><body style=\"margin:0;padding:8px;font:16px system-ui\"><p>Seen:</p>{}<div style=\"height: 2400px\"></div><p>Never seen:</p>{}</body></html>", snippet("seen"), snippet("unseen"));
    server.pages.lock().unwrap().push(("/post/print.html".into(), post));
    client.goto(&server.at("/post/print.html")).await.expect("open the post");
    client.enter_frame(0).await.expect("the frame in view");
    wait_until(
        client,
        "document.querySelector('.embed[data-seen]')",
        Duration::from_secs(20),
        "the frame in view is seen",
    )
    .await;
    client.enter_parent_frame().await.expect("back to the post");
    cdp(client, "Emulation.setEmulatedMedia", json!({ "media": "print" })).await;
    client.enter_frame(0).await.expect("the frame in view");
    let seen = js(client, "return [getComputedStyle(document.querySelector('.embed-controls')).display, getComputedStyle(document.querySelector('#play')).display, getComputedStyle(document.querySelector('#embed-open'), '::after').content.includes(location.origin), getComputedStyle(document.body).backgroundColor];").await;
    assert_eq!(
        [&seen[0], &seen[1], &seen[2]],
        [&json!("none"), &json!("none"), &json!(true)],
        "a seen frame on paper: {seen}"
    );
    assert_ne!(seen[3], json!("rgba(0, 0, 0, 0)"), "a seen frame prints its own background");
    client.enter_parent_frame().await.expect("back to the post");
    client.enter_frame(1).await.expect("the frame never seen");
    let mounted = "document.querySelector('.embed') && !document.querySelector('#frame-paint')";
    wait_until(client, mounted, Duration::from_secs(20), "the frame below the fold has mounted").await;
    let unseen = js(client, "return [getComputedStyle(document.querySelector('.embed')).visibility, getComputedStyle(document.body).backgroundColor];").await;
    assert_eq!(unseen, json!(["hidden", "rgba(0, 0, 0, 0)"]), "a frame never seen prints nothing over its still");
    client.enter_parent_frame().await.expect("back to the post");
    let pdf = cdp(client, "Page.printToPDF", json!({ "printBackground": false })).await;
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    std::fs::write(dir.join("post-print.pdf"), base64(pdf["data"].as_str().expect("PDF data"))).expect("write the PDF");
    let shot = cdp(client, "Page.captureScreenshot", json!({ "format": "png", "captureBeyondViewport": true })).await;
    save_png("post-print.png", &base64(shot["data"].as_str().expect("PNG data")));
    cdp(client, "Emulation.setEmulatedMedia", json!({ "media": "" })).await;
}
