//! Links: the address holds the whole run, Share copies it, bad parameters are named, and a
//! link's exact values survive the controls.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use super::page::{click, counters, js, screenshot, set_control, slide, text, wait_until};
use super::{assert_clean, open, start};

/// A run that only repeats if the seed is restored: Poisson arrivals into GCRA.
const RUN: &str = "?algo=gcra&rate=12&seed=42&traffic=poisson&capacity=7";
/// The same run as the page writes it back: the engine's key order.
const CANONICAL: &str = "?algo=gcra&capacity=7&rate=12&seed=42&traffic=poisson";

/// Replaces the Clipboard API with a recorder (`window.__copied`), or removes it.
async fn stub_clipboard(client: &Client, available: bool) {
    let value = if available {
        "{ writeText: t => { window.__copied.push(t); return Promise.resolve(); } }"
    } else {
        "undefined"
    };
    js(client, &format!("window.__copied = []; Object.defineProperty(navigator, 'clipboard', {{ configurable: true, value: {value} }});")).await;
}

/// Pauses, starts over, and computes the first simulated minute; returns the counters.
async fn first_minute(client: &Client) -> [u64; 3] {
    if text(client, "#play").await == "Pause" {
        click(client, "#play").await;
    }
    click(client, "#reset").await;
    click(client, "#jump-60").await;
    let done = "Number(document.querySelector('#clock').dataset.ns) === 60e9";
    wait_until(client, done, Duration::from_secs(10), "a minute is computed").await;
    counters(client).await
}

/// The controls as the page shows them: algorithm, capacity, rate, traffic, seed.
async fn controls(client: &Client) -> Value {
    js(
        client,
        "const q = s => document.querySelector(s); return [q('input[name=algo]:checked').value, q('#capacity').getAttribute('aria-valuetext'), q('#rate').getAttribute('aria-valuetext'), q('#traffic').value, q('#seed').value];",
    )
    .await
}

pub async fn restore_and_share() {
    let (server, browser, client) = start().await;

    // The link sets every control, and the address is rewritten in the canonical order.
    let url = format!("{}{RUN}", server.url);
    open(&client, &url).await;
    let shown = json!(["gcra", "7 tokens", "12 requests per second", "poisson", "42"]);
    assert_eq!(controls(&client).await, shown);
    let canonical = format!("location.search === '{CANONICAL}'");
    wait_until(&client, &canonical, Duration::from_secs(3), "the address is canonical").await;
    let first = first_minute(&client).await;
    assert!(first[2] > 0, "GCRA at 12/s into 5/s rejects: {first:?}");

    // A second load of the same address runs exactly the same minute; another seed does not.
    open(&client, &url).await;
    assert_eq!(controls(&client).await, shown);
    assert_eq!(first_minute(&client).await, first, "the same link gave another run");
    open(&client, &url.replace("seed=42", "seed=43")).await;
    assert_ne!(first_minute(&client).await, first, "the seed is not part of the run");

    // Share copies the current link, which is also the address once edits settle.
    open(&client, &url).await;
    stub_clipboard(&client, true).await;
    slide(&client, "rate", 381, "8 requests per second").await;
    click(&client, "#share").await;
    wait_until(
        &client,
        "document.querySelector('#share-status')?.textContent === 'Copied.'",
        Duration::from_secs(3),
        "copied",
    )
    .await;
    let link = js(&client, "return document.querySelector('#share-link').value;").await;
    let link = link.as_str().expect("the link field").to_string();
    assert_eq!(link, format!("{}?algo=gcra&capacity=7&rate=8&seed=42&traffic=poisson", server.url));
    assert_eq!(js(&client, "return window.__copied;").await, json!([link]));
    let settled = format!("location.href === {link:?}");
    wait_until(&client, &settled, Duration::from_secs(3), "the address follows the edit").await;

    // Without a Clipboard API (an insecure page, some frames) the link is selected instead.
    stub_clipboard(&client, false).await;
    click(&client, "#share").await;
    let selected = "document.querySelector('#share-status')?.textContent.includes('Ctrl+C')";
    wait_until(&client, selected, Duration::from_secs(3), "the fallback message").await;
    let selection = js(
        &client,
        "const i = document.querySelector('#share-link'); return [i.selectionStart, i.selectionEnd, i.value.length];",
    )
    .await;
    let n = link.len();
    assert_eq!(selection, json!([0, n, n]), "the whole link is selected for Ctrl/Cmd+C");
    assert_clean(&client, "sharing").await;

    // The shared link opens on the edited run.
    open(&client, &link).await;
    assert_eq!(controls(&client).await, json!(["gcra", "7 tokens", "8 requests per second", "poisson", "42"]));
    assert_clean(&client, "the shared link").await;
    client.close().await.expect("close the session");
    drop(browser);
}

pub async fn bad_parameters() {
    let (server, browser, client) = start().await;
    open(&client, &format!("{}?nodes=99&rate=abc&bogus=1", server.url)).await;
    wait_until(&client, "document.querySelector('#link-notice')", Duration::from_secs(3), "the notice").await;
    let named =
        js(&client, "return [...document.querySelectorAll('#link-notice li')].map(li => li.dataset.param);").await;
    assert_eq!(named, json!(["bogus", "nodes", "rate"]));
    let notice = text(&client, "#link-notice").await;
    for words in [
        "3 parameters of this link were not used as given",
        "bogus: is not a known parameter",
        "nodes: 99 is out of range; allowed: from 1 to 16 nodes; using 16",
        "rate: 'abc' is not a number",
    ] {
        assert!(notice.contains(words), "{words:?} not in {notice:?}");
    }
    wait_until(&client, "location.search.includes('nodes=16')", Duration::from_secs(3), "the address is rewritten")
        .await;
    let search = js(&client, "return location.search;").await;
    let search = search.as_str().unwrap_or_default().to_string();
    assert!(!search.contains("bogus"), "{search}");
    screenshot(&client, "share-notice.png").await;
    click(&client, "#link-notice-close").await;
    wait_until(
        &client,
        "getComputedStyle(document.querySelector('#link-notice')).display === 'none'",
        Duration::from_secs(2),
        "dismissed",
    )
    .await;

    // A trace cannot travel in a link: constant traffic, and a notice that says so.
    open(&client, &format!("{}?traffic=trace&algo=fixed_window", server.url)).await;
    let named =
        js(&client, "return [...document.querySelectorAll('#link-notice li')].map(li => li.dataset.param);").await;
    assert_eq!(named, json!(["traffic"]));
    assert!(text(&client, "#link-notice").await.contains("trace is not part of a link"));
    assert_eq!(js(&client, "return document.querySelector('#traffic').value;").await, json!("constant"));

    // A clean link shows no notice.
    open(&client, &format!("{}?rate=8", server.url)).await;
    assert_eq!(js(&client, "return document.querySelector('#link-notice');").await, Value::Null);
    assert_clean(&client, "bad parameters").await;
    client.close().await.expect("close the session");
    drop(browser);
}

/// The number field, the slider's spoken value and the note under the slider named `id`.
async fn reading(client: &Client, id: &str) -> Value {
    js(
        client,
        &format!("const q = s => document.querySelector(s); return [q('#{id}-field').value, q('#{id}').getAttribute('aria-valuetext'), q('#{id}').closest('.slider').querySelector('.field-note')?.textContent ?? ''];"),
    )
    .await
}

/// Presses `key` (a WebDriver key code) on the element matching `selector`.
async fn press(client: &Client, selector: &str, key: &str) {
    let el = client.find(fantoccini::Locator::Css(selector)).await.unwrap_or_else(|e| panic!("{selector}: {e}"));
    el.send_keys(key).await.unwrap_or_else(|e| panic!("keys to {selector}: {e}"));
}

pub async fn exact_values() {
    const LEFT: &str = "\u{E012}";
    const RIGHT: &str = "\u{E014}";
    let (server, browser, client) = start().await;
    open(&client, &format!("{}?capacity=500&refill=12.5&rate=20", server.url)).await;
    click(&client, "#play").await;
    assert_eq!(reading(&client, "capacity").await, json!(["500", "500 tokens", ""]));
    assert_eq!(reading(&client, "refill").await, json!(["12.5", "12.5 tokens per second", ""]));

    // A nudge moves an exact value one step, beyond the slider's usual end too; never back into it.
    press(&client, "#capacity", LEFT).await;
    assert_eq!(reading(&client, "capacity").await, json!(["499", "499 tokens", ""]));
    press(&client, "#refill", RIGHT).await;
    assert_eq!(reading(&client, "refill").await, json!(["12.6", "12.6 tokens per second", ""]));

    // The field takes the engine's whole range at the key's precision, and the link follows.
    set_control(&client, "#capacity-field", "250000", "change").await;
    set_control(&client, "#refill-field", "1234.567", "change").await;
    assert_eq!(reading(&client, "capacity").await, json!(["250000", "250,000 tokens", ""]));
    assert_eq!(reading(&client, "refill").await, json!(["1234.567", "1,235 tokens per second", ""]));
    let linked = "location.search.includes('capacity=250000') && location.search.includes('refill=1234.567')";
    wait_until(&client, linked, Duration::from_secs(3), "the address follows the fields").await;

    // What it cannot take as typed is clamped or kept, and the note under it says why.
    set_control(&client, "#capacity-field", "-5", "change").await;
    assert_eq!(
        reading(&client, "capacity").await,
        json!(["1", "1 token", "Capacity: -5 is out of range; allowed: from 1 to 1000000 tokens; using 1"])
    );
    set_control(&client, "#capacity-field", "7.5", "change").await;
    assert_eq!(
        reading(&client, "capacity").await,
        json!([
            "1",
            "1 token",
            "Capacity: 7.5 is more precise than it takes; allowed: from 1 to 1000000 tokens; unchanged"
        ])
    );
    set_control(&client, "#refill-field", "0.0001", "change").await;
    let note = "Refill rate: 0.0001 is more precise than it takes; allowed: from 0.001 to 1000000 tokens/s; unchanged";
    assert_eq!(reading(&client, "refill").await, json!(["1234.567", "1,235 tokens per second", note]));
    // The next good value clears the note.
    set_control(&client, "#refill-field", "0.001", "change").await;
    assert_eq!(reading(&client, "refill").await, json!(["0.001", "0.001 tokens per second", ""]));
    screenshot(&client, "exact-values.png").await;
    assert_clean(&client, "number fields").await;
    client.close().await.expect("close the session");
    drop(browser);
}
