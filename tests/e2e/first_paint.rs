//! The first paint before any module loads (index.html's `#first-paint`, issue #34): the page
//! shows its header at once, in the words and at the place where the app mounts its own, so the
//! app takes over without a jump, and under it a still of its throughput chart (`#first-chart`,
//! issue #49) in the first screen, which the live chart replaces; a frame shows its bar's
//! buttons instead (`#frame-paint`), where its module draws them. `make bench` times it on cold
//! loads.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use super::page::{cdp, js, screenshot, viewport, wait_until};
use super::{launch, one_browser_at_a_time};

/// The page header's title, lede and offer of the tour: their text and where they are (x, y,
/// width, height).
const HEADER: &str = "const h = document.querySelector(ID); if (!h) return null; \
    return [...h.querySelectorAll('h1, .lede, .tour-offer')].map(e => { const r = e.getBoundingClientRect(); \
    return [e.textContent.trim(), Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; });";

async fn header(client: &Client, id: &str) -> Value {
    js(client, &HEADER.replace("ID", &format!("'{id}'"))).await
}

/// A frame bar's buttons: their text as shown (the first paint's Play/Pause button holds both
/// words and shows one) and where they are, in the first element `selector` names.
async fn bar_buttons(client: &Client, selector: &str) -> Value {
    let script = "const b = document.querySelector(SEL); if (!b) return null; \
        return [...b.querySelectorAll('.embed-head button')].map(e => { const r = e.getBoundingClientRect(); \
        return [e.innerText.trim(), Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; });";
    js(client, &script.replace("SEL", &format!("'{selector}'"))).await
}

#[test]
fn the_page_paints_its_header_before_the_code_loads_and_the_app_takes_its_place() {
    one_browser_at_a_time(first_paint());
}

async fn first_paint() {
    let (server, browser, client) = launch().await;
    for (width, height) in [(1280, 800), (375, 700)] {
        viewport(&client, width, height, 1.0, false).await;
        // No module can load: what the HTML and CSS paint alone.
        cdp(&client, "Network.enable", json!({})).await;
        cdp(&client, "Network.setBlockedURLs", json!({ "urls": ["*.wasm", "*loader-*.js"] })).await;
        client.goto(&server.url).await.expect("open the page without its code");
        wait_until(&client, "document.readyState === 'complete'", Duration::from_secs(10), "the HTML is in").await;
        let first = header(&client, "#first-paint").await;
        assert_eq!(first.as_array().map(Vec::len), Some(3), "title, lede and tour painted at {width} px: {first}");
        client.goto(&format!("{}?embed=1", server.url)).await.expect("open a frame without its code");
        wait_until(&client, "document.readyState === 'complete'", Duration::from_secs(10), "the HTML is in").await;
        let shown = js(&client, "return getComputedStyle(document.querySelector('#first-paint')).display;").await;
        assert_eq!(shown, json!("none"), "a frame does not show the page's header");
        let frame_first = bar_buttons(&client, "#frame-paint").await;
        let texts: Vec<&str> = frame_first.as_array().unwrap().iter().map(|b| b[0].as_str().unwrap()).collect();
        assert_eq!(texts, ["Pause", "◂", "Step", "↺"], "a frame paints its bar's buttons at {width} px");
        assert!(frame_first[0][3].as_i64() > Some(0), "painted, not hidden: {frame_first}");
        // With its code: the module's buttons where the first paint's were, and theirs gone.
        cdp(&client, "Network.setBlockedURLs", json!({ "urls": [] })).await;
        client.goto(&format!("{}?embed=1", server.url)).await.expect("open a frame");
        wait_until(&client, "document.querySelector('#play')", Duration::from_secs(15), "the frame mounted").await;
        assert_eq!(
            bar_buttons(&client, ".embed").await,
            frame_first,
            "the frame's buttons where its first paint's were"
        );
        assert_eq!(js(&client, "return document.querySelectorAll('#frame-paint').length;").await, json!(0));
        cdp(&client, "Network.setBlockedURLs", json!({ "urls": ["*.wasm", "*loader-*.js"] })).await;
        client.goto(&server.url).await.expect("open the page without its code again");
        wait_until(&client, "document.readyState === 'complete'", Duration::from_secs(10), "the HTML is in").await;
        let hidden = js(&client, "return getComputedStyle(document.querySelector('#frame-paint')).display;").await;
        assert_eq!(hidden, json!("none"), "the page does not show a frame's bar");

        // With its code: the app's header, the same words at the same place, and one header.
        cdp(&client, "Network.setBlockedURLs", json!({ "urls": [] })).await;
        client.goto(&server.url).await.expect("open the page");
        wait_until(&client, "document.querySelector('#mode-cluster')", Duration::from_secs(15), "mounted").await;
        assert_eq!(header(&client, ".site-header").await, first, "the app's header where the first paint's was");
        assert_eq!(
            js(&client, "return document.querySelectorAll('#first-paint, .site-header').length;").await,
            json!(1)
        );
    }
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

/// The still's card and its drawing shown at this width: where they are (x, y, width, height),
/// the drawing's class, its background's fill as computed, and the viewport's height.
const STILL: &str = "const f = document.querySelector('#first-chart figure'); if (!f) return null; \
    const box = (e) => { const r = e.getBoundingClientRect(); return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; }; \
    const shown = [...f.querySelectorAll('svg')].filter(s => getComputedStyle(s).display !== 'none'); \
    return { card: box(f), drawings: shown.map(s => [s.getAttribute('class'), ...box(s)]), \
      caption: f.querySelector('figcaption').textContent, \
      background: shown.length ? getComputedStyle(shown[0].querySelector('rect')).fill : null, height: innerHeight };";

#[test]
fn the_page_paints_a_still_of_its_chart_in_the_first_screen_and_the_live_chart_replaces_it() {
    one_browser_at_a_time(first_chart());
}

async fn first_chart() {
    let (server, browser, client) = launch().await;
    cdp(&client, "Network.enable", json!({})).await;
    for (width, height, drawing) in [(375, 812, "still-narrow"), (1280, 800, "still-wide")] {
        viewport(&client, width, height, 1.0, false).await;
        // No module can load: what the HTML and CSS paint alone.
        cdp(&client, "Network.setBlockedURLs", json!({ "urls": ["*.wasm", "*loader-*.js"] })).await;
        client.goto(&server.url).await.expect("open the page without its code");
        wait_until(&client, "document.readyState === 'complete'", Duration::from_secs(10), "the HTML is in").await;
        let still = js(&client, STILL).await;
        screenshot(&client, &format!("first-chart-{width}.png")).await;
        let drawings = still["drawings"].as_array().expect("the still's drawings");
        assert_eq!(drawings.len(), 1, "one drawing shown at {width} px: {still}");
        assert_eq!(drawings[0][0], json!(drawing), "the drawing made for {width} px: {still}");
        let (top, tall) = (drawings[0][2].as_i64().unwrap(), drawings[0][4].as_i64().unwrap());
        assert!(tall >= 200 && top > 0, "the drawing is laid out at {width} px: {still}");
        let card = &still["card"];
        let bottom = card[1].as_i64().unwrap() + card[3].as_i64().unwrap();
        assert!(
            bottom <= i64::from(height),
            "the still's whole card is in the first screen at {width}×{height}: {still}"
        );
        assert!(still["caption"].as_str().unwrap().contains("a still"), "labelled as a still: {still}");
        assert_eq!(still["background"], json!("rgb(255, 255, 255)"), "light: the chart's background");
        let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
        cdp(&client, "Emulation.setEmulatedMedia", dark).await;
        assert_eq!(js(&client, STILL).await["background"], json!("rgb(27, 31, 38)"), "dark: the dark chart background");
        cdp(&client, "Emulation.setEmulatedMedia", json!({ "features": [] })).await;

        // With its code: the live chart, and the still gone.
        cdp(&client, "Network.setBlockedURLs", json!({ "urls": [] })).await;
        client.goto(&server.url).await.expect("open the page");
        let live = "document.querySelector('.throughput-card #chart') && document.querySelector('#mode-cluster')";
        wait_until(&client, live, Duration::from_secs(15), "the live chart is mounted").await;
        assert_eq!(
            js(&client, "return document.querySelectorAll('#first-chart, #first-paint').length;").await,
            json!(0)
        );
    }
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
