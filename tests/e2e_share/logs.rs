//! "Your traffic", driven as a user would: a sample in one click and the same log uploaded give
//! the CLI's numbers on the same file (report and recommendation), gzipped too, and two logs
//! at once are merged by time as the CLI merges them; Apply moves the playground and
//! the production panel (a bucket's capacity and refill, or a window algorithm's limit and window
//! only), says so under its button and points on; the heaviest client replays live in the
//! playground; a large upload shows progress and Cancel stops it, and bad files are refused by
//! line (those two in `log_errors.rs`); and analysing asks the server
//! for nothing but the worker's code (a new worker per log, ended when it is done so its memory
//! goes back).

use std::path::Path;
use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::Value;

use super::page::{click, js, set_control, text, viewport, wait_until};
use super::{assert_clean, cli, load_panel, open, start};

/// The page's policy and seed (the sample is generated from the seed, as the CLI's).
const QUERY: &str = "capacity=10&refill=1&rate=8&seed=7";

/// The report's numbers: requests, admitted, rejected, keys, keys throttled.
async fn report(client: &Client) -> [u64; 5] {
    let v = js(client, "const d = document.querySelector('#log-report').dataset; return [d.requests, d.admitted, d.rejected, d.keys, d.throttled].map(Number);").await;
    serde_json::from_value(v).expect("five numbers")
}

/// Waits for the sizing table (the analysis's last answer) and returns its recommendation.
async fn analysed(client: &Client, what: &str) -> String {
    wait_until(client, "document.querySelector('#log-sizing')", Duration::from_secs(60), what).await;
    let rec = js(client, "return document.querySelector('#log-sizing').dataset.recommended;").await;
    rec.as_str().unwrap_or_default().to_string()
}

pub(crate) async fn upload(client: &Client, file: &Path) {
    upload_all(client, &[file]).await;
}

/// Chooses `files` at once in the (multiple) file input.
async fn upload_all(client: &Client, files: &[&Path]) {
    let input = client.find(Locator::Css("#log-file")).await.expect("the log file input");
    let paths: Vec<&str> = files.iter().map(|f| f.to_str().expect("a UTF-8 path")).collect();
    input.send_keys(&paths.join("\n")).await.expect("choose the files");
}

/// `plain` gzipped, as logrotate leaves a log.
pub(crate) fn gzip(plain: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(plain).unwrap();
    z.finish().unwrap()
}

/// The CLI's report of `log` under `query`: the same five numbers, and the recommendation.
fn cli_report(log: &Path, query: &str) -> ([u64; 5], String) {
    cli_report_of(&[log], query)
}

/// [`cli_report`] of several logs merged by time.
fn cli_report_of(logs: &[&Path], query: &str) -> ([u64; 5], String) {
    let mut args = vec!["--query", query];
    for log in logs {
        args.extend(["--log", log.to_str().unwrap()]);
    }
    let r: Value = serde_json::from_str(&cli(&args)).expect("JSON");
    let n = |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("no {k} in {r}"));
    args.push("--sweep");
    let sized: Value = serde_json::from_str(&cli(&args)).expect("JSON");
    let rec = sized["recommended"]["policy"].as_str().unwrap_or_default().to_string();
    ([n("requests"), n("admitted"), n("rejected"), n("keys"), n("keys_throttled")], rec)
}

/// The policy `--sweep` recommends for `log` under `query` with `extra` arguments.
fn cli_sweep(log: &Path, query: &str, extra: &[&str]) -> String {
    let mut args = vec!["--query", query, "--log", log.to_str().unwrap(), "--sweep"];
    args.extend(extra);
    let sized: Value = serde_json::from_str(&cli(&args)).expect("JSON");
    sized["recommended"]["policy"].as_str().unwrap_or_default().to_string()
}

/// Paths of the requests the server saw from index `from` on.
fn requests_since(server: &super::server::StaticServer, from: usize) -> Vec<(u16, String)> {
    server.log.lock().unwrap()[from..].to_vec()
}

/// The page's scenario as a query (its address).
async fn applied_query(client: &Client) -> String {
    js(client, "return location.search.slice(1);").await.as_str().unwrap_or_default().to_string()
}

/// The first `n` lines of the log at `path`, as one text.
fn first_lines(path: &Path, n: usize) -> String {
    std::fs::read_to_string(path).unwrap().lines().take(n).map(|l| format!("{l}\n")).collect()
}

/// Whether every request is a GET (the server answers others 404) of the worker's three files:
/// its code, never the log.
fn only_worker_code(requests: &[(u16, String)]) -> bool {
    let files = ["ratelimit-logs_loader.js", "ratelimit-logs.js", "ratelimit-logs_bg.wasm"];
    requests.iter().all(|(s, p)| *s == 200 && files.iter().any(|f| p.ends_with(&format!("/{f}"))))
}

#[test]
fn a_log_is_analysed_in_the_page_as_the_cli_does() {
    super::one_browser_at_a_time(drive_logs());
}

async fn drive_logs() {
    let (server, _browser, client) = start().await;
    open(&client, &format!("{}?{QUERY}", server.url)).await;
    load_panel(&client, "#logs-load", "#log-file", "log-sample-api").await;
    let dir = std::env::temp_dir().join(format!("rlp-e2e-logs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sample = dir.join("api.log");
    std::fs::write(&sample, cli(&["--sample-log", "api", "--minutes", "10", "--query", QUERY])).unwrap();
    let (expected, expected_rec) = cli_report(&sample, QUERY);
    assert!(expected[2] > 0 && expected[4] >= 4, "the sample has throttled keys: {expected:?}");

    let privacy = text(&client, "#log-privacy").await;
    assert!(privacy.starts_with("Nothing is uploaded"), "{privacy}");
    let before = server.log.lock().unwrap().len();
    assert!(
        requests_since(&server, 0).iter().all(|(_, p)| !p.contains("ratelimit-logs")),
        "the worker loads on first use only"
    );

    // One click on the sample: the CLI's numbers on the same bytes.
    click(&client, "#log-sample-api").await;
    let rec = analysed(&client, "the sample is analysed").await;
    assert_eq!(report(&client).await, expected, "the page's report is the CLI's");
    assert_eq!(rec, expected_rec, "the page recommends what the CLI does");
    let summary = text(&client, "#log-summary").await;
    assert!(summary.contains("saw at least one 429") && summary.contains("combined format"), "{summary}");
    let fetched = requests_since(&server, before);
    assert!(!fetched.is_empty() && only_worker_code(&fetched), "analysing fetched only the worker's code: {fetched:?}");
    let charts = js(
        &client,
        "return [...document.querySelectorAll('#log-results svg')].map(s => s.getBoundingClientRect().width);",
    )
    .await;
    assert_eq!(charts.as_array().map(Vec::len), Some(3), "rejections over time, and the two trade-offs: {charts}");
    let rows = js(&client, "return document.querySelectorAll('#log-top-keys tbody tr').length;").await;
    assert_eq!(rows.as_u64(), Some(expected[4].min(20)), "one row per throttled key");

    // The same log uploaded: the same numbers, and not one request.
    let before = server.log.lock().unwrap().len();
    upload(&client, &sample).await;
    wait_until(&client, "document.querySelector('#log-source') && document.querySelector('#log-source').textContent.includes('api.log')", Duration::from_secs(30), "the upload is reported").await;
    analysed(&client, "the upload is analysed").await;
    assert_eq!(report(&client).await, expected, "uploaded, the same report");
    let again = requests_since(&server, before);
    assert!(only_worker_code(&again), "a second analysis asks for nothing but the worker's code: {again:?}");

    // Gzip, as logrotate leaves yesterday's log: the same numbers.
    let gz = dir.join("api.log.2.gz");
    std::fs::write(&gz, gzip(&std::fs::read(&sample).unwrap())).unwrap();
    upload(&client, &gz).await;
    wait_until(&client, "document.querySelector('#log-source')?.textContent.includes('api.log.2.gz') && document.querySelector('#log-sizing')", Duration::from_secs(30), "the gzip log is analysed").await;
    assert_eq!(report(&client).await, expected, "gzipped, the same report");
    // Two servers' logs at once, one of them gzip: merged by time, as the CLI merges them.
    let whole = std::fs::read_to_string(&sample).unwrap();
    let (mut a, mut b) = (String::new(), String::new());
    for (i, line) in whole.lines().enumerate() {
        let server = if i % 2 == 0 { &mut a } else { &mut b };
        server.push_str(line);
        server.push('\n');
    }
    let (a_path, b_path) = (dir.join("server-a.log"), dir.join("server-b.log.gz"));
    std::fs::write(&a_path, a).unwrap();
    std::fs::write(&b_path, gzip(b.as_bytes())).unwrap();
    upload_all(&client, &[&a_path, &b_path]).await;
    wait_until(&client, "document.querySelector('#log-source')?.textContent.includes('merged by time') && document.querySelector('#log-sizing')", Duration::from_secs(30), "the two logs are analysed").await;
    let (both, both_rec) = cli_report_of(&[&a_path, &b_path], QUERY);
    assert_eq!(report(&client).await, both, "merged, the CLI's report of the same two files");
    assert_eq!(both[0], expected[0], "every request of both");
    let rec = js(&client, "return document.querySelector('#log-sizing').dataset.recommended;").await;
    assert_eq!(rec.as_str(), Some(both_rec.as_str()), "and its recommendation");
    upload(&client, &sample).await;
    wait_until(&client, "document.querySelector('#log-source')?.textContent.includes('api.log (') && document.querySelector('#log-sizing')", Duration::from_secs(30), "the plain log again").await;
    viewport(&client, 1280, 1000, 1.0, false).await;
    js(&client, "document.querySelector('#logs').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    super::save_element(&client, "#logs", "logs.png").await;

    eprintln!("logs: sample and upload agree with the CLI");
    // Four servers behind round robin, each with its own counters: the CLI's --scope numbers,
    // and what they change against one counter shared by all.
    set_control(&client, "#log-scope", "instance", "change").await;
    assert_eq!(
        js(&client, "return document.querySelector('#log-instances-label').hidden;").await,
        serde_json::json!(false)
    );
    set_control(&client, "#log-instances", "4", "change").await;
    click(&client, "#log-sample-api").await;
    wait_until(
        &client,
        "document.querySelector('#log-scope-report') && document.querySelector('#log-sizing')",
        Duration::from_secs(60),
        "the scoped report",
    )
    .await;
    let scoped: Value = serde_json::from_str(&cli(&[
        "--query",
        QUERY,
        "--log",
        sample.to_str().unwrap(),
        "--scope",
        "instance",
        "--instances",
        "4",
        "--placement",
        "rr",
    ]))
    .unwrap();
    let n = |k: &str| scoped[k].as_u64().unwrap();
    assert_eq!(
        report(&client).await,
        [n("requests"), n("admitted"), n("rejected"), n("keys"), n("keys_throttled")],
        "the page's scoped report is the CLI's"
    );
    let shown = js(&client, "const d = document.querySelector('#log-scope-report').dataset; return [d.globalAdmitted, d.newlySpared, d.newlyThrottled].map(Number);").await;
    let s = &scoped["scope"];
    let count = |k: &str| s[k].as_array().unwrap().len() as u64;
    assert_eq!(
        shown,
        serde_json::json!([s["global"]["admitted"].as_u64().unwrap(), count("newly_spared"), count("newly_throttled")]),
        "{s}"
    );
    assert_eq!(report(&client).await[1], n("admitted"));
    let words = text(&client, "#log-scope-report").await;
    assert!(
        words.starts_with("Counted with a counter per key on each of 4 instances, placed by round robin"),
        "{words}"
    );
    set_control(&client, "#log-instances", "0", "change").await;
    click(&client, "#log-sample-api").await;
    wait_until(
        &client,
        "document.querySelector('#log-status')?.textContent.includes('instances: 0 is below 1; using 1')",
        Duration::from_secs(30),
        "the clamped count is named",
    )
    .await;
    set_control(&client, "#log-scope", "global", "change").await;
    assert_eq!(
        js(&client, "return document.querySelector('#log-instances-label').hidden;").await,
        serde_json::json!(true)
    );
    click(&client, "#log-sample-api").await;
    wait_until(
        &client,
        "!document.querySelector('#log-scope-report') && document.querySelector('#log-sizing')",
        Duration::from_secs(60),
        "one counter again",
    )
    .await;
    assert_eq!(report(&client).await, expected, "one counter: the report of before");
    eprintln!("logs: counters per server as the CLI keeps them");
    // The current policy already throttles the sample's outliers and no one else: the advice
    // is to keep it, with nothing to apply.
    assert_eq!(expected_rec, "capacity=10&refill=1", "the CLI keeps the current policy too");
    let advice = text(&client, "#log-recommendation").await;
    assert!(advice.starts_with("Keep the current policy."), "{advice}");
    assert_eq!(js(&client, "return !document.querySelector('#log-apply');").await, serde_json::json!(true));
    // With a share of keys as the objective (the CLI's --target-keys 2), a tighter policy to apply.
    set_control(&client, "#log-objective", "target", "change").await;
    set_control(&client, "#log-target", "2", "change").await;
    click(&client, "#log-sample-api").await;
    let tighter = cli_sweep(&sample, QUERY, &["--target-keys", "2"]);
    assert_ne!(tighter, expected_rec, "a 2 % target changes the advice");
    let shown = format!("document.querySelector('#log-sizing')?.dataset.recommended === '{tighter}'");
    wait_until(&client, &shown, Duration::from_secs(30), "the page recommends what the CLI does for 2 %").await;
    // Apply: the playground and the production panel take the policy; it says so under the
    // button, with the next steps, and does not call the report stale for its own recommendation.
    // (Where it spares a key the current policy throttles, the first press only asks to confirm.)
    click(&client, "#log-apply").await;
    if js(&client, "return !!document.querySelector('#log-apply[data-armed]');").await == serde_json::json!(true) {
        assert!(text(&client, "#log-apply").await.ends_with("press again to confirm"));
        click(&client, "#log-apply").await;
    }
    let (cap, refill) = {
        let p = tighter.split('&').collect::<Vec<_>>();
        (p[0].to_string(), p[1].to_string())
    };
    // (The link leaves out a value at its default: capacity=10 is the page's own.)
    let (cap_value, refill_value) = (cap.trim_start_matches("capacity="), refill.trim_start_matches("refill="));
    let applied = format!(
        "(q => (q.get('capacity') ?? '10') === '{cap_value}' && q.get('refill') === '{refill_value}')(new URLSearchParams(location.search))"
    );
    wait_until(&client, &applied, Duration::from_secs(5), "the URL carries the applied policy").await;
    // The confirmation's link opens the production panel (folded until then) and goes to it.
    let confirmed = "document.querySelector('#log-apply + #log-applied a')";
    wait_until(&client, confirmed, Duration::from_secs(3), "the confirmation under the button").await;
    click(&client, "#log-applied a").await;
    wait_until(&client, "document.querySelector('#production-body')", Duration::from_secs(3), "the panel opens").await;
    let production = text(&client, "#production-policy").await;
    let value = |kv: &str| kv.split('=').nth(1).unwrap().to_string();
    assert!(production.contains(&value(&cap)), "the production panel follows: {production}");
    let confirmed = "document.querySelector('#log-apply + #log-applied')";
    wait_until(&client, confirmed, Duration::from_secs(3), "the confirmation under the button").await;
    let said = text(&client, "#log-applied").await;
    assert!(said.starts_with("Applied: ") && said.contains("production config"), "{said}");
    let next = js(&client, "return document.querySelector('#log-applied a').getAttribute('href');").await;
    assert_eq!(next, serde_json::json!("#production"), "the way to the production config");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(js(&client, "return !document.querySelector('#log-stale');").await, serde_json::json!(true));

    // Watch the heaviest client live: the playground replays its requests under the policy.
    let chosen = js(&client, "const o = document.querySelector('#log-watch-key option:checked'); return [o.dataset.key, o.dataset.times.split(',').length];").await;
    let (key, n) = (chosen[0].as_str().expect("a key").to_string(), chosen[1].as_u64().expect("a count"));
    assert!(n > 100, "the heaviest client of the sample sends more than 100 requests: {n}");
    click(&client, "#log-watch-go").await;
    wait_until(
        &client,
        "document.querySelector('#log-watch-go + #log-watching')",
        Duration::from_secs(3),
        "the replay is announced",
    )
    .await;
    let watching = text(&client, "#log-watching").await;
    assert!(watching.contains(&key) && watching.contains("burst"), "{watching}");
    super::save_element(&client, "#log-sizing", "logs-applied.png").await;
    wait_until(
        &client,
        "location.search.includes('traffic=trace')",
        Duration::from_secs(3),
        "the playground replays a trace",
    )
    .await;
    // It starts a second before the key's first request: something happens at once.
    let first = "Number(document.querySelector('#requests').textContent.replace(/,/g, '')) > 0";
    wait_until(&client, first, Duration::from_secs(6), "the replay's first request within seconds").await;
    click(&client, "#play").await; // pause, then run to the end of the key's requests
    for _ in 0..2 {
        click(&client, "#jump-600").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    let all = format!("Number(document.querySelector('#requests').textContent.replace(/,/g, '')) === {n}");
    wait_until(&client, &all, Duration::from_secs(10), "every request of the key is replayed").await;
    assert_eq!(
        js(&client, "return !document.querySelector('#log-stale');").await,
        serde_json::json!(true),
        "a replay changes no policy"
    );
    // Replaying the log under the applied policy, with the playground's own traffic back, running.
    set_control(&client, "#traffic", "constant", "change").await;
    click(&client, "#play").await;
    click(&client, "#log-again").await;
    wait_until(
        &client,
        "!document.querySelector('#log-stale') && document.querySelector('#log-sizing')",
        Duration::from_secs(60),
        "analysed again",
    )
    .await;
    let [_, _, _, keys, throttled] = report(&client).await;
    assert!(
        throttled as f64 <= keys as f64 * 0.02,
        "under the recommendation for 2 % at most 2 % of keys are throttled: {throttled} of {keys}"
    );

    // An option changed also makes the report stale: per path, the CLI's keys again.
    set_control(&client, "#log-key", "path", "change").await;
    wait_until(
        &client,
        "document.querySelector('#log-stale')",
        Duration::from_secs(3),
        "a new key makes the report stale",
    )
    .await;
    click(&client, "#log-again").await;
    wait_until(
        &client,
        "!document.querySelector('#log-stale') && document.querySelector('#log-sizing')",
        Duration::from_secs(60),
        "analysed per path",
    )
    .await;
    let by_path: Value = serde_json::from_str(&cli(&[
        "--query",
        &applied_query(&client).await,
        "--log",
        sample.to_str().unwrap(),
        "--key",
        "path",
    ]))
    .unwrap();
    assert_eq!(report(&client).await[3], by_path["keys"].as_u64().unwrap(), "keys per path, as the CLI counts them");
    set_control(&client, "#log-key", "ip", "change").await;

    // Dropped on the panel: the same as chosen.
    let drop = format!(
        "const dt = new DataTransfer(); dt.items.add(new File([{:?}], 'dropped.log')); document.querySelector('#log-drop').dispatchEvent(new DragEvent('drop', {{ dataTransfer: dt, bubbles: true, cancelable: true }}));",
        first_lines(&sample, 2000)
    );
    js(&client, &drop).await;
    wait_until(&client, "document.querySelector('#log-source') && document.querySelector('#log-source').textContent.includes('dropped.log') && document.querySelector('#log-sizing')", Duration::from_secs(30), "a dropped log is analysed").await;
    assert_eq!(report(&client).await[0], 2000, "every dropped line is a request");
    // JSON lines whose time is in a field named in the page, limited per a field of their own.
    let json_log = dir.join("app.jsonl");
    let json: String = (0..300)
        .map(|i| format!("{{\"t\": {}.{:03}, \"client\": \"c{}\"}}\n", 1_700_000_000 + i / 10, (i % 10) * 100, i % 3))
        .collect();
    std::fs::write(&json_log, json).unwrap();
    set_control(&client, "#log-format", "json", "change").await;
    set_control(&client, "#log-time-field", "t", "change").await;
    set_control(&client, "#log-key", "field", "change").await;
    set_control(&client, "#log-field", "client", "change").await;
    upload(&client, &json_log).await;
    wait_until(&client, "document.querySelector('#log-source') && document.querySelector('#log-source').textContent.includes('app.jsonl') && document.querySelector('#log-sizing')", Duration::from_secs(30), "the JSON log is analysed").await;
    let query = applied_query(&client).await;
    let path = json_log.to_str().unwrap();
    let by_cli: Value = serde_json::from_str(&cli(&[
        "--query",
        &query,
        "--log",
        path,
        "--log-format",
        "json:t",
        "--key",
        "field:client",
    ]))
    .unwrap();
    let n = |k: &str| by_cli[k].as_u64().unwrap();
    assert_eq!(
        report(&client).await,
        [n("requests"), n("admitted"), n("rejected"), n("keys"), n("keys_throttled")],
        "JSON by a named field, as the CLI"
    );
    set_control(&client, "#log-format", "", "change").await;
    set_control(&client, "#log-key", "ip", "change").await;
    eprintln!("logs: apply, options, drop, JSON");
    super::log_errors::progress_and_cancel(&client, &dir).await;
    eprintln!("logs: progress and cancel");
    super::log_errors::bad_files(&client, &dir, &sample).await;
    set_control(&client, "#log-objective", "target", "change").await;
    set_control(&client, "#log-target", "150", "change").await;
    click(&client, "#log-sample-login").await;
    analysed(&client, "the login sample is analysed").await;
    let status = text(&client, "#log-status").await;
    assert!(status.contains("target: 150 is above 100 %; using 100 %"), "a bad target is named: {status}");
    assert_clean(&client, "the log panel").await;

    eprintln!("logs: bad files");
    // How it looks: a phone, and dark.
    set_control(&client, "#log-target", "1", "change").await;
    set_control(&client, "#log-objective", "outliers", "change").await;
    viewport(&client, 375, 900, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let scroll = js(&client, "return document.documentElement.scrollWidth;").await;
    assert!(scroll.as_f64().unwrap() <= 375.0, "the page scrolls sideways at 375 px: {scroll}");
    click(&client, "#log-sample-api").await;
    analysed(&client, "the sample at 375 px").await;
    super::save_element(&client, "#log-report", "logs-375-report.png").await;
    super::save_element(&client, "#log-sizing", "logs-375-sizing.png").await;
    super::page::cdp(
        &client,
        "Emulation.setEmulatedMedia",
        serde_json::json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] }),
    )
    .await;
    viewport(&client, 1280, 1000, 1.0, false).await;
    click(&client, "#log-sample-api").await;
    analysed(&client, "the sample in dark mode").await;
    super::save_element(&client, "#logs", "logs-dark.png").await;

    // Under a window algorithm the recommendation is a limit and a window, and Apply sets those
    // two and leaves the bucket's numbers alone.
    let windowed = "algo=sliding_log&limit=3&window=7&rate=8&seed=7";
    open(&client, &format!("{}?{windowed}", server.url)).await;
    load_panel(&client, "#logs-load", "#log-file", "log-sample-api").await;
    click(&client, "#log-sample-api").await;
    let rec = analysed(&client, "the sample under a window algorithm").await;
    assert_eq!(rec, cli_report(&sample, windowed).1, "the page recommends what the CLI does");
    let [(limit_key, limit), (window_key, window)] =
        rec.split('&').map(|kv| kv.split_once('=').unwrap()).collect::<Vec<_>>()[..]
    else {
        panic!("a limit and a window: {rec}")
    };
    assert_eq!((limit_key, window_key), ("limit", "window"), "{rec}");
    // It spares keys the window policy throttles: the warning says so above the button, and the
    // first press only asks to confirm.
    let spares = text(&client, "#log-spares").await;
    assert!(spares.starts_with("It spares ") && spares.contains("Apply asks you to confirm"), "{spares}");
    click(&client, "#log-apply").await;
    let asked = text(&client, "#log-apply").await;
    assert!(asked.starts_with("Apply: spares ") && asked.ends_with("press again to confirm"), "{asked}");
    assert!(js(&client, "return location.search;").await.as_str().unwrap().contains("limit=3"), "not applied yet");
    click(&client, "#log-apply").await;
    let applied = format!(
        "(q => q.get('limit') === '{limit}' && q.get('window') === '{window}' && q.get('algo') === 'sliding_log' && !q.has('capacity') && !q.has('refill'))(new URLSearchParams(location.search))"
    );
    wait_until(&client, &applied, Duration::from_secs(5), "the URL carries the applied limit and window only").await;
    eprintln!("logs: a window algorithm's policy applied");
    assert_eq!(js(&client, "return !!document.querySelector('#log-product-config');").await, serde_json::json!(false));

    // Sizing for a library: the recommendation also as its own code, with the CLI's numbers.
    let library = "algo=python_limits&limits_strategy=moving_window&limit=3&window=7&rate=8&seed=7";
    // (A product's link opens the whole page, log panel and all: no first module to load it.)
    open(&client, &format!("{}?{library}", server.url)).await;
    wait_until(&client, "document.querySelector('#log-sample-api')", Duration::from_secs(15), "the log panel").await;
    click(&client, "#log-sample-api").await;
    let rec = analysed(&client, "the sample under Python's limits").await;
    assert_eq!(rec, cli_report(&sample, library).1, "the page recommends what the CLI does");
    let code = text(&client, "#log-product-config").await;
    let (limit, window) = rec.split_once('&').unwrap();
    let (limit, window) = (limit.trim_start_matches("limit="), window.trim_start_matches("window="));
    assert!(code.starts_with("As Python limits writes it (python):"), "{code}");
    assert!(code.contains("limiter = strategies.MovingWindowRateLimiter"), "{code}");
    assert!(code.contains(&format!("# {limit} hits per {window} s")), "{rec}: {code}");
    super::save_element(&client, "#log-sizing", "logs-product-config.png").await;
    eprintln!("logs: the recommendation as Python limits writes it");

    // A log from nginx with limit_req_dry_run on (docs/shadow-mode.md's log_format): under nginx's
    // model the panel checks it request by request, as `--against nginx-dry-run` does; under
    // another limiter it says what to choose.
    let statuses = ["PASSED", "PASSED", "REJECTED_DRY_RUN", "DELAYED_DRY_RUN", "-"];
    let dry: String = std::fs::read_to_string(&sample)
        .unwrap()
        .lines()
        .take(3000)
        .enumerate()
        .map(|(i, line)| {
            let ip = line.split(' ').next().unwrap();
            let ms = 1_700_000_000_000u64 + i as u64 * 37;
            format!("{}.{:03} {ip} \"GET / HTTP/1.1\" 200 3 {}\n", ms / 1000, ms % 1000, statuses[i * 7 % 5])
        })
        .collect();
    let dry_path = dir.join("dryrun.log");
    std::fs::write(&dry_path, &dry).unwrap();
    let nginx = "algo=nginx&capacity=3&refill=2&nodelay=0&seed=7";
    let want: Value = serde_json::from_str(&cli(&[
        "--query",
        nginx,
        "--log",
        dry_path.to_str().unwrap(),
        "--against",
        "nginx-dry-run",
    ]))
    .unwrap();
    open(&client, &format!("{}?{nginx}", server.url)).await;
    wait_until(&client, "document.querySelector('#log-file')", Duration::from_secs(15), "the log panel").await;
    upload(&client, &dry_path).await;
    wait_until(
        &client,
        "document.querySelector('#log-dry-run') && document.querySelector('#log-sizing')",
        Duration::from_secs(60),
        "the dry run is checked",
    )
    .await;
    let shown = js(
        &client,
        "const d = document.querySelector('#log-dry-run').dataset; return [d.requests, d.agree].map(Number);",
    )
    .await;
    let agreement = &want["agreement"];
    assert_eq!(
        shown,
        serde_json::json!([agreement["requests"], agreement["agree"]]),
        "the page's check is the CLI's: {agreement}"
    );
    let rows = js(&client, "return document.querySelectorAll('#log-dry-run-off tbody tr').length;").await;
    assert_eq!(rows.as_u64(), Some(want["disagreements"].as_array().unwrap().len() as u64));
    super::save_element(&client, "#log-dry-run", "logs-dry-run.png").await;
    open(&client, &format!("{}?{QUERY}", server.url)).await;
    load_panel(&client, "#logs-load", "#log-file", "log-sample-api").await;
    upload(&client, &dry_path).await;
    wait_until(
        &client,
        "document.querySelector('#log-dry-run') && document.querySelector('#log-sizing')",
        Duration::from_secs(60),
        "the dry-run log under a token bucket",
    )
    .await;
    let hint = text(&client, "#log-dry-run").await;
    assert!(hint.contains("choose nginx as the limiter"), "{hint}");
    eprintln!("logs: nginx's dry run checked as the CLI checks it");

    // With a server behind the limiter, the other side (issue #37): the largest policy its p99
    // keeps within the clients' timeout, the policy the CLI names.
    let served = "capacity=20&refill=2&rate=8&seed=7&workers=2&service=20&client_timeout=100";
    open(&client, &format!("{}?{served}", server.url)).await;
    wait_until(&client, "document.querySelector('#log-sample-api')", Duration::from_secs(15), "the log panel").await;
    click(&client, "#log-sample-api").await;
    analysed(&client, "the sample with a server").await;
    wait_until(&client, "document.querySelector('#log-server-side')", Duration::from_secs(30), "the server's side")
        .await;
    let side = text(&client, "#log-server-side").await;
    let sized: Value =
        serde_json::from_str(&cli(&["--query", served, "--log", sample.to_str().unwrap(), "--sweep"])).expect("JSON");
    let largest = sized["largest_within_latency"]["policy"].as_str().expect("a policy keeps 100 ms");
    assert!(side.contains(largest) && side.contains("within 100 ms (the clients' timeout)"), "{largest}: {side}");
    super::save_element(&client, "#log-sizing", "logs-server-side.png").await;
    eprintln!("logs: the sizing's server side");
    std::fs::remove_dir_all(&dir).ok();
}
