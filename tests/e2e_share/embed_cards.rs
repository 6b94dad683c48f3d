//! An embed of any card at any moment: every card of the page (single-node, compare and
//! multi-node) draws in an embed; `t=` opens on the counts the CLI's still gives for that moment,
//! `autoplay=0` stays paused until Play or Step; Step back undoes a Step and Reset returns to `t=`; the caption is text, never markup; `theme=`
//! overrides the reader's system. Then the Embed panel as a builder: the previews at 600 and
//! 343 px (a post on a 375 px phone) load exactly the snippet's address, and the still command it shows runs.

use std::time::Duration;

use serde_json::{json, Value};

use super::page::{cdp, click, clock_ns, counters, js, set_control, text, viewport, wait_until, PIXELS_OF};
use super::stills::still_counts;
use super::{assert_clean, cli, open, save_png, start};

/// Per card of the embed, in order: its name, its height, whether every canvas in it drew
/// something (a pixel that is not the top-left one), and its text length.
const CARDS: &str = "return [...document.querySelectorAll('.embed-card')].map(c => { const canvases = [...c.querySelectorAll('canvas')]; const drawn = canvases.every(k => { if (k.width === 0) return false; const d = pixelsOf(k); for (let i = 4; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2] || d[i + 3] !== d[3]) return true; return false; }); return { card: c.dataset.card, height: Math.round(c.getBoundingClientRect().height), drawn, text: c.textContent.trim().length }; });";

/// Asserts the embed shows exactly `names`, each at least 60 px tall, drawn and with text.
async fn assert_cards(client: &fantoccini::Client, names: &[&str], what: &str) {
    tokio::time::sleep(Duration::from_millis(300)).await;
    let cards = js(client, &format!("{PIXELS_OF}{CARDS}")).await;
    let shown: Vec<&str> = cards.as_array().expect("cards").iter().filter_map(|c| c["card"].as_str()).collect();
    assert_eq!(shown, names, "{what}: the cards shown");
    for c in cards.as_array().unwrap() {
        assert!(c["height"].as_u64().unwrap_or(0) >= 60, "{what}: {c} is too small to be drawn");
        assert_eq!(c["drawn"], json!(true), "{what}: {c} has a blank canvas");
        assert!(c["text"].as_u64().unwrap_or(0) > 3, "{what}: {c} has no text");
    }
}

pub async fn cards_moment_caption_theme_and_builder() {
    let (server, browser, client) = start().await;
    let base = &server.url;

    // Every single-node card, at t = 12.5 s, paused, with a caption that tries to be markup.
    let caption = r#"100 per window <img src=x onerror="window.__xss=1"> & a seam"#;
    let encoded: String = caption.bytes().map(|b| format!("%{b:02X}")).collect();
    let query = "rate=8&algo=fixed_window";
    open(
        &client,
        &format!("{base}?{query}&embed=1&show=throughput,state,steady,strip,response,stats&t=12.5&autoplay=0&caption={encoded}"),
    )
    .await;
    assert_cards(&client, &["throughput", "state", "steady", "strip", "response", "stats"], "single-node").await;
    assert_eq!(clock_ns(&client).await, 12_500_000_000, "t=12.5 opens at 12.5 s");
    let still = cli(&["--query", query, "--format", "svg", "--show", "throughput", "--at", "12.5"]);
    assert_eq!(counters(&client).await, still_counts(&still), "the embed at t = 12.5 s and the CLI's still");
    let written = js(&client, "const c = document.querySelector('#embed-caption'); return { text: c.textContent, children: c.children.length, xss: window.__xss || null };").await;
    assert_eq!(written, json!({ "text": caption, "children": 0, "xss": null }), "the caption is text");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(clock_ns(&client).await, 12_500_000_000, "autoplay=0 stays paused");
    assert_eq!(text(&client, "#play-status").await, "paused");
    click(&client, "#step").await;
    let stepped = clock_ns(&client).await;
    assert!(stepped > 12_500_000_000 && stepped <= 12_625_000_000, "Step runs the next arrival (8/s): {stepped}");
    // Step back undoes a Step exactly (clock and counters); Reset, after playing, comes back to
    // the moment the embed opened on, paused, with the CLI's counts there.
    let after_one = counters(&client).await;
    click(&client, "#step").await;
    assert_ne!(clock_ns(&client).await, stepped, "a second Step");
    click(&client, "#step-back").await;
    assert_eq!((clock_ns(&client).await, counters(&client).await), (stepped, after_one), "Step back undoes the Step");
    click(&client, "#step-back").await;
    click(&client, "#step-back").await;
    assert!(clock_ns(&client).await < 12_500_000_000, "Step back goes on before the opening moment");
    click(&client, "#play").await;
    tokio::time::sleep(Duration::from_millis(700)).await;
    click(&client, "#embed-reset").await;
    assert_eq!(clock_ns(&client).await, 12_500_000_000, "Reset: back to t=12.5");
    assert_eq!(counters(&client).await, still_counts(&still), "Reset: the counts at t = 12.5 s");
    assert_eq!(text(&client, "#play-status").await, "paused");
    assert_eq!(
        js(&client, "return document.querySelector('#embed-reset').title;").await,
        json!("Pause and go back to t = 12.500 s, where it opened")
    );
    save_png("embed-cards.png", &client.screenshot().await.expect("screenshot"));
    assert_clean(&client, "an embed of every single-node card").await;

    // Compare mode's columns, and the multi-node cards (with an outage, so that card has one).
    open(&client, &format!("{base}?rate=8&embed=1&show=compare,throughput&t=20")).await;
    assert_cards(&client, &["compare", "throughput"], "compare").await;
    let columns =
        js(&client, "return document.querySelectorAll('.embed-card[data-card=compare] canvas').length;").await;
    assert!(columns.as_u64().unwrap_or(0) >= 5, "five algorithms side by side: {columns}");
    let cluster = "nodes=4&store=race&rtt=20&rate=40&outage=2-4";
    let all = ["topology", "swimlane", "code", "nodes", "rtt", "sweep", "outage", "throughput", "stats"];
    open(&client, &format!("{base}?{cluster}&embed=1&show={}&t=6&autoplay=0", all.join(","))).await;
    assert_cards(&client, &all, "multi-node").await;
    let still = cli(&["--query", cluster, "--format", "svg", "--show", "topology", "--at", "6"]);
    assert_eq!(counters(&client).await, still_counts(&still), "the multi-node embed at t = 6 s and the CLI's still");
    save_png("embed-cluster-cards.png", &client.screenshot().await.expect("screenshot"));
    assert_clean(&client, "an embed of every multi-node card").await;

    // The server's cards (issue #37): the retry storm half a minute in, as the CLI's still has it.
    let storm =
        "capacity=1000000&refill=1000000&traffic=poisson&rate=600&retry=backoff&retries=10&workers=8&service=10\
                 &client_timeout=200&spike=10-20&spike_rate=600";
    let server = ["server_load", "server_latency", "server_queue"];
    open(&client, &format!("{base}?{storm}&embed=1&show={}&t=30&autoplay=0", server.join(","))).await;
    assert_cards(&client, &server, "the server's cards").await;
    let still = cli(&["--query", storm, "--format", "svg", "--show", "server_load", "--at", "30"]);
    assert_eq!(counters(&client).await, still_counts(&still), "the server's embed at t = 30 s and the CLI's still");
    save_png("embed-server-cards.png", &client.screenshot().await.expect("screenshot"));
    assert_clean(&client, "an embed of the server's cards").await;

    // The fix inside one widget: a multi-node frame with the nodes, the store and the round trip;
    // paused at 10 s, switching GET-then-SET to the atomic script re-runs to the same moment and
    // the over-admission is gone.
    let race = "nodes=4&store=race&rtt=50&rate=100&traffic=poisson&embed=1&controls=nodes,store,rtt&show=throughput,stats&t=10&autoplay=0";
    open(&client, &format!("{base}?{race}")).await;
    let controls = "return { ranges: [...document.querySelectorAll('.embed-controls input[type=range]')].map(r => r.id), stores: [...document.querySelectorAll('#store option')].map(o => o.value) };";
    let shown = js(&client, controls).await;
    assert_eq!(shown["ranges"], json!(["nodes", "rtt"]), "{shown}");
    assert!(shown["stores"].as_array().is_some_and(|s| s.contains(&json!("race")) && s.contains(&json!("atomic"))));
    let over = "return (d => [+d.dataset.admitted, +d.dataset.reference])(document.querySelector('#over-admitted'));";
    let [admitted, reference]: [u64; 2] = serde_json::from_value(js(&client, over).await).expect("two counts");
    assert!(admitted > reference, "GET then SET over-admits at 10 s: {admitted} against {reference}");
    set_control(&client, "#store", "atomic", "change").await;
    let exact = "(d => +d.dataset.admitted > 0 && +d.dataset.admitted <= +d.dataset.reference)(document.querySelector('#over-admitted')) && document.querySelector('#clock').dataset.ns === '10000000000'";
    wait_until(&client, exact, Duration::from_secs(5), "the atomic script admits no more than the exact limiter").await;
    assert_clean(&client, "a multi-node widget's controls").await;
    // A one-node widget leaves them out and says why.
    open(&client, &format!("{base}?rate=8&embed=1&controls=nodes,rate")).await;
    let ranges = "return [...document.querySelectorAll('.embed-controls input[type=range]')].map(r => r.id);";
    assert_eq!(js(&client, ranges).await, json!(["rate"]));
    let notice = text(&client, "#link-notice").await;
    assert!(notice.contains("controls: 'nodes' is a multi-node widget's control"), "{notice}");

    // Cards the scenario cannot show are named in the notice; what is left is shown.
    open(&client, &format!("{base}?rate=8&embed=1&show=topology,state,chart,server_queue")).await;
    assert_cards(&client, &["state"], "a single-node scenario").await;
    let notice = text(&client, "#link-notice").await;
    assert!(notice.contains("'chart' is not a card") && notice.contains("'topology' is a multi-node card"), "{notice}");
    assert!(notice.contains("'server_queue' shows the server behind the limiter"), "{notice}");
    // The frame's module reads only links without a notice: this one it handed to the whole page's.
    let wasm = "return performance.getEntriesByType('resource').map(r => r.name.split('/').pop()).filter(n => n.endsWith('.wasm'));";
    assert_eq!(
        js(&client, wasm).await,
        json!(["ratelimit-frame_bg.wasm", "ratelimit-full_bg.wasm"]),
        "a frame with a notice"
    );
    open(&client, &format!("{base}?rate=8&embed=1&show=state,throughput&t=3&caption=Plain&theme=light")).await;
    assert_cards(&client, &["state", "throughput"], "a clean embed link").await;
    assert_eq!(js(&client, wasm).await, json!(["ratelimit-frame_bg.wasm"]), "a clean embed link");

    // The theme: forced dark or light over the reader's dark system, or the system's.
    cdp(
        &client,
        "Emulation.setEmulatedMedia",
        json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
    )
    .await;
    let background = "return getComputedStyle(document.body).backgroundColor;";
    for (theme, colour) in [("light", "rgb(244, 246, 249)"), ("auto", "rgb(15, 18, 23)"), ("dark", "rgb(15, 18, 23)")] {
        open(&client, &format!("{base}?rate=8&embed=1&theme={theme}&show=throughput,state,steady,strip&t=20&autoplay=0&caption=Dark%20mode")).await;
        let bg = js(&client, background).await;
        assert_eq!(bg, json!(colour), "theme={theme}");
    }
    save_png("embed-dark.png", &client.screenshot().await.expect("screenshot"));
    cdp(&client, "Emulation.setEmulatedMedia", json!({ "features": [] })).await;

    // The builder: tick a card, set the moment, the caption and the theme; both previews load the
    // snippet's address, and the still command draws the same moment.
    open(&client, &format!("{base}?{query}")).await;
    click(&client, "#embed").await;
    // The page's first module hands over to the whole page, which opens the builder.
    let builder = "document.querySelector('#embed-card-state')";
    wait_until(&client, builder, Duration::from_secs(15), "the builder").await;
    click(&client, "#embed-card-state").await;
    set_control(&client, "#embed-t", "12.5", "change").await;
    set_control(&client, "#embed-caption-input", "The seam, at 12.5 s", "change").await;
    click(&client, "#embed-autoplay").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let snippet = js(&client, "return document.querySelector('#embed-snippet').value;").await;
    let snippet = snippet.as_str().expect("a snippet").to_string();
    let src =
        snippet.split("<iframe src=\"").nth(1).and_then(|s| s.split('"').next()).expect("a src").replace("&amp;", "&");
    assert!(src.ends_with("&embed=1&controls=limit,window,rate&show=throughput,state&t=12.5&autoplay=0&caption=The%20seam%2C%20at%2012.5%20s#embedded"), "{src}");
    let previews = js(
        &client,
        "return [...document.querySelectorAll('.embed-preview iframe')].map(f => [f.getAttribute('src'), f.width]);",
    )
    .await;
    assert_eq!(previews, json!([[src, "600"], [src, "343"]]), "the previews load the snippet");
    super::page::full_page_screenshot(&client, "embed-builder.png", 1280).await;
    client.enter_frame(0).await.expect("the 600 px preview");
    wait_until(
        &client,
        "document.querySelector('#clock') && document.querySelectorAll('.embed-card').length === 2",
        Duration::from_secs(15),
        "the preview mounted",
    )
    .await;
    let inside = js(&client, "return { cards: [...document.querySelectorAll('.embed-card')].map(c => c.dataset.card), caption: document.querySelector('#embed-caption').textContent, ns: document.querySelector('#clock').dataset.ns, counts: ['requests', 'admitted', 'rejected'].map(id => document.getElementById(id).textContent.replace(/,/g, '')) };").await;
    // Sized from its own height message: the whole embed shows, without a scroll bar.
    wait_until(
        &client,
        "document.documentElement.scrollHeight <= innerHeight + 1",
        Duration::from_secs(5),
        "the preview fits its content",
    )
    .await;
    client.enter_parent_frame().await.expect("back to the page");
    let sized = "const f = document.querySelector('#embed-preview-600'); return document.querySelector('#embed-snippet').value.includes('height=\"' + f.getAttribute('height') + '\"');";
    assert_eq!(js(&client, sized).await, json!(true), "the snippet starts at the height the preview reported");
    let command = text(&client, "#embed-svg-command").await;
    let args = shell_words(&command);
    assert_eq!(args[0], "ratelimit-sim", "{command}");
    let still = cli(&args[1..args.len() - 2].iter().map(String::as_str).collect::<Vec<_>>());
    let counts: Vec<String> = still_counts(&still).iter().map(u64::to_string).collect();
    assert_eq!(
        inside,
        json!({ "cards": ["throughput", "state"], "caption": "The seam, at 12.5 s", "ns": "12500000000", "counts": counts }),
        "the preview, and the CLI's still of the command shown ({command})"
    );
    assert!(still.contains("Throughput") && still.contains("Inner state"), "the still draws the same cards");

    // On a phone, the builder stacks; the 375 px preview fits.
    viewport(&client, 375, 800, 2.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let scroll = js(&client, "return document.documentElement.scrollWidth;").await;
    assert!(scroll.as_u64().unwrap_or(999) <= 375, "the builder scrolls sideways at 375 px: {scroll}");
    js(&client, "document.querySelector('#embed-panel').scrollIntoView();").await;
    save_png("embed-builder-375.png", &client.screenshot().await.expect("screenshot"));
    js(&client, "document.querySelector('#embed-preview-343').scrollIntoView();").await;
    save_png("embed-builder-375-preview.png", &client.screenshot().await.expect("screenshot"));
    assert_clean(&client, "the builder").await;
    let _: Value = js(&client, "return null;").await;
    client.close().await.expect("close the session");
    drop(browser);
}

/// Splits a command line as a POSIX shell would for single-quoted words (what the builder
/// writes): `'…'` is literal, `'\''` a quote.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let (mut quoted, mut any) = (false, false);
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if !quoted => {
                if let Some(n) = chars.next() {
                    word.push(n);
                }
            }
            ' ' if !quoted => {
                if any || !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                any = false;
            }
            c => word.push(c),
        }
    }
    if any || !word.is_empty() {
        words.push(word);
    }
    words
}
