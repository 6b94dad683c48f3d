#![cfg(not(target_arch = "wasm32"))]
//! End to end: sharing, embedding and exporting, in headless Chromium against the release build
//! in `dist/`, served under a sub-path with the headers of `dist/_headers` (the strict CSP and
//! CORS) on every response.
//!
//! - `e2e_share/links.rs`: a link restores the exact run (seed included), Share copies the
//!   current link (and falls back to selecting it), bad parameters get a notice naming each,
//!   exact values survive slider nudges and the number fields;
//! - `e2e_share/exports.rs`: the CSP is the shipped one and nothing violates it, the PNG, CSV
//!   and JSON exports, the production panel;
//! - `e2e_share/products.rs`: Run this config, the side-by-side (the CLI's numbers), the product
//!   picker and each product's knobs;
//! - `e2e_share/embeds.rs`: the Embed button's snippet, the embed layout, and a host page with two
//!   sandboxed frames that run independently, report their height and pause out of view;
//! - `e2e_share/hosts.rs`: a plain host without CORS serves the builder's previews and the
//!   frames; a frame whose code is missing says why, and the snippet shows its still instead;
//! - `e2e_share/fallbacks.rs`: a strict sandbox on a host without CORS, a frame without scripts,
//!   a healthy frame out of view, a snippet without its script at 375 px (also in Firefox and
//!   WebKit, e2e_engines); `e2e_share/slow_and_print.rs`: a frame on a slow link, and on paper;
//! - `e2e_share/host_api.rs`: a post on another origin directs its widget through `embed.js`:
//!   commands, events, a refused `set`, a scroll step;
//! - `e2e_share/embed_cards.rs`: an embed of every card draws; `t=` lands on the CLI's counts at
//!   that moment, `autoplay=0` stays paused, the caption is text, the theme is applied; the
//!   builder's previews load exactly its snippet, whose still the CLI draws;
//! - `e2e_share/logs.rs`: "Your traffic": a sample and an upload give the CLI's report and
//!   recommendation, Apply, progress and Cancel on a large log, bad files, no request.
//!
//! Screenshots go to `target/screenshots/` (share-notice.png, production.png, embed.png, production-run.png, product-*.png).
//! Needs `trunk build --release --public-url ./` first (or `E2E_DIST=folder`) and
//! /usr/bin/chromium + /usr/bin/chromedriver.

#[path = "e2e/browser.rs"]
mod browser;
#[path = "e2e_share/embed_cards.rs"]
mod embed_cards;
#[path = "e2e_share/embeds.rs"]
mod embeds;
#[path = "e2e_share/exports.rs"]
mod exports;
#[path = "e2e_share/fallbacks.rs"]
mod fallbacks;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[path = "e2e_share/host_api.rs"]
mod host_api;
#[path = "e2e_share/hosts.rs"]
mod hosts;
#[path = "e2e_share/links.rs"]
mod links;
#[path = "e2e_share/log_errors.rs"]
mod log_errors;
#[path = "e2e_share/logs.rs"]
mod logs;
#[allow(dead_code)] // shared with e2e.rs, which uses every helper
#[path = "e2e/page.rs"]
mod page;
#[path = "e2e_share/products.rs"]
mod products;
#[path = "e2e/server.rs"]
mod server;
#[path = "e2e_share/slow_and_print.rs"]
mod slow_and_print;
#[path = "e2e/stills.rs"]
mod stills;

use std::path::PathBuf;
use std::time::Duration;

use browser::{Browser, BrowserLog};
use fantoccini::Client;
use page::{cdp, click, js, viewport, wait_until};
use serde_json::{json, Value};
use server::StaticServer;

pub(crate) use harness::{cli, launch, one_browser_at_a_time, ERROR_HOOK as HOOK};

/// A server for `dist/`, a browser and a session with the hook installed, at 1280×800.
pub(crate) async fn start() -> (StaticServer, Browser, Client) {
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": HOOK })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    (server, browser, client)
}

/// Opens `url` and waits until the app (full page, in any view, or embed) has mounted and sized
/// its charts.
pub(crate) async fn open(client: &Client, url: &str) {
    client.goto(url).await.unwrap_or_else(|e| panic!("open {url}: {e}"));
    let mounted =
        "document.querySelector('#requests') && (document.querySelector('.controls .slider') || !document.querySelector('.controls')) && [...document.querySelectorAll('canvas')].some(c => c.width > 0)";
    wait_until(client, mounted, Duration::from_secs(15), &format!("the app at {url} has mounted")).await;
}

/// Presses the button of a panel the page's first module stands in for (`#production-load`,
/// `#logs-load`) and waits until the whole page has taken over and shows `ready`, with the
/// keyboard focus on `focus`, the panel's first control.
pub(crate) async fn load_panel(client: &Client, button: &str, ready: &str, focus: &str) {
    let first =
        js(client, "return performance.getEntriesByType('resource').some(e => e.name.includes('ratelimit-full'));");
    assert_eq!(first.await, json!(false), "the page opens without the whole page's module");
    // The stand-in starts folded, as every panel below the charts does.
    page::unfold(client, button.trim_start_matches('#').trim_end_matches("-load")).await;
    click(client, button).await;
    let shown = format!("document.querySelector('{ready}') && !document.querySelector('{button}')");
    wait_until(client, &shown, Duration::from_secs(15), &format!("{button} loads the whole page")).await;
    assert_eq!(js(client, "return document.activeElement.id;").await, json!(focus), "the panel has the focus");
}

/// Asserts that the current frame recorded no error and no CSP violation, and that the browser
/// logged nothing severe.
pub(crate) async fn assert_clean(client: &Client, what: &str) {
    let errors = js(client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "{what}: errors or CSP violations");
    let logs = client.issue_cmd(BrowserLog).await.expect("read the browser log");
    let severe: Vec<&Value> = logs.as_array().into_iter().flatten().filter(|e| e["level"] == "SEVERE").collect();
    assert!(severe.is_empty(), "{what}: severe browser log entries: {severe:?}");
}

/// Saves a PNG of the element matching `selector`, whole even where it is taller than the
/// viewport (CDP's capture beyond the viewport), as `target/screenshots/NAME`.
pub(crate) async fn save_element(client: &Client, selector: &str, name: &str) {
    let r = js(client, &format!("const r = document.querySelector('{selector}').getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY, r.width, r.height];")).await;
    let r: Vec<f64> = serde_json::from_value(r).expect("a rectangle");
    let clip = json!({ "x": r[0], "y": r[1], "width": r[2], "height": r[3], "scale": 1 });
    let shot =
        cdp(client, "Page.captureScreenshot", json!({ "format": "png", "clip": clip, "captureBeyondViewport": true }))
            .await;
    save_png(name, &base64(shot["data"].as_str().expect("PNG data")));
}

/// Standard base64 (CDP's screenshots) to bytes.
pub(crate) fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=' && !c.is_ascii_whitespace()).map(value).collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// Saves PNG bytes (an element's screenshot) as `target/screenshots/NAME`.
pub(crate) fn save_png(name: &str, png: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    std::fs::write(dir.join(name), png).expect("write the screenshot");
}

#[test]
fn a_link_restores_the_exact_run_and_share_copies_it() {
    one_browser_at_a_time(links::restore_and_share());
}

#[test]
fn bad_parameters_get_a_notice_naming_each() {
    one_browser_at_a_time(links::bad_parameters());
}

#[test]
fn exact_values_survive_slider_nudges_and_number_fields_take_the_whole_range() {
    one_browser_at_a_time(links::exact_values());
}

#[test]
fn under_the_shipped_csp_exports_and_the_production_panel_work() {
    one_browser_at_a_time(exports::csp_exports_and_production());
}

#[test]
fn run_this_config_and_the_product_picker_run_the_real_limiters_models() {
    one_browser_at_a_time(products::run_config_and_product_picker());
}

#[test]
fn the_first_module_hands_a_product_to_the_whole_page_which_a_product_link_opens_directly() {
    one_browser_at_a_time(products::products_run_in_the_whole_page());
}

#[test]
fn two_sandboxed_embeds_on_one_host_page_run_independently() {
    one_browser_at_a_time(embeds::snippet_layout_and_two_frames());
}

#[test]
fn a_plain_host_without_cors_serves_the_frames_and_a_frame_that_cannot_load_says_why_over_its_still() {
    one_browser_at_a_time(hosts::plain_hosts());
}

#[test]
fn a_post_on_another_origin_directs_its_widget_through_the_host_api() {
    one_browser_at_a_time(async {
        let (server, _browser, client) = start().await;
        host_api::a_post_directs_its_widget(&client, &server).await;
        assert_clean(&client, "a post that directs its widget").await;
    });
}

#[test]
fn an_embed_shows_any_card_at_any_moment_and_the_builder_previews_its_snippet() {
    one_browser_at_a_time(embed_cards::cards_moment_caption_theme_and_builder());
}

#[test]
fn widgets_that_cannot_run_as_built_show_their_still_and_say_why_and_print_as_stills() {
    one_browser_at_a_time(async {
        let (server, _browser, client) = start().await;
        // These checks size the window as a reader's browser would, not the emulated viewport.
        cdp(&client, "Emulation.clearDeviceMetricsOverride", json!({})).await;
        fallbacks::widgets_that_cannot_run_as_built(&client, &server).await;
        fallbacks::a_stripped_snippet_fits_a_phone(&client, &server).await;
        slow_and_print::a_slow_link_and_paper(&client, &server).await;
    });
}
