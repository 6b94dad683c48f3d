//! Panels below the charts start folded in every view and each view remembers its own (issue
//! #50), walked as a reader: the page heights at 1280 px against the targets, a panel opened by
//! its title (mouse and keyboard), kept across a reload, not opened in the next view, handed to
//! the whole page as it was, and opened by a link to it; Multi-node's first screen shows the
//! over-admission and the swimlane. Screenshots `folds-*.png`.

use std::time::Duration;

use serde_json::{json, Value};

use super::page::{click, js, screenshot, unfold, wait_until};
use super::{launch, one_browser_at_a_time, open_app};

/// Every folding panel on the page: `[id, aria-expanded]`.
const FOLDS: &str =
    "return [...document.querySelectorAll('.panel > h2 > .fold-toggle')].map(b => [b.closest('.panel').id, b.getAttribute('aria-expanded')]);";

/// The page's height in CSS px.
async fn height(client: &fantoccini::Client) -> u64 {
    js(client, "return document.documentElement.scrollHeight;").await.as_u64().unwrap()
}

/// Whether every folding panel shown is folded, but `open`.
async fn folded_but(client: &fantoccini::Client, open: &[&str]) -> Value {
    let folds = js(client, FOLDS).await;
    let rows = folds.as_array().unwrap();
    assert!(rows.len() >= 4, "the folding panels: {folds}");
    let wrong: Vec<&Value> =
        rows.iter().filter(|r| (r[1] == "true") != open.contains(&r[0].as_str().unwrap())).collect();
    json!(wrong)
}

#[test]
fn panels_start_folded_in_every_view_and_each_view_remembers_its_own() {
    one_browser_at_a_time(fold_and_remember());
}

async fn fold_and_remember() {
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;

    // Home, on the light page: everything below the charts folded, the page under 2,000 px.
    assert_eq!(folded_but(&client, &[]).await, json!([]), "home starts folded");
    let home = height(&client).await;
    assert!(home <= 2000, "home is {home} px tall at 1280");
    assert_eq!(js(&client, "return !!document.querySelector('#explanation-body');").await, json!(false));

    // The keyboard opens a panel as the mouse does: its title is a button.
    js(&client, "document.querySelector('#explanation .fold-toggle').focus(); return null;").await;
    client.active_element().await.unwrap().send_keys("\u{e007}").await.unwrap(); // Enter
    wait_until(&client, "document.querySelector('#explanation-body')", Duration::from_secs(3), "Enter opens it").await;
    assert_eq!(folded_but(&client, &["explanation"]).await, json!([]));

    // Kept across a reload, in this view only.
    client.refresh().await.unwrap();
    wait_until(&client, "document.querySelector('#explanation-body')", Duration::from_secs(15), "still open").await;
    click(&client, "#algo-compare").await;
    wait_until(&client, "document.querySelector('.compare-column')", Duration::from_secs(15), "Compare all").await;
    assert_eq!(folded_but(&client, &[]).await, json!([]), "Compare all opens with its own panels folded");
    let compare = height(&client).await;
    assert!(compare <= 2600, "Compare all is {compare} px tall at 1280");

    // Multi-node: under 3,000 px, the over-admission and the top of the swimlane in the first
    // screen; its own panels folded.
    click(&client, "#mode-cluster").await;
    wait_until(&client, "document.querySelector('#swimlane')", Duration::from_secs(15), "Multi-node").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(folded_but(&client, &[]).await, json!([]), "Multi-node opens with its own panels folded");
    let cluster = height(&client).await;
    assert!(cluster <= 3000, "Multi-node is {cluster} px tall at 1280");
    let first = js(&client, "const r = s => document.querySelector(s).getBoundingClientRect(); return [r('#over-admitted').bottom, r('#swimlane').top];").await;
    assert!(first[0].as_f64().unwrap() < 800.0 && first[1].as_f64().unwrap() < 700.0, "first screen: {first}");
    screenshot(&client, "folds-cluster.png").await;

    // A link to a panel opens it; the whole page is handed the panels as they were.
    client.goto(&format!("{}#server", server.url)).await.unwrap();
    wait_until(&client, "document.querySelector('#server-body #server-load')", Duration::from_secs(15), "#server open")
        .await;
    unfold(&client, "production").await;
    click(&client, "#production-load").await;
    let whole =
        "document.querySelector('#production-snippet') && document.querySelector('#server-body #server-preset-storm')";
    wait_until(&client, whole, Duration::from_secs(15), "the whole page with both panels open").await;
    assert_eq!(folded_but(&client, &["explanation", "server", "production"]).await, json!([]));
    screenshot(&client, "folds-home.png").await;

    // Folded again, a panel's body is gone: it computes nothing.
    click(&client, "#production .fold-toggle").await;
    wait_until(&client, "!document.querySelector('#production-snippet')", Duration::from_secs(3), "folded").await;

    let errors = js(&client, "return window.__e2eErrors;").await;
    assert_eq!(errors, json!([]), "console errors on the page");
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
