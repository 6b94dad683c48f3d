//! The leaky bucket's queue (issue #37) picked as a reader would: on the light page, which does
//! not run it, the picker hands over to the whole page, which opens on it with the focus on the
//! picker; the inner state shows the queue filling, the strip each request's wait, and the
//! explanation says what it is (screenshots `leaky-*.png` in `target/screenshots/`).

use std::time::Duration;

use serde_json::json;

use super::page::{
    click, counters, full_page_screenshot, js, screenshot, text, unfold, viewport, wait_until, PIXELS_OF,
};
use super::{launch, one_browser_at_a_time, open_app};

#[test]
fn the_leaky_bucket_is_picked_on_the_light_page_and_runs_on_the_whole_page() {
    one_browser_at_a_time(pick_the_queue());
}

async fn pick_the_queue() {
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;
    // The light page (no server panel of its own) offers the queue beside the five meters.
    unfold(&client, "server").await;
    assert_eq!(js(&client, "return !!document.querySelector('#server-load');").await, json!(true));
    // As a reader's click does, or the arrow keys: the radio takes the focus, then is chosen.
    js(&client, "const r = document.querySelector('#algo-leaky_bucket'); r.focus(); r.click(); return null;").await;
    wait_until(
        &client,
        "location.search.includes('algo=leaky_bucket') && document.querySelector('#server-preset-storm')",
        Duration::from_secs(15),
        "the whole page on the leaky bucket",
    )
    .await;
    wait_until(
        &client,
        "document.activeElement && document.activeElement.id === 'algo-leaky_bucket' && document.activeElement.checked",
        Duration::from_secs(5),
        "the picker's focus kept",
    )
    .await;
    assert_eq!(text(&client, "#explanation-title").await, "How the leaky bucket (as a queue) behaves");
    assert_eq!(text(&client, ".chart-card:has(#state-chart) .chart-sub").await, "Requests waiting in the queue");

    // The opening scenario (8/s against a drain of 5/s) fills the queue: requests are held.
    click(&client, "#play").await; // pause
    click(&client, "#jump-60").await;
    let state_drawn = format!(
        "(() => {{ {PIXELS_OF} return pixelsOf(document.querySelector('#state-chart')).some((v, i) => i % 4 == 3 && v > 0); }})()"
    );
    wait_until(&client, &state_drawn, Duration::from_secs(5), "the queue's fill drawn").await;
    // Requests in the queue have arrived and are not answered yet: the counters say so.
    let [requests, admitted, rejected] = counters(&client).await;
    assert!(rejected > 0 && requests > admitted + rejected, "{requests} {admitted} {rejected}: some held");
    let link = js(&client, "return location.search;").await;
    assert!(link.as_str().is_some_and(|l| l.contains("algo=leaky_bucket")), "{link}");
    full_page_screenshot(&client, "leaky-desktop.png", 1280).await;
    viewport(&client, 375, 800, 2.0, true).await;
    js(&client, "document.querySelector('#strip').scrollIntoView(); return null;").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    screenshot(&client, "leaky-mobile.png").await;

    let errors = js(&client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "console errors on the page");
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
