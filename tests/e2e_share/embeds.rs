//! Embedding: the Embed button's snippet, the embed layout, and a host page with two sandboxed
//! frames (with the app's own origin, under its CSP) that run independently, report their height
//! and status by `postMessage`, and pause out of view.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::json;

use ratelimit_playground::present::share::snippet::{SANDBOX, SIZER};
use ratelimit_playground::present::share::title::{frame_title, still_name};
use ratelimit_playground::sim::{Nanos, Scenario};

use super::page::{click, js, screenshot, set_control, viewport, wait_until};
use super::{assert_clean, open, save_png, start};

/// The host page: two snippets, a listener that files every message under the frame that sent
/// it (`window.__frames`), and the README's recipe to size a frame from its height messages
/// (only for frames marked `data-autoheight`).
const HOST: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A blog post with two embeds</title><link rel="icon" href="data:,">
<style>body { margin: 0; padding: 16px; font: 16px system-ui; } iframe { display: block; margin: 0 0 16px; }</style>
<script>
window.__frames = [[], []];
addEventListener('message', e => {
  const frames = [...document.querySelectorAll('iframe')];
  const i = frames.findIndex(f => f.contentWindow === e.source);
  if (i < 0 || !e.data || !String(e.data.type).startsWith('ratelimit-playground:')) return;
  window.__frames[i].push(e.data);
  if (e.data.type === 'ratelimit-playground:height' && frames[i].hasAttribute('data-autoheight')) frames[i].style.height = e.data.height + 'px';
});
</script></head>
<body><p>Two playgrounds, one page.</p>FIRST SECOND<div style="height: 3000px"></div></body></html>"#;

/// What a frame looks like from inside: its origin (the app's own), page chrome, the range
/// inputs, the algorithm select, whether the embed CSS applies, whether each stylesheet loaded,
/// and the resources that did not load.
const INSIDE: &str = "const q = s => document.querySelector(s); return { origin: origin, chrome: !!q('.site-header'), ranges: [...document.querySelectorAll('input[type=range]')].map(r => r.id), algo: !!q('select#algo'), styled: getComputedStyle(q('.embed')).display, sheets: [...document.styleSheets].map(s => s.cssRules.length > 0), failed: performance.getEntriesByType('resource').filter(e => e.responseStatus !== 200).map(e => e.name) };";

/// Records errors and CSP violations in a frame from now on (`window.__frameErrors`).
const FRAME_HOOK: &str = "window.__frameErrors = []; const original = console.error.bind(console); console.error = (...a) => { window.__frameErrors.push(a.map(String).join(' ')); original(...a); }; addEventListener('error', e => window.__frameErrors.push('uncaught: ' + e.message)); addEventListener('securitypolicyviolation', e => window.__frameErrors.push('CSP violation: ' + e.violatedDirective));";

/// The newest message of `kind` from frame `i`, or null.
fn last(i: usize, kind: &str) -> String {
    format!("window.__frames[{i}].filter(m => m.type === 'ratelimit-playground:{kind}').pop()")
}

/// Simulated time in frame `i`'s newest status, seconds.
async fn frame_t(client: &Client, i: usize) -> f64 {
    let status = js(client, &format!("return {} || null;", last(i, "status"))).await;
    status["t"].as_f64().unwrap_or(0.0)
}

/// Asserts frame `i` keeps or changes its simulated time over one real second.
async fn assert_running(client: &Client, i: usize, running: bool, what: &str) {
    tokio::time::sleep(Duration::from_millis(400)).await;
    let before = frame_t(client, i).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let after = frame_t(client, i).await;
    assert_eq!(after > before, running, "frame {i} {what}: t went from {before} to {after}");
}

/// The Embed panel's snippet for the page at `url`, after clicking the `toggle` controls' checkboxes.
/// The builder is a wasm module of its own: fetched when the panel opens, not before.
pub(crate) async fn snippet(client: &Client, url: &str, toggle: &[&str]) -> String {
    open(client, url).await;
    let fetched = "return performance.getEntriesByType('resource').filter(r => /ratelimit-embed/.test(r.name)).length;";
    assert_eq!(js(client, fetched).await, 0, "the page fetched the embed builder before the panel opened");
    click(client, "#embed").await;
    // The page's first module hands over to the whole page, which opens the builder.
    let panel = "document.querySelector('#embed-snippet')";
    wait_until(client, panel, Duration::from_secs(15), "the embed panel").await;
    assert!(js(client, fetched).await.as_u64() >= Some(2), "the builder's script and wasm were not fetched");
    for key in toggle {
        click(client, &format!("#embed-with-{key}")).await;
    }
    // The snippet's frame starts at the height the 600 px preview reports, once it has, with a rule
    // through it and the phone preview's for hosts that strip scripts.
    let sized = "document.querySelector('#embed-preview-343[data-measured=true]') && (f => f && document.querySelector('#embed-snippet').value.includes('height=\"' + f.getAttribute('height') + '\"'))(document.querySelector('#embed-preview-600[data-measured=true]'))";
    wait_until(client, sized, Duration::from_secs(15), "the preview reported its height").await;
    let value = js(client, "return document.querySelector('#embed-snippet').value;").await;
    value.as_str().expect("a snippet").to_string()
}

/// `snippet` with its frame's height attribute read out and replaced by `HEIGHT`, and its height
/// rule for hosts that strip scripts (the heights at 600 and 343 px: `height_rule`) checked and
/// replaced by `RULE`.
fn without_height(snippet: &str) -> (u32, String) {
    let at = snippet.find(" height=\"").expect("a height") + " height=\"".len();
    let end = at + snippet[at..].find('"').expect("a closing quote");
    let height: u32 = snippet[at..end].parse().expect("a number");
    let shape = format!("{}HEIGHT{}", &snippet[..at], &snippet[end..]);
    let rule_at = shape.find("; height: max(").expect("a height rule");
    let rule_end = rule_at + shape[rule_at..].find("))\"").expect("the rule's end") + 2;
    let rule = &shape[rule_at..rule_end];
    assert!(rule.starts_with(&format!("; height: max({height}px, min(")), "{rule}");
    (height, format!("{}RULE{}", &shape[..rule_at], &shape[rule_end..]))
}

pub async fn snippet_layout_and_two_frames() {
    let (server, browser, client) = start().await;
    let base = &server.url;

    // The Embed button: a sandboxed, titled, 600 × 400 frame of the current state, stacked over
    // a link to the full page around the still the CLI draws.
    let first = snippet(&client, base, &[]).await;
    // The page (with the builder open) never fetches a frame's own stylesheet.
    let frame_css = "return performance.getEntriesByType('resource').some(r => /embed-[0-9a-f]+\\.css/.test(r.name));";
    assert_eq!(js(&client, frame_css).await, json!(false), "the page fetched embed.css");
    let page = Scenario::from_query("rate=8").expect("the page's scenario");
    let (title, still_file) = (frame_title(&page), still_name(&page, Nanos(0)));
    assert!(title.contains("Token bucket (") && title.ends_with("steady arrivals at 8 requests/s"), "{title}");
    let (height, shape) = without_height(&first);
    // (Three sliders with their number fields: a head too wide for its column wraps its value.)
    assert!((300..=460).contains(&height), "the throughput chart and three sliders are {height} px tall");
    assert_eq!(
        shape,
        format!(
            "<div style=\"display: grid; max-width: 600px\">\n  <a href=\"{base}?rate=8\" style=\"grid-area: 1 / 1\"><img src=\"{still_file}\" alt=\"{title} (a still; open the live playground)\" width=\"600\" loading=\"lazy\" style=\"max-width: 100%; height: auto\"></a>\n  <iframe src=\"{base}?rate=8&amp;embed=1&amp;controls=capacity,refill,rate&amp;show=throughput#embedded\" title=\"{title}\" width=\"600\" height=\"HEIGHT\" sandbox=\"{SANDBOX}\" loading=\"lazy\" data-ratelimit-playground style=\"grid-area: 1 / 1; border: 0; width: 100%RULE\"></iframe>\n</div>\n{SIZER}"
        )
    );
    let second = snippet(&client, &format!("{base}?algo=fixed_window&rate=20"), &["limit", "window", "algo"]).await;
    assert!(second.contains(&format!("sandbox=\"{SANDBOX}\"")), "{second}");
    let fixed = Scenario::from_query("algo=fixed_window&rate=20").expect("a scenario");
    assert!(second.contains(&format!("title=\"{}\"", frame_title(&fixed))), "{second}");
    assert!(second.contains(&format!("<img src=\"{}\"", still_name(&fixed, Nanos(0)))), "{second}");
    assert!(
        second.contains(
            "?algo=fixed_window&amp;rate=20&amp;embed=1&amp;controls=algo,rate&amp;show=throughput#embedded\""
        ),
        "{second}"
    );
    // A product's own key travels into the frame: the builder (a module of its own, without
    // the product models) reads the products' keys all the same.
    let nginx = snippet(&client, &format!("{base}?algo=nginx&nodelay=0&rate=20"), &[]).await;
    assert!(nginx.contains("?algo=nginx&amp;rate=20&amp;nodelay=0&amp;embed=1"), "{nginx}");
    // The seam's widget: no rate control ticked (the attack sets its own times), a title that
    // names no rate; a multi-node one ticks its nodes and store and names them.
    let seam = snippet(&client, &format!("{base}?algo=fixed_window&traffic=seam"), &[]).await;
    assert!(seam.contains("&amp;controls=limit,window&amp;"), "{seam}");
    assert!(seam.contains("the seam attack") && !seam.contains("requests/s"), "{seam}");
    let race = snippet(&client, &format!("{base}?nodes=4&store=race&rate=40&view=cluster"), &[]).await;
    assert!(race.contains("&amp;controls=nodes,store,rate&amp;"), "{race}");
    assert!(race.contains("on 4 nodes sharing a store: GET, then SET\""), "{race}");
    assert!(race.contains("<img src=\"rlp-token_bucket-constant-4-nodes-race.svg\""), "{race}");
    // The writer's own title and alt text.
    set_control(&client, "#embed-title-input", "Four nodes racing", "change").await;
    set_control(&client, "#embed-alt", "The race: 4 nodes admit more than the limit", "change").await;
    let edited = "(v => v.includes('title=\"Four nodes racing\"') && v.includes('alt=\"The race: 4 nodes admit more than the limit\"'))(document.querySelector('#embed-snippet').value)";
    wait_until(&client, edited, Duration::from_secs(3), "the edited title and alt text").await;
    assert_clean(&client, "the Embed button").await;

    // The embed layout: no page chrome, only the chosen controls, a link to the full page; it
    // reports its height (to itself, when it is not in a frame).
    open(&client, &format!("{base}?rate=8&embed=1&controls=rate")).await;
    let layout = js(&client, "const q = s => document.querySelector(s); return { chrome: ['.site-header', '.controls', '#share', '#production', '.playback'].filter(q), ranges: [...document.querySelectorAll('input[type=range]')].map(r => r.id), open: q('#embed-open').href };").await;
    assert_eq!(layout, json!({ "chrome": [], "ranges": ["rate"], "open": format!("{base}?rate=8") }));
    // A frame runs a module of its own: the page's is not fetched.
    let modules = js(&client, "return performance.getEntriesByType('resource').map(r => r.name.split('/').pop()).filter(n => /^ratelimit-.*\\.wasm$/.test(n));").await;
    assert_eq!(modules, json!(["ratelimit-frame_bg.wasm"]), "what an embed link loads");
    let reported = "window.__messages.some(m => m.type === 'ratelimit-playground:height' && m.height > 100)";
    wait_until(&client, reported, Duration::from_secs(3), "a height message").await;
    assert_clean(&client, "the embed layout").await;

    // A third-party page with both snippets, served without the app's CSP.
    let host =
        HOST.replace("FIRST", &first).replace("SECOND", &second.replacen("<iframe ", "<iframe data-autoheight ", 1));
    server.pages.lock().unwrap().push(("/host/two-embeds.html".into(), host));
    // The still under the frames, drawn by the CLI as the Embed panel says.
    let still = super::cli(&["--query", "rate=8", "--format", "svg", "--show", "throughput", "--at", "0"]);
    server.pages.lock().unwrap().push((format!("/host/{still_file}"), still));
    let still =
        super::cli(&["--query", "algo=fixed_window&rate=20", "--format", "svg", "--show", "throughput", "--at", "0"]);
    server.pages.lock().unwrap().push((format!("/host/{}", still_name(&fixed, Nanos(0))), still));
    client.goto(&server.at("/host/two-embeds.html")).await.expect("open the host page");
    let running =
        "window.__frames.every((f, i) => (f.filter(m => m.type === 'ratelimit-playground:status').pop() || {}).t > 3)";
    wait_until(&client, running, Duration::from_secs(20), "both frames run for 3 simulated seconds").await;

    screenshot(&client, "embeds-host.png").await;

    // Each runs its own query: 8 requests/s into a token bucket, 20 into a fixed window.
    let statuses = js(&client, &format!("return [{}, {}];", last(0, "status"), last(1, "status"))).await;
    for (i, rate) in [(0, 8.0), (1, 20.0)] {
        let s = &statuses[i];
        let measured = s["requests"].as_f64().unwrap_or(0.0) / s["t"].as_f64().unwrap_or(1.0);
        assert!((measured - rate).abs() < rate * 0.15, "frame {i} runs at {measured:.1}/s, not {rate}: {s}");
        assert_eq!(s["running"], json!(true));
    }
    let heights = js(
        &client,
        &format!(
            "return [{0}.height, {1}.height, document.querySelectorAll('iframe')[1].clientHeight];",
            last(0, "height"),
            last(1, "height")
        ),
    )
    .await;
    let h: Vec<f64> = serde_json::from_value(heights).expect("heights");
    println!("embed heights: {} px (capacity, refill, rate), {} px (algo, rate)", h[0], h[1]);
    assert!((200.0..=460.0).contains(&h[0]), "the first embed is not about 600 × 440: {h:?}");
    assert!(
        h[1] > 150.0 && (h[2] - h[1]).abs() <= 1.0,
        "the host did not size the second frame from its message: {h:?}"
    );

    // Inside the frames: the chosen controls only; every stylesheet (SRI-checked: main, share and
    // the frame's own embed.css, which first-paint.js added; the whole page's own two stay in their
    // <template>, unfetched) and every other asset loaded.
    // The test's hook may not be in the frames: from here on, a listener records
    // errors and CSP violations in each (checked at the end), and the browser log covers their
    // console.
    let frames = [json!(["capacity", "refill", "rate"]), json!(["rate"])];
    for (i, ranges) in frames.iter().enumerate() {
        client.enter_frame(i as u16).await.expect("enter the frame");
        let inside = js(&client, INSIDE).await;
        let expected = json!({ "origin": server.at(""), "chrome": false, "ranges": ranges, "algo": i == 1, "styled": "grid", "sheets": [true, true, true], "failed": [] });
        assert_eq!(inside, expected, "frame {i}");
        js(&client, FRAME_HOOK).await;
        client.enter_parent_frame().await.expect("back to the host");
    }

    // Independent: pausing the first leaves the second running.
    client.enter_frame(0).await.expect("enter the first frame");
    click(&client, "#play").await;
    client.enter_parent_frame().await.expect("back to the host");
    assert_running(&client, 0, false, "after its Pause").await;
    assert_running(&client, 1, true, "while the first is paused").await;

    // Scrolled out of the host's view, the second waits; back in view, it runs again.
    js(&client, "window.scrollTo(0, 2500);").await;
    assert_running(&client, 1, false, "scrolled out of view").await;
    client.enter_frame(1).await.expect("enter the second frame");
    assert_eq!(super::page::text(&client, "#play-status").await, "waiting while out of view");
    client.enter_parent_frame().await.expect("back to the host");
    js(&client, "window.scrollTo(0, 0);").await;
    assert_running(&client, 1, true, "back in view").await;

    // In a hidden tab it waits too (headless Chromium is never hidden: pretend, inside the frame).
    client.enter_frame(1).await.expect("enter the second frame");
    let hide = |hidden: bool| {
        format!("Object.defineProperty(document, 'hidden', {{ configurable: true, get: () => {hidden} }}); document.dispatchEvent(new Event('visibilitychange'));")
    };
    js(&client, &hide(true)).await;
    client.enter_parent_frame().await.expect("back to the host");
    assert_running(&client, 1, false, "in a hidden tab").await;
    client.enter_frame(1).await.expect("enter the second frame");
    js(&client, &hide(false)).await;
    set_control(&client, "#algo", "sliding_log", "change").await;
    client.enter_parent_frame().await.expect("back to the host");
    assert_running(&client, 1, true, "visible again, on another algorithm").await;

    // The first frame, playing again, as a reader sees it.
    client.enter_frame(0).await.expect("enter the first frame");
    click(&client, "#play").await;
    client.enter_parent_frame().await.expect("back to the host");
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let frame = client.find(Locator::Css("iframe")).await.expect("the first frame");
    save_png("embed.png", &frame.screenshot().await.expect("screenshot the frame"));
    for i in 0..2 {
        client.enter_frame(i).await.expect("enter the frame");
        assert_eq!(js(&client, "return window.__frameErrors;").await, json!([]), "frame {i}: errors or CSP violations");
        client.enter_parent_frame().await.expect("back to the host");
    }

    // At 375 px the content wraps taller: the snippet's own lines size each frame to it (the
    // first frame has no host listener), and Play/Pause does not make the height jump.
    viewport(&client, 375, 800, 1.0, false).await;
    let sized = format!("(() => {{ const m = {}; const f = document.querySelectorAll('iframe')[0]; return m && m.height > 400 && Math.abs(f.clientHeight - Math.ceil(m.height)) <= 1; }})()", last(0, "height"));
    wait_until(&client, &sized, Duration::from_secs(5), "the first frame takes its content's height at 375 px").await;
    // The header (Play/Pause, Step, the title, the clock, the link) is as tall playing as paused.
    client.enter_frame(0).await.expect("enter the first frame");
    // (The clock keeps its width too: the same digits playing as paused, where it once went from
    // "t = 12.500 s" to "t = 16.0 s" and wrapped the header differently at some widths.)
    let head = "return [document.querySelector('.embed-head').getBoundingClientRect().height, /^t = \\d+\\.\\d{3} s$/.test(document.querySelector('#clock').textContent)];";
    let before = js(&client, head).await;
    assert_eq!(before[1], json!(true), "the clock reads to the millisecond");
    for _ in 0..2 {
        click(&client, "#play").await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(js(&client, head).await, before, "Play/Pause changed the header's height at 375 px");
    }
    // Nor does the clock's count of digits as time runs on (set, measured and put back within one script): a
    // slow machine crossed t = 10 s between two readings and the head wrapped by a line.
    let longer = "const c = document.querySelector('#clock'); const was = c.textContent; c.textContent = 't = 987.654 s'; const h = document.querySelector('.embed-head').getBoundingClientRect().height; c.textContent = was; return [h, true];";
    assert_eq!(js(&client, longer).await, before, "a clock with more digits changed the header's height at 375 px");
    client.enter_parent_frame().await.expect("back to the host");
    screenshot(&client, "embeds-host-375.png").await;
    viewport(&client, 1280, 800, 1.0, false).await;

    // "Open in the playground ↗", clicked in a paused frame, opens the full page on its run in a
    // tab, on the same moment, paused: the whole page's module, straight from the loader.
    client.enter_frame(1).await.expect("enter the second frame");
    js(&client, "if (document.querySelector('#play').getAttribute('aria-pressed') === 'true') document.querySelector('#play').click();").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let frame_ns: u64 = js(&client, "return +document.querySelector('#clock').dataset.ns;").await.as_u64().expect("ns");
    assert!(frame_ns > 1_000_000_000, "the frame ran a while: {frame_ns}");
    client.find(Locator::Css("#embed-open")).await.expect("the link").click().await.expect("click it");
    let href = js(&client, "return document.querySelector('#embed-open').href;").await;
    assert!(href.as_str().is_some_and(|h| h.contains("&t=") && h.ends_with("&autoplay=0")), "{href}");
    client.enter_parent_frame().await.expect("back to the host");
    let host_window = client.window().await.expect("this window");
    let mut opened = Vec::new();
    for _ in 0..50 {
        opened = client.windows().await.expect("the windows");
        if opened.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(opened.len(), 2, "the frame's link opened no tab");
    let tab = opened.into_iter().find(|w| *w != host_window).expect("the new tab");
    client.switch_to_window(tab).await.expect("switch to the tab");
    let full = "document.querySelector('#requests') && !location.search.includes('embed=1') && location.search.includes('algo=sliding_log')";
    wait_until(&client, full, Duration::from_secs(15), "the tab shows the full page on the frame's run").await;
    let moment = frame_ns / 1_000_000 * 1_000_000;
    let same = format!("document.querySelector('#clock').dataset.ns === '{moment}' && document.querySelector('#play').getAttribute('aria-pressed') === 'false'");
    wait_until(&client, &same, Duration::from_secs(5), "the tab opens on the frame's moment, paused").await;
    let wasm = "return performance.getEntriesByType('resource').map(r => r.name.split('/').pop()).filter(n => n.endsWith('.wasm'));";
    assert_eq!(
        js(&client, wasm).await,
        json!(["ratelimit-full_bg.wasm"]),
        "a link to a moment loads the whole page at once"
    );
    client.close_window().await.expect("close the tab");
    client.switch_to_window(host_window).await.expect("back to the host page");

    assert_clean(&client, "the host page").await;
    client.close().await.expect("close the session");
    drop(browser);
}
