#![cfg(not(target_arch = "wasm32"))]
//! End to end for multi-node mode: the release build served under a sub-path, in headless
//! Chromium, every claim of the mode driven like a user would — by the controls, computing by
//! jumping ahead rather than waiting:
//!
//! - the atomic script never admits more than one exact limiter; GET-then-SET over-admits once
//!   arrivals overlap the round trip, and not when they do not; unshared limiters admit about N×;
//! - the edge design's overshoot grows with nodes and with delay, and its preset lands in 10–15 %;
//! - during an outage fail-open admits every decision and fail-closed none;
//! - a failover to a lagging replica over-admits what it lost; replica reads read stale
//!   (`e2e_cluster/failures.rs`);
//! - the swimlane marks lost updates in a racy run;
//! - at 16 nodes and 100× the frames stay cheap (script time per frame is printed), the layout
//!   fits a phone, canvases follow devicePixelRatio and dark mode; screenshots are saved to
//!   `target/screenshots/cluster-*.png`.
//!
//! Needs a release build (`trunk build --release --public-url ./`, or set `E2E_DIST`) and
//! /usr/bin/chromium + /usr/bin/chromedriver (`scripts/bootstrap.sh --test`).

// Shared with the other end-to-end binaries, which may use helpers this one does not.
#[allow(dead_code)]
#[path = "e2e/browser.rs"]
mod browser;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "e2e/page.rs"]
mod page;
#[allow(dead_code)]
#[path = "e2e/server.rs"]
mod server;

use std::time::Duration;

use browser::BrowserLog;
use fantoccini::Client;
use page::{
    cdp, click, clock_ns, counters, js, screenshot, set_control, slide, text, unfold, viewport, wait_until, PIXELS_OF,
};
use ratelimit_playground::present::cluster::presets::{NODES, RTT_MS};
use ratelimit_playground::present::units::SliderScale;
use serde_json::{json, Value};
use server::StaticServer;

use harness::{launch, one_browser_at_a_time, script_ms_per_frame, ERROR_HOOK};

#[path = "e2e_cluster/axe.rs"]
mod axe;
#[path = "e2e_cluster/failures.rs"]
mod failures;
#[path = "e2e_cluster/kong.rs"]
mod kong;
#[path = "e2e_cluster/tour.rs"]
mod tour;

/// The arrival-rate slider of the traffic group.
const RATE: SliderScale = SliderScale::Log { min: 0.1, max: 10_000.0, steps: 1000 };

/// Opens the app at 1280×800 and switches to multi-node mode; paused first if `pause`.
async fn open_cluster(client: &Client, server: &StaticServer, pause: bool) {
    cdp(client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(client, 1280, 800, 1.0, false).await;
    client.goto(&server.url).await.expect("open the app");
    wait_until(
        client,
        "document.querySelector('#mode-cluster') && document.querySelector('.controls .slider')",
        Duration::from_secs(15),
        "the app has mounted",
    )
    .await;
    if pause {
        click(client, "#play").await;
        wait_until(client, "document.querySelector('#play').textContent === 'Play'", Duration::from_secs(2), "paused")
            .await;
    }
    click(client, "#mode-cluster").await;
    let drawn = "document.querySelector('#topology') && document.querySelector('#topology').width > 0 && document.querySelector('#swimlane').width > 0";
    wait_until(client, drawn, Duration::from_secs(5), "the topology and swimlane are drawn").await;
}

/// Moves the slider `id` on `scale` to `value`, checking its spoken value.
async fn slide_to(client: &Client, id: &str, scale: SliderScale, value: f64, spoken: &str) {
    slide(client, id, scale.position_of(value), spoken).await;
}

/// Picks `value` in the `<select>` `id`.
async fn choose(client: &Client, id: &str, value: &str) {
    set_control(client, &format!("#{id}"), value, "change").await;
}

/// Starts over and computes `secs` (10, 60 or 600) simulated seconds at once.
async fn run_for(client: &Client, secs: u64) {
    click(client, "#reset").await;
    click(client, &format!("#jump-{secs}")).await;
    let done = format!("Number(document.querySelector('#clock').dataset.ns) >= {secs}e9");
    wait_until(client, &done, Duration::from_secs(20), "the jump is done").await;
}

/// `(admitted, one exact limiter)` as the over-admission card reports them.
async fn admitted_and_exact(client: &Client) -> (u64, u64) {
    let v = js(
        client,
        "const e = document.querySelector('#over-admitted'); return [e.dataset.admitted, e.dataset.reference];",
    )
    .await;
    let v: Vec<String> = serde_json::from_value(v).expect("two strings");
    (v[0].parse().unwrap(), v[1].parse().unwrap())
}

/// `(nodes, rtt ms, overshoot %)` of every cell of the sweep table.
async fn sweep_cells(client: &Client) -> Vec<(u32, u64, f64)> {
    let v = js(client, "return [...document.querySelectorAll('#sweep td[data-overshoot]')].map(c => [c.dataset.nodes, c.dataset.rtt, c.dataset.overshoot]);").await;
    let rows: Vec<Vec<String>> = serde_json::from_value(v).expect("rows of strings");
    rows.iter().map(|r| (r[0].parse().unwrap(), r[1].parse().unwrap(), r[2].parse().unwrap())).collect()
}

/// `(decided, admitted)` in the outage card.
async fn outage_counts(client: &Client) -> (u64, u64) {
    let v = js(
        client,
        "const e = document.querySelector('#outage'); return e ? [e.dataset.decided, e.dataset.admitted] : ['0', '0'];",
    )
    .await;
    let v: Vec<String> = serde_json::from_value(v).expect("two strings");
    (v[0].parse().unwrap(), v[1].parse().unwrap())
}

/// No console error, no uncaught exception, no severe browser log entry.
/// Every number field beside a slider is wide enough for the value it holds (a long label once
/// squeezed "Node waits for the store" to a blank 20 px box around "100").
async fn fields_show_their_values(client: &Client, when: &str) {
    let squeezed = js(
        client,
        "const ctx = document.createElement('canvas').getContext('2d'); \
         return [...document.querySelectorAll('.slider-field')].filter(f => f.offsetParent).filter(f => { \
           const cs = getComputedStyle(f); ctx.font = cs.font; \
           const need = ctx.measureText(f.value).width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + parseFloat(cs.borderLeftWidth) + parseFloat(cs.borderRightWidth); \
           return f.getBoundingClientRect().width + 0.5 < need; }).map(f => f.id + '=' + f.value + ' in ' + Math.round(f.getBoundingClientRect().width) + ' px');",
    )
    .await;
    assert_eq!(squeezed, json!([]), "number fields too narrow for their values {when}");
}

async fn no_errors(client: &Client) {
    let errors = js(client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "console errors on the page");
    let logs = client.issue_cmd(BrowserLog).await.expect("read the browser log");
    let severe: Vec<&Value> = logs.as_array().into_iter().flatten().filter(|e| e["level"] == "SEVERE").collect();
    assert!(severe.is_empty(), "severe browser log entries: {severe:?}");
}

#[test]
fn multi_node_mode_shows_the_race_the_script_the_edge_and_the_outage() {
    one_browser_at_a_time(drive_the_cluster());
}

async fn drive_the_cluster() {
    let (server, browser, client) = launch().await;
    open_cluster(&client, &server, true).await;

    // 100 requests/s into 4 nodes sharing a bucket of 10 refilled at 5/s, a 50 ms round trip:
    // a request arrives every 10 ms, so GETs and SETs of neighbours overlap.
    slide_to(&client, "rate", RATE, 100.0, "100 requests per second").await;
    slide_to(&client, "nodes", NODES, 4.0, "4 nodes").await;
    slide_to(&client, "rtt", RTT_MS, 50.0, "50 milliseconds").await;
    // The panels below the charts start folded: the reader opens them.
    for panel in ["nodes-card", "modes-card", "sweep-card"] {
        unfold(&client, panel).await;
    }

    // Beside the simulated modes, what a real Redis measured at this node count (no request made).
    let note = text(&client, "#redis-measured").await;
    use ratelimit_playground::present::cluster::measured;
    assert!(note.contains(&measured::caption(4)), "{note}");
    for row in measured::rows(4) {
        for p in [&row.race, &row.atomic, &row.edge] {
            assert!(
                note.contains(&p.measured) && note.contains(&format!("sim. {}", p.simulated)),
                "{note} lacks {row:?}"
            );
        }
    }
    js(&client, "document.querySelector('#modes').scrollIntoView({ block: 'center' });").await;
    screenshot(&client, "cluster-measured.png").await;

    // The atomic script: never more than one exact limiter admits.
    choose(&client, "store", "atomic").await;
    run_for(&client, 60).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!(admitted > 0 && admitted <= exact, "atomic admitted {admitted}, one exact limiter {exact}");
    assert!(text(&client, "#latency").await.contains("p99 50 ms"), "one round trip per decision");
    js(&client, "document.querySelector('#swimlane').scrollIntoView({ block: 'start' });").await;
    screenshot(&client, "cluster-atomic.png").await;

    // GET then SET with overlapping arrivals: lost updates, over-admission, marked in the swimlane.
    choose(&client, "store", "race").await;
    run_for(&client, 60).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!(admitted > exact + exact / 10, "GET-then-SET admitted {admitted}, one exact limiter {exact}");
    let marked = js(&client, "return Number(document.querySelector('.swimlane-card').dataset.lost);").await;
    assert!(marked.as_u64().unwrap_or(0) >= 1, "no lost update marked in the swimlane: {marked}");
    assert!(text(&client, "#lost-in-view").await.contains("lost update"), "the lost updates are named in text");
    assert!(text(&client, "#lost-updates").await.trim_start().starts_with(|c: char| c.is_ascii_digit() && c != '0'));

    // ... and with arrivals 10 ms apart and a 0.05 ms round trip nothing overlaps: exact.
    slide_to(&client, "rtt", RTT_MS, 0.05, "0.05 milliseconds").await;
    run_for(&client, 60).await;
    // (The exact limiter counts a request when it arrives, the nodes when they answer: a request
    // still in flight at the end of the jump may be counted by the first only.)
    let (admitted, exact) = admitted_and_exact(&client).await;
    assert!(
        admitted <= exact && admitted + 1 >= exact,
        "GET-then-SET without overlap admitted {admitted}, exact {exact}"
    );
    // ... and the page says why, with the numbers.
    let why = text(&client, "#no-race").await;
    assert!(why.starts_with("These arrivals cannot race: they come every 10 ms"), "{why}");

    // Per-node limiters share nothing: N nodes admit about N times one exact limiter.
    choose(&client, "store", "local").await;
    for n in [4u64, 8] {
        slide_to(&client, "nodes", NODES, n as f64, &format!("{n} nodes")).await;
        run_for(&client, 60).await;
        let (admitted, exact) = admitted_and_exact(&client).await;
        let ratio = admitted as f64 / exact as f64;
        assert!((ratio - n as f64).abs() <= 0.1 * n as f64, "{n} unshared limiters admitted {ratio:.2}× the limit");
        let bars = js(&client, "return document.querySelectorAll('#node-bars li').length;").await;
        assert_eq!(bars, json!(n), "one bar per node");
    }

    // The edge design: the preset loads, the sweep is computed at once, overshoot grows along
    // both axes, and the preset's own cell is in the 10–15 % band.
    click(&client, "#edge-preset").await;
    wait_until(
        &client,
        "document.querySelectorAll('#sweep td[data-overshoot]').length === 16",
        Duration::from_secs(20),
        "the sweep",
    )
    .await;
    let params = text(&client, "#edge-preset-params").await;
    assert!(params.contains("8 nodes") && params.contains("50 ms round trip"), "{params}");
    let cells = sweep_cells(&client).await;
    let at = |n: u32, ms: u64| cells.iter().find(|c| c.0 == n && c.1 == ms).unwrap().2;
    for n in [2, 4, 8, 16] {
        let row: Vec<f64> = [5, 20, 50, 100].iter().map(|&ms| at(n, ms)).collect();
        assert!(row.windows(2).all(|w| w[0] < w[1]), "overshoot should grow with delay at {n} nodes: {row:?}");
    }
    for ms in [5, 20, 50, 100] {
        let column: Vec<f64> = [2, 4, 8, 16].iter().map(|&n| at(n, ms)).collect();
        assert!(column.windows(2).all(|w| w[0] < w[1]), "overshoot should grow with nodes at {ms} ms: {column:?}");
    }
    assert!((10.0..=15.0).contains(&at(8, 50)), "the preset's cell: {} %", at(8, 50));
    // The shades have a legend; the preset's grid varies with the delay, so no note says it does not.
    assert_eq!(js(&client, "return document.querySelectorAll('#sweep-legend .heat').length;").await, json!(5));
    assert_eq!(js(&client, "return !!document.querySelector('#sweep-flat');").await, json!(false));
    js(&client, "document.querySelector('#sweep').scrollIntoView({ block: 'center' });").await;
    screenshot(&client, "cluster-edge.png").await;
    run_for(&client, 60).await;
    let (admitted, exact) = admitted_and_exact(&client).await;
    let live = (admitted as f64 / exact as f64 - 1.0) * 100.0;
    assert!((8.0..=16.0).contains(&live), "the preset running live overshoots {live:.1} %");

    // An outage from 10 s to 20 s with a 100 ms timeout: fail-open admits every decision made
    // while the store is down, fail-closed none.
    choose(&client, "store", "race").await;
    slide_to(&client, "rtt", RTT_MS, 1.0, "1 millisecond").await;
    click(&client, "#outage-on").await;
    wait_until(&client, "document.querySelector('#outage-start')", Duration::from_secs(2), "the outage sliders").await;
    for (fail, all) in [("open", true), ("closed", false)] {
        choose(&client, "fail", fail).await;
        run_for(&client, 60).await;
        let (decided, admitted) = outage_counts(&client).await;
        assert!(decided > 500, "too few decisions measured during the outage: {decided}");
        assert_eq!(admitted, if all { decided } else { 0 }, "fail-{fail} admitted {admitted} of {decided}");
    }
    assert!(text(&client, "#outage").await.contains("failed closed"));
    js(&client, "document.querySelector('#outage').scrollIntoView({ block: 'center' });").await;
    screenshot(&client, "cluster-outage.png").await;

    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

#[test]
fn multi_node_mode_stays_smooth_at_16_nodes_and_looks_right_everywhere() {
    one_browser_at_a_time(smooth_and_looks_right());
}

async fn smooth_and_looks_right() {
    let (server, browser, client) = launch().await;
    open_cluster(&client, &server, false).await;

    // 16 nodes racing on 1,000 requests/s at 100×: 100,000 simulated requests per real second.
    cdp(&client, "Performance.enable", json!({})).await;
    slide_to(&client, "nodes", NODES, 16.0, "16 nodes").await;
    slide_to(&client, "rate", RATE, 1000.0, "1,000 requests per second").await;
    for (store, speed) in [("race", "100"), ("atomic", "100"), ("async", "100"), ("race", "1")] {
        choose(&client, "store", store).await;
        set_control(&client, "#speed", speed, "change").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let (ms, frames) = script_ms_per_frame(&client, 3_000).await;
        println!("16 nodes, {store}, 1,000 req/s at {speed}×: {ms:.2} ms script/frame over {frames} frames");
        assert!(ms < 12.0, "frames too expensive at 16 nodes ({store}, {speed}×): {ms:.1} ms");
        assert!(frames > 100, "the page did not animate smoothly: {frames} frames in 3 s");
    }

    js(&client, "document.querySelector('#topology').scrollIntoView({ block: 'start' });").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    screenshot(&client, "cluster-16-nodes.png").await;
    js(&client, "window.scrollTo(0, 0);").await;

    // The screenshots: 6 nodes racing on 40 requests/s over a 20 ms round trip, at half speed.
    slide_to(&client, "nodes", NODES, 6.0, "6 nodes").await;
    slide_to(&client, "rate", RATE, 40.0, "40 requests per second").await;
    choose(&client, "traffic", "poisson").await;
    choose(&client, "store", "race").await;
    slide_to(&client, "rtt", RTT_MS, 20.0, "20 milliseconds").await;
    set_control(&client, "#speed", "0.5", "change").await;
    click(&client, "#reset").await;
    wait_until(
        &client,
        "Number(document.querySelector('#clock').dataset.ns) > 3e9",
        Duration::from_secs(10),
        "3 s have run",
    )
    .await;
    screenshot(&client, "cluster-desktop.png").await;
    page::full_page_screenshot(&client, "cluster-desktop-full.png", 1280).await;
    fields_show_their_values(&client, "at 1280 px").await;

    // A phone: nothing scrolls sideways; the cluster comes before the parameters.
    viewport(&client, 375, 812, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let layout = js(&client, "const c = document.querySelector('.controls').getBoundingClientRect(), t = document.querySelector('#topology').getBoundingClientRect(); return { scroll: document.documentElement.scrollWidth, topologyFirst: t.bottom <= c.top };").await;
    assert!(layout["scroll"].as_f64().unwrap() <= 375.0, "the page scrolls sideways at 375 px: {layout}");
    assert_eq!(layout["topologyFirst"], json!(true), "the cluster should come before the parameters: {layout}");
    page::full_page_screenshot(&client, "cluster-mobile.png", 375).await;
    fields_show_their_values(&client, "at 375 px").await;
    // At a measured node count the real-Redis table fits the phone too.
    unfold(&client, "modes-card").await;
    slide_to(&client, "nodes", NODES, 4.0, "4 nodes").await;
    wait_until(
        &client,
        "document.querySelector('#redis-measured table')",
        Duration::from_secs(3),
        "the measured table",
    )
    .await;
    let scroll = js(&client, "return document.documentElement.scrollWidth;").await;
    assert!(scroll.as_f64().unwrap() <= 375.0, "the measured table scrolls the page sideways at 375 px: {scroll}");
    js(&client, "document.querySelector('#redis-measured').scrollIntoView({ block: 'center' });").await;
    screenshot(&client, "cluster-measured-mobile.png").await;

    // HiDPI: the layered canvases follow devicePixelRatio (each is drawn once it is in view:
    // scrolled away, a canvas is not drawn at all).
    viewport(&client, 390, 844, 2.0, true).await;
    for id in ["#topology", "#swimlane"] {
        js(&client, &format!("document.querySelector('{id}').scrollIntoView({{ block: 'center' }});")).await;
        let crisp = format!("(() => {{ const c = document.querySelector('{id}'); return c.width === Math.round(c.clientWidth * 2); }})()");
        wait_until(&client, &crisp, Duration::from_secs(5), &format!("{id} is sized for devicePixelRatio 2")).await;
    }

    // Dark mode: the page and the canvases turn dark.
    viewport(&client, 1280, 800, 1.0, false).await;
    let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
    cdp(&client, "Emulation.setEmulatedMedia", dark).await;
    js(&client, "document.querySelector('#topology').scrollIntoView({ block: 'center' });").await;
    let topology_is_dark = format!("(() => {{ {PIXELS_OF} const c = document.querySelector('#topology'); const p = pixelsOf(c, 2, 2, 1, 1); return p[0] + p[1] + p[2] < 150; }})()");
    wait_until(&client, &topology_is_dark, Duration::from_secs(3), "the topology follows dark mode").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "cluster-dark.png").await;
    js(&client, "document.querySelector('#modes').scrollIntoView({ block: 'center' });").await;
    screenshot(&client, "cluster-measured-dark.png").await;
    cdp(&client, "Emulation.setEmulatedMedia", json!({ "features": [] })).await;

    // Leaving multi-node mode restores one server.
    click(&client, "#mode-single").await;
    wait_until(
        &client,
        "!document.querySelector('#topology') && document.querySelector('#state-chart')",
        Duration::from_secs(3),
        "the single view is back",
    )
    .await;

    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

/// The page's stylesheets, by the name before their hash, each with whether it loaded.
const SHEETS: &str = "return [...document.styleSheets].map(s => s.href.split('/').pop().split('-')[0] + ':' + (s.cssRules.length > 0)).sort();";

/// The wasm modules the page has fetched so far, by file name.
async fn fetched_modules(client: &Client) -> Vec<String> {
    let names = js(
        client,
        "return performance.getEntriesByType('resource').map(e => e.name.split('/').pop()).filter(n => n.endsWith('.wasm'));",
    )
    .await;
    names.as_array().into_iter().flatten().filter_map(|n| n.as_str().map(str::to_string)).collect()
}

#[test]
fn the_whole_page_goes_on_where_the_first_module_was() {
    one_browser_at_a_time(hand_over_where_it_was());
}

async fn hand_over_where_it_was() {
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    // Poisson arrivals from a link (a seed of its own), paused a minute in, scrolled down to the
    // production panel.
    client.goto(&format!("{}?traffic=poisson&rate=2.7&seed=17", server.url)).await.expect("open the app");
    wait_until(
        &client,
        "document.querySelector('#requests') && document.querySelector('.controls .slider')",
        Duration::from_secs(15),
        "the app has mounted",
    )
    .await;
    click(&client, "#play").await;
    wait_until(&client, "document.querySelector('#play').textContent === 'Play'", Duration::from_secs(2), "paused")
        .await;
    click(&client, "#reset").await;
    click(&client, "#jump-60").await;
    let before = (clock_ns(&client).await, counters(&client).await);
    assert_eq!(before.0, 60_000_000_000, "a minute in: {before:?}");
    assert!((120..200).contains(&before.1[0]), "the arrivals of the first minute at 2.7/s: {before:?}");
    // Where the first module goes next: one step, then back to the minute.
    click(&client, "#step").await;
    let next = (clock_ns(&client).await, counters(&client).await[0]);
    assert_eq!(next.1, before.1[0] + 1, "a step is one arrival");
    click(&client, "#reset").await;
    click(&client, "#jump-60").await;
    assert_eq!((clock_ns(&client).await, counters(&client).await), before, "the same minute again");
    // What the first module shows of what it does not draw: the share bar and the two panels.
    js(&client, "document.querySelector('#logs').scrollIntoView();").await;
    screenshot(&client, "stand-ins.png").await;
    let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
    cdp(&client, "Emulation.setEmulatedMedia", dark).await;
    screenshot(&client, "stand-ins-dark.png").await;
    cdp(&client, "Emulation.setEmulatedMedia", json!({ "features": [] })).await;
    viewport(&client, 375, 800, 2.0, true).await;
    js(&client, "document.querySelector('#logs').scrollIntoView();").await;
    screenshot(&client, "stand-ins-mobile.png").await;
    js(&client, "scrollTo(0, 0);").await;
    screenshot(&client, "stand-ins-mobile-top.png").await;
    viewport(&client, 1280, 800, 1.0, false).await;
    unfold(&client, "production").await;
    js(&client, "document.querySelector('#production').scrollIntoView();").await;
    let scrolled = js(&client, "return Math.round(scrollY);").await;
    assert!(scrolled.as_u64().unwrap_or(0) > 400, "scrolled down: {scrolled}");

    // The whole page's own stylesheets wait in their <template>, unfetched.
    assert_eq!(js(&client, SHEETS).await, json!(["main:true", "share:true"]));
    click(&client, "#production-load").await;
    let ready = "document.querySelector('#production-tab-0') && !document.querySelector('#production-load')";
    wait_until(&client, ready, Duration::from_secs(15), "the whole page shows the production panel").await;
    let modules = fetched_modules(&client).await;
    assert_eq!(modules.iter().filter(|n| n.starts_with("ratelimit-full")).count(), 1, "{modules:?}");
    assert_eq!(js(&client, "return document.querySelectorAll('.site-header').length;").await, json!(1), "one page");
    assert_eq!((clock_ns(&client).await, counters(&client).await), before, "the same moment of the same run");
    let all = json!(["cluster:true", "main:true", "share:true", "whole:true"]);
    assert_eq!(js(&client, SHEETS).await, all, "the whole page's stylesheets were added");
    assert_eq!(js(&client, "return document.querySelector('#whole-page-css');").await, Value::Null);
    assert_eq!(text(&client, "#play").await, "Play", "still paused");
    assert_eq!(js(&client, "return document.querySelector('#traffic').value;").await, json!("poisson"), "the traffic");
    assert_eq!(js(&client, "return document.querySelector('#link-notice');").await, Value::Null, "no notice");
    assert_eq!(js(&client, "return Math.round(scrollY);").await, scrolled, "scrolled where it was");
    assert_eq!(js(&client, "return document.activeElement.id;").await, json!("production-tab-0"), "focus");
    assert_eq!(js(&client, "return window.rlpHandover ?? null;").await, Value::Null);
    // The run goes on from there exactly: the next event is the one the first module stepped to.
    click(&client, "#step").await;
    assert_eq!((clock_ns(&client).await, counters(&client).await[0]), next, "the same next arrival");

    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

#[test]
fn the_page_hands_over_to_the_whole_page_when_the_multi_node_view_is_first_shown() {
    one_browser_at_a_time(hand_over());
}

async fn hand_over() {
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    client.goto(&server.url).await.expect("open the app");
    wait_until(
        &client,
        "document.querySelector('#mode-cluster') && document.querySelector('.controls .slider')",
        Duration::from_secs(15),
        "the app has mounted",
    )
    .await;
    let first = fetched_modules(&client).await;
    assert!(
        first.len() == 1 && first[0].starts_with("ratelimit-playground-"),
        "the page opens on its first module alone: {first:?}"
    );

    // Paused at 20×, 100 requests/s, then to the multi-node view from the keyboard's focus.
    slide_to(&client, "rate", RATE, 100.0, "100 requests per second").await;
    choose(&client, "speed", "20").await;
    click(&client, "#play").await;
    wait_until(&client, "document.querySelector('#play').textContent === 'Play'", Duration::from_secs(2), "paused")
        .await;
    js(&client, "document.querySelector('#mode-cluster').focus(); document.querySelector('#mode-cluster').click();")
        .await;
    let drawn = "document.querySelector('#topology') && document.querySelector('#topology').width > 0";
    wait_until(&client, drawn, Duration::from_secs(10), "the whole page shows the multi-node view").await;

    let after = fetched_modules(&client).await;
    assert_eq!(after.iter().filter(|n| n.starts_with("ratelimit-full")).count(), 1, "{after:?}");
    assert_eq!(js(&client, "return document.querySelectorAll('.site-header').length;").await, json!(1), "one page");
    assert_eq!(text(&client, "#play").await, "Play", "still paused");
    assert_eq!(js(&client, "return document.querySelector('#speed').value;").await, json!("20"), "same speed");
    let rate = js(&client, "return document.querySelector('#rate').getAttribute('aria-valuetext');").await;
    assert_eq!(rate, json!("100 requests per second"), "same scenario");
    assert_eq!(js(&client, "return document.activeElement.id;").await, json!("mode-cluster"), "focus kept");
    assert_eq!(js(&client, "return window.rlpHandover;").await, Value::Null, "the hand-over is read once");

    // Back to one server and again to the multi-node view: the whole page does both itself.
    click(&client, "#mode-single").await;
    wait_until(&client, "document.querySelector('#state-chart')", Duration::from_secs(3), "one server").await;
    click(&client, "#mode-cluster").await;
    wait_until(&client, drawn, Duration::from_secs(3), "the multi-node view again").await;
    assert_eq!(fetched_modules(&client).await, after, "nothing more fetched");

    // A multi-node link opens the whole page directly, without the first module.
    client.goto(&format!("{}?nodes=4&store=atomic", server.url)).await.expect("open a multi-node link");
    wait_until(&client, drawn, Duration::from_secs(15), "the link opens the multi-node view").await;
    let direct = fetched_modules(&client).await;
    assert!(direct.len() == 1 && direct[0] == "ratelimit-full_bg.wasm", "{direct:?}");
    // The loader added the whole page's own stylesheets before starting it.
    let all = json!(["cluster:true", "main:true", "share:true", "whole:true"]);
    assert_eq!(js(&client, SHEETS).await, all, "a multi-node link's stylesheets");

    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
