//! The learner's tour (issue #50) walked as a newcomer would: offered under the page's lede, it
//! opens at step 1 (the whole page, started by the link), Next and Back and the step list move
//! through the ten steps with the address following, each step shows its words (the engine's
//! numbers, the same as natively) and its one chart, and leaving keeps the step's scenario in the
//! full page. A link opens any step; a bad step is named and clamped. Screenshots
//! `tour-*.png` at 1280, 375 and dark.

use super::*;
use page::{desktop_dark, phone};
use ratelimit_playground::present::tour::STEPS;

/// Waits until the tour shows step `n` (from 1) with its title and words, in the address too.
async fn on_step(client: &Client, n: usize) {
    let shown = format!(
        "location.search.includes('step={n}') && document.querySelector('#tour-title')?.textContent === {}",
        json!(STEPS[n - 1].title)
    );
    wait_until(client, &shown, Duration::from_secs(15), &format!("step {n} of the tour")).await;
    assert_eq!(text(client, "#tour-watch").await, STEPS[n - 1].watch(), "step {n}: the engine's words, as natively");
    let chart = match STEPS[n - 1].chart {
        ratelimit_playground::present::tour::Chart::Throughput => "#chart",
        ratelimit_playground::present::tour::Chart::ClusterThroughput => "#cluster-chart",
        ratelimit_playground::present::tour::Chart::Swimlane => "#swimlane",
    };
    let charts = js(client, "return document.querySelectorAll('canvas').length;").await;
    let has = js(client, &format!("return !!document.querySelector('{chart}');")).await;
    assert_eq!(has, json!(true), "step {n} shows {chart} ({charts} canvases)");
    let controls = js(client, "return document.querySelectorAll('.controls, .picker').length;").await;
    assert_eq!(controls, json!(0), "step {n}: the tour shows no parameter column and no picker");
}

#[test]
fn the_tour_walks_the_ten_steps_and_leaves_into_the_full_page() {
    one_browser_at_a_time(tour());
}

async fn tour() {
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": ERROR_HOOK })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    client.goto(&server.url).await.expect("open the app");
    wait_until(&client, "document.querySelector('#tour-offer a')", Duration::from_secs(15), "the offer").await;
    let offer = text(&client, "#tour-offer").await;
    assert!(offer.starts_with("New to rate limiting? Take the tour: 10 steps, one chart each."), "{offer}");
    click(&client, "#tour-offer a").await;
    on_step(&client, 1).await;
    screenshot(&client, "tour-step1-1280.png").await;

    // Next and Back, and the steps' list.
    click(&client, "#tour-next").await;
    on_step(&client, 2).await;
    click(&client, "#tour-back").await;
    on_step(&client, 1).await;
    assert_eq!(js(&client, "return document.querySelector('#tour-back').disabled;").await, json!(true));
    click(&client, ".tour-dots li:nth-child(6) a").await;
    on_step(&client, 6).await;
    let current = js(&client, "return document.querySelector('.tour-dots [aria-current]').textContent;").await;
    assert_eq!(current, json!("6"));
    // The race runs: the swimlane marks lost updates within seconds.
    wait_until(
        &client,
        "/[1-9]/.test(document.querySelector('#lost-in-view')?.textContent ?? '')",
        Duration::from_secs(20),
        "lost updates in the swimlane",
    )
    .await;
    screenshot(&client, "tour-step6-1280.png").await;
    for n in 7..=10 {
        click(&client, "#tour-next").await;
        on_step(&client, n).await;
    }
    assert_eq!(js(&client, "return document.querySelector('#tour-next').disabled;").await, json!(true));

    // Out of the tour: the full page, on step 10's scenario, its address a scenario link.
    click(&client, "#tour-leave").await;
    wait_until(
        &client,
        "!document.querySelector('#tour') && document.querySelector('.controls')",
        Duration::from_secs(10),
        "the full page",
    )
    .await;
    wait_until(
        &client,
        "location.search.includes('retry=exact') && !location.search.includes('tour')",
        Duration::from_secs(5),
        "the scenario's link",
    )
    .await;

    // A link opens any step; a phone shows it from the top, the chart in the first screen.
    client.goto(&format!("{}?tour=path&step=7", server.url)).await.expect("open step 7");
    on_step(&client, 7).await;
    phone(&client).await;
    screenshot(&client, "tour-step7-375.png").await;
    let top = js(&client, "return document.querySelector('#cluster-chart').getBoundingClientRect().top;").await;
    assert!(top.as_f64().unwrap() < 812.0, "step 7's chart starts below a phone's first screen: {top}");
    desktop_dark(&client).await;
    screenshot(&client, "tour-step7-dark.png").await;

    // A bad step is named and clamped.
    client.goto(&format!("{}?tour=path&step=99", server.url)).await.expect("open step 99");
    on_step(&client, 10).await;
    let notice = text(&client, ".link-notice").await;
    assert!(notice.contains("step: 99 is out of range; allowed: from 1 to 10; using 10"), "{notice}");
    no_errors(&client).await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
