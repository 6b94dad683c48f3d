#![cfg(not(target_arch = "wasm32"))]
//! End to end in every reader's browser: what a reader of the site or of a post sees, in Firefox
//! ESR (Gecko, under geckodriver) and in WebKitGTK (WebKit, Safari's engine family, under
//! WebKitWebDriver in a virtual display), against the release build in `dist/` served under a
//! sub-path with the headers of `dist/_headers`. Chromium runs everything else (e2e, e2e_share,
//! e2e_cluster); here each engine gets:
//!
//! - every view of the page drawn and running: the first module's page, Compare all, multi-node,
//!   a product, the tour, a frame and a multi-node frame, each with its charts painted and its
//!   clock moving, and no error, uncaught exception or CSP violation recorded in the page;
//! - a post on another origin that directs its widget through `embed.js` (`e2e_share/host_api.rs`,
//!   the same checks as in Chromium);
//! - the snippet's sizing: two frames on a post at 1280 and at 375 px take the height their
//!   content reports, so nothing is cut off and nothing scrolls inside them;
//! - the fallbacks (`e2e_share/fallbacks.rs`): a strict sandbox on a host without CORS, a frame
//!   without scripts, a healthy frame out of view, a snippet without its script at 375 px.
//!
//! Screenshots of each view and of the post go to `target/screenshots/{firefox,webkit}-*.png`.
//! These browsers have no "script on every new document", so the test server adds the error hook
//! to the head of every page it serves ([`server::StaticServer::hook`]). Needs
//! `trunk build --release --public-url ./` first (or `E2E_DIST=folder`), and Firefox ESR,
//! geckodriver, WebKitWebDriver, MiniBrowser and xvfb-run (`scripts/bootstrap.sh --test`).

#[allow(dead_code)] // Chromium's console log is e2e's and e2e_share's
#[path = "e2e/browser.rs"]
mod browser;
#[path = "e2e_share/fallbacks.rs"]
mod fallbacks;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[path = "e2e_share/host_api.rs"]
mod host_api;
#[allow(dead_code)] // shared with e2e.rs, which uses every helper
#[path = "e2e/page.rs"]
mod page;
#[path = "e2e/server.rs"]
mod server;
#[path = "e2e/stills.rs"]
mod stills;

use std::time::Duration;

use browser::{Browser, Engine};
use fantoccini::Client;
pub(crate) use harness::cli;
use harness::{dist_dir, one_browser_at_a_time, ERROR_HOOK};
use page::{js, wait_until, PIXELS_OF};
use serde_json::{json, Value};
use server::StaticServer;

/// Saves PNG bytes as `target/screenshots/NAME`, to look at.
fn save_png(name: &str, png: &[u8]) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots");
    std::fs::create_dir_all(&dir).expect("create target/screenshots");
    std::fs::write(dir.join(name), png).expect("write the screenshot");
}

/// Each view a reader can open, as `(what, query)`: each is opened, drawn and run.
const VIEWS: [(&str, &str); 7] = [
    ("the page", "?rate=8"),
    ("Compare all", "?view=compare&rate=20"),
    ("multi-node, racing", "?nodes=4&store=race&rtt=50&rate=100&traffic=poisson"),
    ("a product (nginx)", "?algo=nginx&rate=20"),
    ("the tour's race step", "?tour=path&step=6"),
    ("a frame", "?rate=8&embed=1&controls=rate&show=throughput,state"),
    ("a multi-node frame", "?nodes=4&store=race&rtt=50&rate=100&traffic=poisson&embed=1&controls=nodes,store"),
];

/// A server for `dist/` that hooks every page, the engine's browser and a session on it.
async fn launch(engine: Engine) -> (StaticServer, Browser, Client) {
    let server = StaticServer::start(dist_dir());
    *server.hook.lock().unwrap() = Some(ERROR_HOOK.to_string());
    let browser = Browser::start_engine(engine);
    let client = browser.connect().await;
    (server, browser, client)
}

/// Asserts the current document recorded no error, uncaught exception or CSP violation.
async fn assert_clean(client: &Client, what: &str) {
    let errors = js(client, "return window.__e2eErrors || ['the error hook did not run'];").await;
    assert_eq!(errors, json!([]), "{what}: errors or CSP violations");
}

/// Opens `url` and waits until the app has mounted, its first chart has drawn something on its
/// background (axes, series: pixels unlike its corner's) and its clock has moved on.
async fn drawn_and_running(client: &Client, url: &str, what: &str) {
    client.goto(url).await.unwrap_or_else(|e| panic!("open {url}: {e}"));
    let mounted = "document.querySelector('#clock') && [...document.querySelectorAll('canvas')].some(c => c.width > 0)";
    wait_until(client, mounted, Duration::from_secs(30), &format!("{what} has mounted")).await;
    let painted = format!(
        "return (() => {{ {PIXELS_OF} const k = [...document.querySelectorAll('canvas')].find(c => c.width > 0 && c.getBoundingClientRect().height > 60); if (!k) return 0; const p = pixelsOf(k); let n = 0; for (let i = 0; i < p.length; i += 4) if (Math.abs(p[i] - p[0]) + Math.abs(p[i + 1] - p[1]) + Math.abs(p[i + 2] - p[2]) + Math.abs(p[i + 3] - p[3]) > 48) n++; return n; }})();"
    );
    let mut pixels = 0;
    for _ in 0..50 {
        pixels = js(client, &painted).await.as_u64().unwrap_or(0);
        if pixels > 500 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(pixels > 500, "{what}: its first chart has {pixels} pixels unlike its background");
    let clock = "return +document.querySelector('#clock').dataset.ns;";
    let before = js(client, clock).await.as_u64().unwrap_or(0);
    let moved = format!("+document.querySelector('#clock').dataset.ns > {before}");
    wait_until(client, &moved, Duration::from_secs(10), &format!("{what}: the clock moves")).await;
    assert_clean(client, what).await;
}

/// A post with two snippets' frames sized by the snippet's script, as the Embed panel writes it.
const SIZED_POST: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Two widgets</title><link rel="icon" href="data:,"></head>
<body style="margin: 0; padding: 8px; font: 16px system-ui">
<p>The seam:</p>
<iframe data-ratelimit-playground title="seam" src="HOST?algo=fixed_window&amp;traffic=seam&amp;embed=1&amp;controls=limit,window&amp;show=throughput&amp;t=10&amp;autoplay=0&amp;caption=The%20seam" width="600" height="400" style="border: 0; max-width: 100%"></iframe>
<p>The race:</p>
<iframe data-ratelimit-playground title="race" src="HOST?nodes=4&amp;store=race&amp;rtt=50&amp;rate=100&amp;traffic=poisson&amp;embed=1&amp;controls=nodes,store,rtt&amp;show=throughput,stats&amp;t=10&amp;autoplay=0" width="600" height="400" style="border: 0; max-width: 100%"></iframe>
SIZER
</body></html>"#;

/// Waits until each frame of the post has taken the height its content reports, then checks
/// from inside each that its whole content shows without a scroll bar.
async fn frames_fit(client: &Client, what: &str) {
    let sized = "[...document.querySelectorAll('iframe')].every(f => f.style.height && f.style.height !== '400px')";
    wait_until(client, sized, Duration::from_secs(30), &format!("{what}: both frames sized")).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    for i in 0..2u16 {
        client.enter_frame(i).await.expect("enter the frame");
        let fits = "document.documentElement.scrollHeight <= innerHeight + 2 && document.documentElement.scrollWidth <= innerWidth + 2";
        wait_until(client, fits, Duration::from_secs(10), &format!("{what}: frame {i} shows all of itself")).await;
        assert_clean(client, &format!("{what}: frame {i}")).await;
        client.enter_parent_frame().await.expect("back to the post");
    }
}

/// Everything this file checks, in one engine.
async fn a_reader_in(engine: Engine) {
    let (server, _browser, client) = launch(engine).await;
    for (i, (what, query)) in VIEWS.iter().enumerate() {
        drawn_and_running(&client, &format!("{}{query}", server.url), &format!("{engine:?}: {what}")).await;
        save_png(&format!("{engine:?}-view-{i}.png").to_lowercase(), &client.screenshot().await.expect("screenshot"));
    }

    host_api::a_post_directs_its_widget(&client, &server).await;
    client.enter_frame(0).await.expect("enter the post's widget");
    assert_clean(&client, &format!("{engine:?}: the widget of a post that directs it")).await;
    client.enter_parent_frame().await.expect("back to the post");

    let snippet = ratelimit_playground::present::share::snippet::SIZER;
    let post = SIZED_POST.replace("HOST", &server.url).replace("SIZER", snippet);
    server.pages.lock().unwrap().push(("/post/two.html".into(), post));
    for (width, height) in [(1280, 800), (375, 812)] {
        client.set_window_size(width, height).await.expect("size the window");
        client.goto(&server.at("/post/two.html")).await.expect("open the post");
        frames_fit(&client, &format!("{engine:?} at {width} px")).await;
        save_png(
            &format!("{engine:?}-post-{width}.png").to_lowercase(),
            &client.screenshot().await.expect("screenshot"),
        );
    }
    let heights: Value = js(&client, "return [...document.querySelectorAll('iframe')].map(f => f.style.height);").await;
    assert!(heights.as_array().is_some_and(|h| h.len() == 2), "{heights}");

    fallbacks::widgets_that_cannot_run_as_built(&client, &server).await;
    save_png(&format!("{engine:?}-fallbacks.png").to_lowercase(), &client.screenshot().await.expect("screenshot"));
    fallbacks::a_stripped_snippet_fits_a_phone(&client, &server).await;
    client.close().await.expect("close the WebDriver session");
}

#[test]
fn firefox_esr_draws_every_view_and_a_post_sizes_and_directs_its_widgets() {
    one_browser_at_a_time(a_reader_in(Engine::Firefox));
}

#[test]
fn webkit_draws_every_view_and_a_post_sizes_and_directs_its_widgets() {
    one_browser_at_a_time(a_reader_in(Engine::WebKit));
}
