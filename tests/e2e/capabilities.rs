//! Each capability of the playground, driven in headless Chromium the way a user would: the pass
//! ratio converging after a fast-forward, the seam attack against the three window algorithms,
//! compare mode on one trace, bad traces refused with a message, and pause / step / speed.

use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use serde_json::json;

use super::page::{
    click, clock_ns, counters, full_page_screenshot, js, set_control, slide, text, wait_until, PIXELS_OF,
};
use super::{launch, one_browser_at_a_time, open_app};

/// How far the measured pass ratio may be from refill ÷ arrival after 10 simulated minutes, in
/// percentage points (the opening burst of a full bucket adds 10 of 12 000 requests: 0.08 points).
const PASS_RATIO_TOLERANCE: f64 = 0.5;

/// The percentage in a text like "25.1 %".
fn percent(text: &str) -> f64 {
    text.trim().trim_end_matches('%').trim().parse().unwrap_or_else(|_| panic!("not a percentage: {text:?}"))
}

/// `data-*` attributes of every compare column: `(algo, requests, peak, limit)`.
async fn columns(client: &Client) -> Vec<(String, u64, u64, u64)> {
    let value = js(client, "return [...document.querySelectorAll('.compare-column')].map(c => [c.dataset.algo, c.dataset.requests, c.dataset.peak, c.dataset.limit]);").await;
    let rows: Vec<Vec<String>> = serde_json::from_value(value).expect("rows of strings");
    rows.into_iter()
        .map(|r| (r[0].clone(), r[1].parse().unwrap(), r[2].parse().unwrap(), r[3].parse().unwrap()))
        .collect()
}

/// Simulated seconds per real second over `ms` of real time, measured in the page.
async fn sim_speed(client: &Client, ms: u64) -> f64 {
    let read = "return [Number(document.querySelector('#clock').dataset.ns), performance.now()];";
    let a: Vec<f64> = serde_json::from_value(js(client, read).await).unwrap();
    tokio::time::sleep(Duration::from_millis(ms)).await;
    let b: Vec<f64> = serde_json::from_value(js(client, read).await).unwrap();
    (b[0] - a[0]) / 1e9 / ((b[1] - a[1]) / 1e3)
}

async fn trace_message(client: &Client) -> String {
    wait_until(client, "document.querySelector('#trace-message')", Duration::from_secs(5), "a trace message").await;
    text(client, "#trace-message").await
}

#[test]
fn every_capability_works_in_headless_chromium() {
    one_browser_at_a_time(drive_every_capability());
}

async fn drive_every_capability() {
    let started = Instant::now();
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;
    click(&client, "#play").await; // pause: every step below is computed, not waited for
    wait_until(&client, "document.querySelector('#play').textContent === 'Play'", Duration::from_secs(2), "paused")
        .await;

    // Arrival above refill: after a 10-minute fast-forward the pass ratio is refill ÷ arrival.
    slide(&client, "rate", 460, "20 requests per second").await;
    click(&client, "#jump-600").await;
    wait_until(
        &client,
        "Number(document.querySelector('#clock').dataset.ns) >= 600e9",
        Duration::from_secs(10),
        "the jump is done",
    )
    .await;
    let measured = percent(&text(&client, "#pass-ratio").await);
    assert_eq!(text(&client, "#pass-ratio-predicted").await, "steady state 25.0 %");
    assert!(
        (measured - 25.0).abs() <= PASS_RATIO_TOLERANCE,
        "pass ratio {measured} % is not within {PASS_RATIO_TOLERANCE} points of 5 ÷ 20"
    );
    assert!(
        text(&client, "#first-rejection").await.starts_with("First 429 at 650 ms"),
        "C/(λ−r) = 667 ms, one arrival earlier in whole tokens"
    );

    // The seam attack: the fixed window admits 2 × limit across a boundary, the others do not.
    set_control(&client, "#traffic", "seam", "change").await;
    for (algo, peak, callout) in [
        ("fixed_window", "20 = 2.0 × the limit of 10", true),
        ("sliding_window", "10 (limit 10)", false),
        ("sliding_log", "10 (limit 10)", false),
    ] {
        click(&client, &format!("#algo-{algo}")).await;
        click(&client, "#jump-10").await;
        wait_until(
            &client,
            "Number(document.querySelector('#clock').dataset.ns) >= 10e9",
            Duration::from_secs(5),
            "10 s of seam traffic",
        )
        .await;
        let shown = text(&client, "#peak").await;
        assert!(shown.ends_with(peak), "{algo}: {shown:?}");
        let has_callout = js(&client, "return !!document.querySelector('#seam-callout');").await;
        assert_eq!(has_callout, json!(callout), "{algo}: seam callout");
        if callout {
            // The pair of windows at the seam, each within its limit, as the chart shades them.
            let said = text(&client, "#seam-callout").await;
            assert!(said.contains(": 10 at the end of the window that closes at t = "), "{said}");
            assert!(said.contains(", 10 at the start of the next, each window within its limit."), "{said}");
        }
        full_page_screenshot(&client, &format!("seam-{algo}.png"), 1280).await;
    }

    // Compare mode: all five on the same arrivals, side by side; only the fixed window doubles.
    click(&client, "#algo-compare").await;
    click(&client, "#jump-10").await;
    wait_until(
        &client,
        "document.querySelectorAll('.compare-column').length === 5",
        Duration::from_secs(5),
        "five columns",
    )
    .await;
    let cols = columns(&client).await;
    let names: Vec<&str> = cols.iter().map(|c| c.0.as_str()).collect();
    assert_eq!(names, ["token_bucket", "gcra", "fixed_window", "sliding_window", "sliding_log"]);
    assert!(cols.iter().all(|c| c.1 == cols[0].1 && c.1 > 0), "not one trace: {cols:?}");
    assert_eq!((cols[2].2, cols[3].2, cols[4].2), (20, 10, 10), "peaks in one window: {cols:?}");
    for id in ["#mini-token_bucket", "#mini-sliding_log"] {
        let drawn = js(&client, &format!("{PIXELS_OF}const c = document.querySelector('{id}'); return c.width > 0 && pixelsOf(c).some((v, i) => i % 4 === 3 && v > 0);")).await;
        assert_eq!(drawn, json!(true), "{id} draws nothing");
    }
    let disagreement = text(&client, "#disagreement").await;
    assert!(disagreement.contains("by the exact sliding log on the same arrivals so far"), "{disagreement}");
    // On the seam there is no hint; on evenly spaced arrivals the view says why the columns look
    // alike, one click from traffic where they part.
    assert_eq!(js(&client, "return !!document.querySelector('#compare-traffic-hint');").await, json!(false));
    set_control(&client, "#traffic", "constant", "change").await;
    wait_until(
        &client,
        "document.querySelector('#compare-traffic-hint')",
        Duration::from_secs(3),
        "the hint on even traffic",
    )
    .await;
    click(&client, "#compare-traffic-poisson").await;
    let after = js(
        &client,
        "return [document.querySelector('#traffic').value, !!document.querySelector('#compare-traffic-hint')];",
    )
    .await;
    assert_eq!(after, json!(["poisson", false]), "Poisson arrivals, and the hint gone");
    set_control(&client, "#traffic", "seam", "change").await;

    // Replay my traffic: a bad paste, a bad upload and an oversized upload are refused by line.
    click(&client, "#algo-token_bucket").await;
    set_control(&client, "#traffic", "trace", "change").await;
    wait_until(&client, "document.querySelector('#trace-text')", Duration::from_secs(3), "the trace box").await;
    set_control(&client, "#trace-text", "0\n10\nsoon\n", "input").await;
    click(&client, "#trace-use").await;
    let message = trace_message(&client).await;
    assert!(message.starts_with("trace line 3:"), "{message}");
    let dir = std::env::temp_dir().join(format!("rlp-e2e-traces-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (bad, huge) = (dir.join("bad.txt"), dir.join("huge.txt"));
    std::fs::write(&bad, "5\n3\n").unwrap();
    std::fs::write(&huge, vec![b'1'; 17 * 1024 * 1024]).unwrap();
    let input = client.find(Locator::Css("#trace-file")).await.expect("the file input");
    input.send_keys(bad.to_str().unwrap()).await.expect("upload bad.txt");
    wait_until(
        &client,
        "document.querySelector('#trace-message').textContent.startsWith('trace line 2')",
        Duration::from_secs(5),
        "the upload is refused by line",
    )
    .await;
    input.clear().await.ok();
    input.send_keys(huge.to_str().unwrap()).await.expect("upload huge.txt");
    wait_until(
        &client,
        "document.querySelector('#trace-message').textContent.includes('too large')",
        Duration::from_secs(5),
        "the oversized upload is refused",
    )
    .await;
    std::fs::remove_dir_all(&dir).ok();
    set_control(&client, "#trace-text", "0\n100\n200\n", "input").await;
    click(&client, "#trace-use").await;
    wait_until(
        &client,
        "document.querySelector('#trace-message').textContent.startsWith('3 arrivals')",
        Duration::from_secs(5),
        "a good trace is accepted",
    )
    .await;
    click(&client, "#jump-10").await;
    wait_until(
        &client,
        "document.querySelector('#requests').textContent === '3'",
        Duration::from_secs(5),
        "the trace is replayed",
    )
    .await;

    // Pause stops time; Step runs exactly one event; speed changes how fast simulated time runs.
    set_control(&client, "#traffic", "constant", "change").await;
    slide(&client, "rate", 320, "4 requests per second").await;
    click(&client, "#reset").await;
    let paused = clock_ns(&client).await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(clock_ns(&client).await, paused, "time moved while paused");
    let before = counters(&client).await[0];
    click(&client, "#step").await;
    click(&client, "#step").await;
    assert_eq!(counters(&client).await[0], before + 2, "two steps, two arrivals");
    assert_eq!(clock_ns(&client).await, 250_000_000, "the second arrival of 4/s is at 250 ms");
    set_control(&client, "#speed", "1", "change").await;
    click(&client, "#play").await;
    let normal = sim_speed(&client, 1_000).await;
    set_control(&client, "#speed", "10", "change").await;
    let fast = sim_speed(&client, 1_000).await;
    assert!((0.5..=1.5).contains(&normal), "1× ran at {normal:.2}×");
    assert!((5.0..=15.0).contains(&fast), "10× ran at {fast:.2}×");

    let errors = js(&client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "console errors on the page");
    println!("capabilities driven in {:.1} s", started.elapsed().as_secs_f64());
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
