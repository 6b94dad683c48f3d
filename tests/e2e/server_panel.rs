//! "What the limiter protects" (issue #37) driven as a reader would: the light page's stand-in
//! hands over to the whole page, a preset loads its story and says what to watch, a minute later
//! the cards show the storm that stays down and the one that recovers (read from the totals the
//! engine printed and the charts' pixels), the knobs change the run, and the panel fits a phone
//! and dark mode (screenshots `server-*.png` in `target/screenshots/`).

use std::time::Duration;

use fantoccini::Client;
use serde_json::json;

use super::page::{click, desktop_dark, js, phone, screenshot, text, unfold, wait_until, PIXELS_OF};
use super::{launch, one_browser_at_a_time, open_app};

/// The share of finished requests answered in time, from the totals line ("… in time 123 (45.6 %) …").
async fn in_time_percent(client: &Client) -> f64 {
    let line = text(client, "#server-totals").await;
    let inside = line.split(" (").nth(1).and_then(|s| s.split(" %").next()).unwrap_or_else(|| panic!("{line}"));
    inside.replace(',', "").parse().unwrap_or_else(|_| panic!("{line}"))
}

/// Pixels drawn on a chart's data canvas.
async fn drawn(client: &Client, id: &str) -> u64 {
    let script = format!("{PIXELS_OF} const d = pixelsOf(document.querySelector('#{id}')); let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n;");
    js(client, &script).await.as_u64().unwrap_or(0)
}

/// Scrolls the panel into view.
async fn show_panel(client: &Client) {
    js(client, "document.querySelector('#server').scrollIntoView(); return null;").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[test]
fn the_server_panel_tells_its_stories() {
    one_browser_at_a_time(tell_the_stories());
}

async fn tell_the_stories() {
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;

    // The light page stands in for the panel; its button hands over to the whole page.
    assert_eq!(text(&client, "#server-title").await, "What the limiter protects");
    unfold(&client, "server").await;
    click(&client, "#server-load").await;
    wait_until(&client, "document.querySelector('#server-preset-storm')", Duration::from_secs(15), "the whole page")
        .await;
    wait_until(
        &client,
        "document.activeElement && document.activeElement.id === 'server-preset-storm'",
        Duration::from_secs(5),
        "focus on the storm",
    )
    .await;

    // The storm without a limiter: a minute in, the server is busy and nobody is answered in time.
    click(&client, "#server-preset-storm").await;
    wait_until(
        &client,
        "location.search.includes('workers=8') && location.search.includes('spike=10-20')",
        Duration::from_secs(5),
        "the preset's link",
    )
    .await;
    assert!(text(&client, "#server-watch").await.contains("goodput stays at zero"));
    click(&client, "#play").await; // pause
    click(&client, "#jump-60").await;
    wait_until(
        &client,
        "document.querySelector('#server-totals').textContent.startsWith('Served')",
        Duration::from_secs(10),
        "the totals",
    )
    .await;
    show_panel(&client).await;
    let storm = in_time_percent(&client).await;
    assert!(storm < 20.0, "the storm: {storm} % in time");
    for id in ["server-load-chart", "server-latency-chart", "server-queue-chart"] {
        let painted = format!("(() => {{ {PIXELS_OF} return pixelsOf(document.querySelector('#{id}')).some((v, i) => i % 4 == 3 && v > 0); }})()");
        wait_until(&client, &painted, Duration::from_secs(5), &format!("{id} drawn")).await;
    }
    screenshot(&client, "server-storm.png").await;

    // The same storm with a limiter and a retry budget recovers.
    click(&client, "#server-preset-recovers").await;
    click(&client, "#jump-60").await;
    wait_until(
        &client,
        "document.querySelector('#server-totals').textContent.includes('by the budget')",
        Duration::from_secs(10),
        "the budget's refusals",
    )
    .await;
    let recovered = in_time_percent(&client).await;
    assert!(recovered > 99.0, "with a limiter and a budget: {recovered} % in time");
    show_panel(&client).await;
    screenshot(&client, "server-recovers.png").await;
    assert!(drawn(&client, "server-load-chart").await > 500);

    // A knob changes the run: LIFO, then FIFO under the same overload.
    click(&client, "#server-preset-lifo").await;
    click(&client, "#jump-60").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let lifo = in_time_percent(&client).await;
    js(&client, "const s = document.querySelector('#server-discipline'); s.value = 'fifo'; s.dispatchEvent(new Event('change')); return null;").await;
    wait_until(
        &client,
        "location.search.includes('workers=8') && !location.search.includes('discipline=lifo')",
        Duration::from_secs(5),
        "FIFO in the link",
    )
    .await;
    click(&client, "#jump-60").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let fifo = in_time_percent(&client).await;
    assert!(lifo > 90.0 && fifo < 10.0, "LIFO {lifo} %, FIFO {fifo} %");

    // A phone: the panel fits 375 px; dark mode.
    phone(&client).await;
    show_panel(&client).await;
    screenshot(&client, "server-mobile.png").await;
    desktop_dark(&client).await;
    click(&client, "#server-preset-storm").await;
    click(&client, "#jump-60").await;
    show_panel(&client).await;
    js(&client, "document.querySelector('.server-cards').scrollIntoView(); return null;").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    screenshot(&client, "server-dark.png").await;

    let errors = js(&client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "console errors on the page");
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
