//! Resilience, in headless Chromium: hostile traces (garbage, NaN, negative and unsorted times,
//! binary junk, an empty file, 100 MB) are refused with a message naming the problem while the app
//! keeps running and still replays a good trace; a hidden tab or an embed scrolled out of view
//! holds the clock at 1 000 requests/s and 100×, and comes back without a burst or a long frame;
//! ten busy simulated minutes (and five more comparing all five) never show NaN, infinity or a
//! negative number.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fantoccini::{Client, Locator};
use ratelimit_playground::present::clock::{MAX_STEPS, STEP};
use serde_json::{json, Value};

use super::browser::BrowserLog;
use super::harness::FRAME_PROBE;
use super::page::{cdp, click, clock_ns, counters, js, set_control, slide, text, unfold, wait_until};
use super::{launch, one_browser_at_a_time, open_app};

/// Playback speed of the busy tests, simulated seconds per real second.
const SPEED: f64 = 100.0;
/// The most simulated time one frame may release, in ns (src/present/clock.rs).
const FRAME_CAP_NS: f64 = MAX_STEPS as f64 * STEP.as_nanos() as f64;
/// The most script time any frame after a return may take, in ms.
const FRAME_BUDGET_MS: f64 = 50.0;
/// How far simulated time may run ahead of the real time since the first frame after a return ×
/// [`SPEED`], in ns: one 10 ms step carried over, and 0.2 ms of timer coarsening at 100×.
const AHEAD_SLACK_NS: f64 = STEP.as_nanos() as f64 + 0.2e6 * SPEED;
/// How long the busy tests stay hidden or out of view.
const HOLD: Duration = Duration::from_millis(1_500);
/// How long frames are measured after coming back.
const AFTER_RETURN: Duration = Duration::from_secs(2);

/// The engine's wording for a line that is not a time (src/sim/trace.rs).
const NOT_A_TIME: &str = "is not a time in milliseconds (0 to 86400000, decimals allowed)";
/// Hostile traces, each pasted and uploaded: the text, and the exact message the page shows.
const HOSTILE: [(&str, &str); 4] = [
    ("0\n10\nsoon\n", "trace line 3: 'soon' is not a time in milliseconds (0 to 86400000, decimals allowed)"),
    ("0\n5\nNaN\n12\n", "trace line 3: 'NaN' is not a time in milliseconds (0 to 86400000, decimals allowed)"),
    ("0\n-5\n10\n", "trace line 2: '-5' is not a time in milliseconds (0 to 86400000, decimals allowed)"),
    ("0\n10\n5\n20\n", "trace line 3: 5 ms is earlier than the line before it; arrival times must be in order"),
];
/// A 100 MiB upload: refused by its size.
const HUGE_MESSAGE: &str = "trace: 104.9 MB is too large; at most 16.8 MB and 1 million arrivals are accepted";
/// An empty upload.
const EMPTY_MESSAGE: &str = "trace: no arrival times found (one time in ms per line, # for comments)";

/// Records every change of the simulated clock as `[performance.now(), data-ns]` in
/// `window.__ticks`, the moment it happens.
const CLOCK_WATCH: &str = "window.__ticks = []; const clock = document.querySelector('#clock'); new MutationObserver(() => window.__ticks.push([performance.now(), Number(clock.dataset.ns)])).observe(clock, { attributes: true, attributeFilter: ['data-ns'] });";

/// Counts the files the page reads in `window.__reads` (the app reads uploads with
/// `FileReader.readAsText`).
const READ_COUNTER: &str = "window.__reads = 0; const read = FileReader.prototype.readAsText; FileReader.prototype.readAsText = function (...a) { window.__reads++; return read.apply(this, a); };";

/// Records errors in a sandboxed frame (where the harness's hook is not injected).
const FRAME_HOOK: &str = "window.__e2eErrors = []; const original = console.error.bind(console); console.error = (...a) => { window.__e2eErrors.push(a.map(String).join(' ')); original(...a); }; addEventListener('error', e => window.__e2eErrors.push('uncaught: ' + e.message)); addEventListener('unhandledrejection', e => window.__e2eErrors.push('unhandled rejection: ' + String(e.reason)));";

/// Every 500 ms, what the page shows as text and in its attributes (`data-*`, `aria-*`, `title`),
/// checked for NaN, infinity ("inf" is how Rust prints it), "undefined" and a minus sign or
/// hyphen right before a digit that does not follow a letter or digit (so "GET-then-SET",
/// "λ − r" and ranges like "1–10" pass). Offending excerpts go to `window.__soak.bad`.
const SOAK_SAMPLER: &str = r#"
window.__soak = { samples: 0, bad: [] };
const shown = () => document.body.innerText + '\n' + [...document.querySelectorAll('*')].flatMap(e => [...e.attributes]
  .filter(a => a.name.startsWith('data-') || a.name.startsWith('aria-') || a.name === 'title')
  .map(a => a.name + '=' + a.value)).join('\n');
const wrong = /\b(NaN|inf|Infinity|undefined)\b|∞|(^|[^\p{L}\p{N}_.,)\]])[-\u2212\u2013]\d/mu;
window.__soakTimer = setInterval(() => {
  const t = shown(), m = t.match(wrong);
  window.__soak.samples++;
  if (m) window.__soak.bad.push(t.slice(Math.max(0, m.index - 80), m.index + 80));
}, 500);
"#;

/// Pretends the tab is hidden or visible again (headless Chromium is never hidden).
fn set_hidden(hidden: bool) -> String {
    format!("Object.defineProperty(document, 'hidden', {{ configurable: true, get: () => {hidden} }}); document.dispatchEvent(new Event('visibilitychange'));")
}

/// A folder of trace files, removed when dropped.
struct TraceFiles(PathBuf);

impl TraceFiles {
    fn new() -> TraceFiles {
        let dir = std::env::temp_dir().join(format!("rlp-e2e-resilience-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("create the trace folder");
        TraceFiles(dir)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).expect("write a trace file");
        path.to_str().expect("a UTF-8 temp path").to_string()
    }
}

impl Drop for TraceFiles {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A line of a megabyte of binary junk (no newline, no '#'), after a good first line.
fn binary_junk() -> Vec<u8> {
    let mut bytes = b"0\n\xff\xfe\x00\x01junk".to_vec();
    let mut x: u32 = 12_345;
    while bytes.len() < 1 << 20 {
        x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        let b = (x >> 16) as u8;
        if !matches!(b, b'\n' | b'\r' | b'#') {
            bytes.push(b);
        }
    }
    bytes
}

/// Waits until `#trace-message` passes `test` (a JS expression on its text `m`) and returns it.
async fn trace_message_where(client: &Client, test: &str, what: &str) -> String {
    let condition = format!("(e => !!e && (m => {test})(e.textContent))(document.querySelector('#trace-message'))");
    wait_until(client, &condition, Duration::from_secs(5), what).await;
    text(client, "#trace-message").await
}

/// Waits until `#trace-message` reads exactly `expected`, and checks it is shown as an error or not.
async fn expect_message(client: &Client, expected: &str, error: bool, what: &str) {
    let literal = serde_json::to_string(expected).unwrap();
    trace_message_where(client, &format!("m === {literal}"), &format!("{what}: {expected:?}")).await;
    let class = js(client, "return document.querySelector('#trace-message').className;").await;
    assert_eq!(class, json!(if error { "error" } else { "ok" }), "{what}: how the message is shown");
}

/// Uploads the file at `path` through the real file input.
async fn upload(client: &Client, path: &str) {
    let input = client.find(Locator::Css("#trace-file")).await.expect("the file input");
    input.clear().await.ok();
    input.send_keys(path).await.unwrap_or_else(|e| panic!("upload {path}: {e}"));
}

/// Files the page has read so far.
async fn reads(client: &Client) -> u64 {
    js(client, "return window.__reads;").await.as_u64().expect("the read counter is installed")
}

/// No crash notice, no error recorded in this document, and simulated time still runs.
async fn assert_alive(client: &Client, what: &str) {
    let crashed =
        js(client, "return document.querySelector('#crash') && document.querySelector('#crash').textContent;");
    assert_eq!(crashed.await, Value::Null, "{what}: the crash notice is shown");
    assert_eq!(js(client, "return window.__e2eErrors;").await, json!([]), "{what}: errors on the page");
    let before = clock_ns(client).await;
    let runs = format!("Number(document.querySelector('#clock').dataset.ns) > {before}");
    wait_until(client, &runs, Duration::from_secs(3), &format!("{what}: simulated time runs")).await;
}

/// Nothing severe in the browser log (all frames' consoles).
async fn assert_quiet_log(client: &Client, what: &str) {
    let logs = client.issue_cmd(BrowserLog).await.expect("read the browser log");
    let severe: Vec<&Value> = logs.as_array().into_iter().flatten().filter(|e| e["level"] == "SEVERE").collect();
    assert!(severe.is_empty(), "{what}: severe browser log entries: {severe:?}");
}

#[test]
fn hostile_traces_are_refused_with_a_message_naming_the_problem_and_a_good_trace_still_replays() {
    one_browser_at_a_time(refuse_hostile_traces());
}

async fn refuse_hostile_traces() {
    let started = Instant::now();
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;
    js(&client, READ_COUNTER).await;
    // The first module has no trace tools: choosing "Replay my traffic" hands over to the whole
    // page, which opens on the same choice.
    set_control(&client, "#traffic", "trace", "change").await;
    wait_until(&client, "document.querySelector('#trace-text')", Duration::from_secs(15), "the trace box").await;
    let whole = "return performance.getEntriesByType('resource').some(e => e.name.endsWith('ratelimit-full_bg.wasm'));";
    assert_eq!(js(&client, whole).await, json!(true), "the whole page draws the trace box");
    assert_eq!(js(&client, "return document.querySelector('#traffic').value;").await, json!("trace"));
    assert_eq!(
        js(&client, "return document.activeElement.id;").await,
        json!("traffic"),
        "the focus stays on the choice"
    );
    let files = TraceFiles::new();

    // After each refusal, a good paste is still accepted (and it changes the message, so the next
    // refusal is seen anew).
    let good = "0\n100\n200\n";
    let accept_good = |what: &'static str| {
        let client = &client;
        async move {
            set_control(client, "#trace-text", good, "input").await;
            click(client, "#trace-use").await;
            expect_message(client, "3 arrivals over 200 ms", false, what).await;
        }
    };

    for (i, (trace, message)) in HOSTILE.iter().enumerate() {
        set_control(&client, "#trace-text", trace, "input").await;
        click(&client, "#trace-use").await;
        expect_message(&client, message, true, &format!("pasted {trace:?}")).await;
        assert_alive(&client, &format!("after pasting {trace:?}")).await;
        accept_good("a good paste after a refused paste").await;

        let before = reads(&client).await;
        upload(&client, &files.write(&format!("hostile-{i}.txt"), trace.as_bytes())).await;
        expect_message(&client, message, true, &format!("uploaded {trace:?}")).await;
        assert_eq!(reads(&client).await, before + 1, "uploaded {trace:?}: read once");
        assert_alive(&client, &format!("after uploading {trace:?}")).await;
        accept_good("a good paste after a refused upload").await;
    }

    // A megabyte of binary junk on line 2: named by line, and clipped rather than echoed back.
    upload(&client, &files.write("junk.bin", &binary_junk())).await;
    let junk = trace_message_where(
        &client,
        &format!("m.startsWith(\"trace line 2: '\") && m.endsWith(\"…' {NOT_A_TIME}\")"),
        "binary junk is refused by line",
    )
    .await;
    assert!(junk.chars().count() < 160, "the junk is echoed back: {} characters", junk.chars().count());
    assert_alive(&client, "after binary junk").await;
    accept_good("a good paste after binary junk").await;

    // An empty file.
    upload(&client, &files.write("empty.txt", b"")).await;
    expect_message(&client, EMPTY_MESSAGE, true, "an empty upload").await;
    accept_good("a good paste after an empty upload").await;

    // 100 MiB (sparse: all NUL bytes): refused by its size, without being read.
    let huge = files.0.join("huge.txt");
    std::fs::File::create(&huge).and_then(|f| f.set_len(100 * 1024 * 1024)).expect("a sparse 100 MiB file");
    let before = reads(&client).await;
    let offered = Instant::now();
    upload(&client, huge.to_str().unwrap()).await;
    expect_message(&client, HUGE_MESSAGE, true, "a 100 MiB upload").await;
    let refused_in = offered.elapsed();
    assert_eq!(reads(&client).await, before, "the 100 MiB file was read before it was refused");
    assert_alive(&client, "after a 100 MiB upload").await;

    // Afterwards a good file is accepted and replayed: 2 000 arrivals, one per ms.
    let times: String = (0..2_000).map(|ms| format!("{ms}\n")).collect();
    set_control(&client, "#speed", "10", "change").await;
    upload(&client, &files.write("good.txt", times.as_bytes())).await;
    expect_message(&client, "2,000 arrivals over 2.00 s", false, "a good upload").await;
    let replayed = "document.querySelector('#requests').textContent === '2,000' && Number(document.querySelector('#clock').dataset.ns) > 3e9";
    wait_until(&client, replayed, Duration::from_secs(10), "the good trace is replayed to its end").await;
    let [requests, admitted, rejected] = counters(&client).await;
    assert_eq!((requests, admitted + rejected), (2_000, 2_000), "every arrival of the trace is decided once");
    assert_alive(&client, "after the replay").await;
    assert_quiet_log(&client, "hostile traces").await;

    println!(
        "hostile traces refused (100 MiB in {} ms, unread); junk message: {junk:?}; test took {:.1} s",
        refused_in.as_millis(),
        started.elapsed().as_secs_f64()
    );
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

/// In the app's document: waits until its loop is held, then returns the simulated time it holds
/// at (and starts recording frames and clock changes anew).
async fn held_at(client: &Client, what: &str) -> u64 {
    let held = "document.querySelector('#play-status').textContent === 'waiting while out of view'";
    wait_until(client, held, Duration::from_secs(3), &format!("{what}: the loop waits")).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    js(client, &format!("window.__frames = []; {CLOCK_WATCH}")).await;
    clock_ns(client).await
}

/// In the app's document, after [`HOLD`]: the clock still reads `held` and no frame of the app ran.
async fn assert_still_held(client: &Client, held: u64, what: &str) {
    assert_eq!(clock_ns(client).await, held, "{what}: simulated time moved");
    let frames = js(client, "return window.__frames.length;").await;
    assert_eq!(frames, json!(0), "{what}: the app's frame loop kept running");
    assert_eq!(js(client, "return window.__ticks.length;").await, json!(0), "{what}: the clock changed");
}

/// How far, at worst, simulated time ran ahead of the real time since the app's first frame after
/// the return × [`SPEED`], over every clock change since then, in ns. The loop counts no time in
/// that first frame, so only a carried-over step (and timer coarsening) may show; a burst for the
/// missed time would show as seconds.
async fn worst_ahead(client: &Client, held: u64) -> f64 {
    let seen = js(client, "return [window.__frames.map(f => f[0]), window.__ticks];").await;
    let first_frame = seen[0].as_array().into_iter().flatten().filter_map(Value::as_f64).fold(f64::INFINITY, f64::min);
    let ticks = seen[1].as_array().cloned().unwrap_or_default();
    let ahead = |t: &Value| {
        let (at, ns) = (t[0].as_f64().unwrap_or(0.0), t[1].as_f64().unwrap_or(0.0));
        ns - held as f64 - (at - first_frame).max(0.0) * 1e6 * SPEED
    };
    ticks.iter().map(ahead).fold(f64::NEG_INFINITY, f64::max)
}

/// Script time of each app frame recorded since the probe was last reset, in ms.
async fn frame_costs(client: &Client) -> Vec<f64> {
    let raw = js(client, "return window.__frames;").await;
    let mut per_frame = std::collections::BTreeMap::<u64, f64>::new();
    for f in raw.as_array().into_iter().flatten() {
        let (ts, ms) = (f[0].as_f64().unwrap_or(0.0), f[1].as_f64().unwrap_or(0.0));
        *per_frame.entry((ts * 1000.0) as u64).or_default() += ms;
    }
    per_frame.into_values().collect()
}

/// In the app's document, for [`AFTER_RETURN`] after it came back at `returned`: simulated time
/// never gets ahead of what the real time since then allows at [`SPEED`] plus one frame's cap, nor
/// (timed in the page) of the real time since its first frame by more than [`AHEAD_SLACK_NS`]: no
/// burst for the time it missed; it does run again, and no frame takes over [`FRAME_BUDGET_MS`].
async fn assert_resumes_gently(client: &Client, held: u64, returned: Instant, what: &str) {
    let mut first = None;
    let mut advance = 0.0;
    while returned.elapsed() < AFTER_RETURN {
        let now = clock_ns(client).await;
        let elapsed = returned.elapsed().as_secs_f64();
        advance = now.saturating_sub(held) as f64;
        let allowed = elapsed * SPEED * 1e9 + FRAME_CAP_NS;
        assert!(
            advance <= allowed,
            "{what}: {:.1} simulated s within {:.0} ms of coming back (at most {:.1} s): a burst",
            advance / 1e9,
            elapsed * 1e3,
            allowed / 1e9
        );
        first.get_or_insert((advance, elapsed));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let elapsed = returned.elapsed().as_secs_f64();
    assert!(advance >= 10e9, "{what}: only {:.1} simulated s in {elapsed:.1} s after coming back", advance / 1e9);
    let costs = frame_costs(client).await;
    let max = costs.iter().copied().fold(0.0, f64::max);
    let (first_advance, first_at) = first.unwrap_or_default();
    let ahead = worst_ahead(client, held).await;
    println!(
        "{what}: {:.2} simulated s at the first look ({:.0} ms after), at worst {:.1} ms ahead of real time × {SPEED} \
         since the first frame, {:.1} s after {elapsed:.1} s ({:.0}×); frames: {} over {:.0} ms, max {max:.1} ms script",
        first_advance / 1e9,
        first_at * 1e3,
        ahead / 1e6,
        advance / 1e9,
        advance / 1e9 / elapsed,
        costs.len(),
        AFTER_RETURN.as_millis(),
    );
    assert!(
        ahead <= AHEAD_SLACK_NS,
        "{what}: simulated time ran {:.0} ms ahead of the real time since the first frame after coming back: a burst",
        ahead / 1e6
    );
    assert!(costs.len() >= 10, "{what}: only {} frames in {elapsed:.1} s after coming back", costs.len());
    assert!(max <= FRAME_BUDGET_MS, "{what}: a frame took {max:.1} ms of script after coming back: {costs:?}");
}

#[test]
fn a_hidden_tab_holds_the_clock_and_comes_back_without_a_burst_or_a_long_frame() {
    one_browser_at_a_time(hide_and_return());
}

async fn hide_and_return() {
    let started = Instant::now();
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": FRAME_PROBE })).await;
    open_app(&client, &server).await;
    slide(&client, "rate", 800, "1,000 requests per second").await;
    set_control(&client, "#speed", "100", "change").await;
    wait_until(&client, "Number(document.querySelector('#clock').dataset.ns) > 20e9", Duration::from_secs(5), "busy")
        .await;

    js(&client, &set_hidden(true)).await;
    let held = held_at(&client, "hidden").await;
    tokio::time::sleep(HOLD).await;
    assert_still_held(&client, held, "hidden").await;

    let returned = Instant::now();
    js(&client, &set_hidden(false)).await;
    assert_resumes_gently(&client, held, returned, "visible again").await;
    js(&client, "delete document.hidden;").await;
    assert_alive(&client, "after the hidden tab").await;
    assert_quiet_log(&client, "a hidden tab").await;

    println!("hidden tab test took {:.1} s", started.elapsed().as_secs_f64());
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

/// The pixels of canvas `id`, as a data URL.
async fn pixels(client: &Client, id: &str) -> Value {
    js(client, &format!("return document.querySelector('{id}').toDataURL();")).await
}

#[test]
fn a_chart_scrolled_out_of_view_is_not_drawn_and_is_current_the_moment_it_comes_back() {
    one_browser_at_a_time(charts_out_of_view());
}

async fn charts_out_of_view() {
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;
    // The whole page, whose production panel is tall enough to scroll the charts away.
    unfold(&client, "production").await;
    click(&client, "#production-load").await;
    let whole = "document.querySelector('#production-snippet')";
    wait_until(&client, whole, Duration::from_secs(15), "the whole page has taken over").await;
    set_control(&client, "#speed", "10", "change").await;
    // The production panel at the bottom in view: the playground still plays, its charts are away.
    js(&client, "document.querySelector('#strip').scrollIntoView(); document.querySelector('#production').scrollIntoView({ block: 'end' });").await;
    let away = "['#strip', '#chart'].every(id => { const r = document.querySelector(id).getBoundingClientRect(); return r.bottom < 0; })";
    assert_eq!(js(&client, &format!("return {away};")).await, json!(true), "the charts are out of view");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (strip, chart, t0) =
        (pixels(&client, "#strip").await, pixels(&client, "#chart").await, clock_ns(&client).await);
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert!(clock_ns(&client).await > t0 + 2_000_000_000, "the playground kept playing");
    assert_eq!(pixels(&client, "#strip").await, strip, "the request strip was drawn while out of view");
    assert_eq!(pixels(&client, "#chart").await, chart, "the throughput chart was drawn while out of view");

    // Printing (here: saving as PDF) draws every chart first, as it is now, then leaves those out
    // of view alone again.
    let pdf = cdp(&client, "Page.printToPDF", json!({ "printBackground": true })).await;
    assert!(pdf["data"].as_str().is_some_and(|d| d.len() > 10_000), "a PDF of the page");
    let printed = pixels(&client, "#chart").await;
    assert_ne!(printed, chart, "the throughput chart was not drawn for printing");
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(pixels(&client, "#chart").await, printed, "after printing, the chart out of view is left alone");
    let chart = printed;

    // An export draws every chart first: the PNG is of now, not of when the chart was last seen.
    js(&client, "document.querySelector('#export-png').click();").await;
    let drawn = format!("document.querySelector('#chart').toDataURL() !== {chart}");
    wait_until(&client, &drawn, Duration::from_secs(2), "the throughput chart drawn for the export").await;

    // Back in view, the strip is drawn at once.
    js(&client, "document.querySelector('#strip').scrollIntoView({ block: 'center' });").await;
    let drawn = format!("document.querySelector('#strip').toDataURL() !== {strip}");
    wait_until(&client, &drawn, Duration::from_secs(1), "the request strip drawn back in view").await;
    assert_quiet_log(&client, "charts out of view").await;
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

/// A long third-party page with one busy embed at the top (the Embed button's sandbox).
const HOST: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A long post with a busy embed</title><link rel="icon" href="data:,">
<style>body { margin: 0; padding: 16px; font: 16px system-ui; } iframe { display: block; border: 0; }</style></head>
<body><iframe src="SRC" title="Rate limiter playground" width="600" height="400" sandbox="allow-scripts"></iframe>
<div style="height: 3000px"></div></body></html>"#;

#[test]
fn an_embed_scrolled_out_of_view_holds_the_clock_and_comes_back_without_a_burst_or_a_long_frame() {
    one_browser_at_a_time(scroll_away_and_back());
}

async fn scroll_away_and_back() {
    let started = Instant::now();
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": super::ERROR_HOOK })).await;
    super::page::viewport(&client, 1280, 800, 1.0, false).await;
    let src = format!("{}?rate=1000&amp;embed=1&amp;controls=speed", server.url);
    server.pages.lock().unwrap().push(("/host/busy-embed.html".into(), HOST.replace("SRC", &src)));
    client.goto(&server.at("/host/busy-embed.html")).await.expect("open the host page");

    client.enter_frame(0).await.expect("enter the embed");
    let mounted = "document.querySelector('#requests') && document.querySelector('#speed')";
    wait_until(&client, mounted, Duration::from_secs(15), "the embed has mounted").await;
    js(&client, FRAME_HOOK).await;
    js(&client, FRAME_PROBE).await;
    set_control(&client, "#speed", "100", "change").await;
    wait_until(&client, "Number(document.querySelector('#clock').dataset.ns) > 20e9", Duration::from_secs(5), "busy")
        .await;
    client.enter_parent_frame().await.expect("back to the host");

    js(&client, "window.scrollTo(0, 2500);").await;
    client.enter_frame(0).await.expect("enter the embed");
    let held = held_at(&client, "out of view").await;
    tokio::time::sleep(HOLD).await;
    assert_still_held(&client, held, "out of view").await;
    client.enter_parent_frame().await.expect("back to the host");

    let returned = Instant::now();
    js(&client, "window.scrollTo(0, 0);").await;
    client.enter_frame(0).await.expect("enter the embed");
    assert_resumes_gently(&client, held, returned, "back in view").await;
    assert_alive(&client, "the embed after scrolling back").await;
    client.enter_parent_frame().await.expect("back to the host");
    assert_eq!(js(&client, "return window.__e2eErrors;").await, json!([]), "errors on the host page");
    assert_quiet_log(&client, "an embed out of view").await;

    println!("embed out of view test took {:.1} s", started.elapsed().as_secs_f64());
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}

#[test]
fn ten_busy_simulated_minutes_never_show_nan_infinity_or_a_negative_number() {
    one_browser_at_a_time(soak());
}

async fn soak() {
    let started = Instant::now();
    let (server, browser, client) = launch().await;
    open_app(&client, &server).await;
    slide(&client, "rate", 800, "1,000 requests per second").await;
    set_control(&client, "#speed", "100", "change").await;
    js(&client, SOAK_SAMPLER).await;

    let single = Instant::now();
    let ten_minutes = "Number(document.querySelector('#clock').dataset.ns) >= 600e9";
    wait_until(&client, ten_minutes, Duration::from_secs(40), "10 simulated minutes").await;
    let single = single.elapsed().as_secs_f64();
    let [requests, admitted, rejected] = counters(&client).await;
    assert_eq!(admitted + rejected, requests, "every request is decided once");
    assert!(requests >= 590_000, "{requests} requests in 10 minutes at 1 000/s");

    // Then all five side by side, on the same load, for five more simulated minutes.
    click(&client, "#algo-compare").await;
    let compare = Instant::now();
    let five_minutes = "document.querySelectorAll('.compare-column').length === 5 && Number(document.querySelector('#clock').dataset.ns) >= 300e9";
    wait_until(&client, five_minutes, Duration::from_secs(40), "5 simulated minutes comparing").await;
    let compare = compare.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_millis(600)).await; // one more sample of the final state

    let soaked = js(&client, "clearInterval(window.__soakTimer); return window.__soak;").await;
    let samples = soaked["samples"].as_u64().unwrap_or(0);
    assert_eq!(soaked["bad"], json!([]), "NaN, infinity, undefined or a negative number on the page");
    assert!(samples >= 10, "only {samples} samples");
    assert_alive(&client, "after the soak").await;
    assert_quiet_log(&client, "the soak").await;

    println!(
        "soak: 10 simulated minutes in {single:.1} s, 5 comparing in {compare:.1} s, {samples} clean samples; test took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
