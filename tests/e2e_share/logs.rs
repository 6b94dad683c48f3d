//! "Your traffic", driven as a user would: a sample in one click and the same log uploaded give
//! the CLI's numbers on the same file (report and recommendation); Apply moves the playground and
//! the production panel (a bucket's capacity and refill, or a window algorithm's limit and window
//! only); a large upload shows progress while the page keeps animating, and Cancel stops it; bad
//! files are refused by line with the rest of the page untouched; and analysing asks the server
//! for nothing but the worker's code (a new worker per log, ended when it is done so its memory
//! goes back).

use std::path::{Path, PathBuf};
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

async fn upload(client: &Client, file: &Path) {
    let input = client.find(Locator::Css("#log-file")).await.expect("the log file input");
    input.send_keys(file.to_str().expect("a UTF-8 path")).await.expect("choose the file");
}

/// The CLI's report of `log` under `query`: the same five numbers, and the recommendation.
fn cli_report(log: &Path, query: &str) -> ([u64; 5], String) {
    let path = log.to_str().unwrap();
    let r: Value = serde_json::from_str(&cli(&["--query", query, "--log", path])).expect("JSON");
    let n = |k: &str| r[k].as_u64().unwrap_or_else(|| panic!("no {k} in {r}"));
    let sized: Value = serde_json::from_str(&cli(&["--query", query, "--log", path, "--sweep"])).expect("JSON");
    let rec = sized["recommended"]["policy"].as_str().unwrap_or_default().to_string();
    ([n("requests"), n("admitted"), n("rejected"), n("keys"), n("keys_throttled")], rec)
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

/// A combined log of `lines` lines, 200 requests a second from 50 clients (large, quick to write).
fn big_log(path: &Path, lines: u64) {
    use std::io::Write;
    let mut w = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for i in 0..lines {
        let s = i / 200;
        writeln!(
            w,
            "10.0.0.{} - - [02/Nov/2026:{:02}:{:02}:{:02} +0000] \"GET /api/v1/items HTTP/1.1\" 200 512 \"https://app.example.com/\" \"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36\"",
            i % 50,
            9 + s / 3600,
            s / 60 % 60,
            s % 60
        )
        .unwrap();
    }
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
    viewport(&client, 1280, 1000, 1.0, false).await;
    js(&client, "document.querySelector('#logs').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    super::save_element(&client, "#logs", "logs.png").await;

    eprintln!("logs: sample and upload agree with the CLI");
    // Apply: the playground and the production panel take the policy; the report says it is stale.
    click(&client, "#log-apply").await;
    let (cap, refill) = {
        let p = expected_rec.split('&').collect::<Vec<_>>();
        (p[0].to_string(), p[1].to_string())
    };
    let applied = format!("location.search.includes('{cap}') && location.search.includes('{refill}')");
    wait_until(&client, &applied, Duration::from_secs(5), "the URL carries the applied policy").await;
    let production = text(&client, "#production-policy").await;
    let value = |kv: &str| kv.split('=').nth(1).unwrap().to_string();
    assert!(production.contains(&value(&cap)), "the production panel follows: {production}");
    wait_until(&client, "document.querySelector('#log-stale')", Duration::from_secs(3), "the report is stale").await;
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
        throttled as f64 <= keys as f64 * 0.01,
        "under the recommendation at most 1 % of keys are throttled: {throttled} of {keys}"
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
    // A large upload: progress while the page keeps animating, then Cancel.
    let big = dir.join("big.log");
    big_log(&big, 1_500_000);
    js(&client, "window.__rafs = 0; (function tick() { window.__rafs++; requestAnimationFrame(tick); })();").await;
    upload(&client, &big).await;
    wait_until(&client, "document.querySelector('#log-progress progress') && Number(document.querySelector('#log-progress progress').value) > 0", Duration::from_secs(20), "progress shows").await;
    let frames =
        js(&client, "const a = window.__rafs; return new Promise(r => setTimeout(() => r(window.__rafs - a), 500));")
            .await;
    assert!(
        frames.as_u64().unwrap_or(0) >= 20,
        "the page keeps drawing while the log is read: {frames} frames in 0.5 s"
    );
    click(&client, "#log-cancel").await;
    wait_until(&client, "!document.querySelector('#log-progress') && document.querySelector('#log-error').textContent.startsWith('Cancelled')", Duration::from_secs(3), "cancelled").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        js(&client, "return !!document.querySelector('#log-progress');").await,
        Value::Bool(false),
        "a cancelled worker says nothing more"
    );

    eprintln!("logs: progress and cancel");
    // Bad files: each refused by line, the playground untouched.
    let first = std::fs::read_to_string(&sample).unwrap();
    let line = first.lines().next().unwrap();
    let earlier = line.replace("09:00:00", "08:00:00");
    let bad: [(&str, Vec<u8>, &str); 6] = [
        ("binary.log", vec![0, 1, 2, 3], "log line 1: holds a NUL byte"),
        ("latin1.log", [line.as_bytes(), b"\ncaf\xe9\n"].concat(), "log line 2: is not UTF-8 text"),
        ("long.log", vec![b'a'; 10 << 20], "log line 1: is longer than 65536 bytes"),
        (
            "prose.log",
            b"Dear diary, today the API was slow.\n".to_vec(),
            "log line 1: is not in a log format this reads",
        ),
        ("empty.log", Vec::new(), "log: "),
        ("jump.log", format!("{line}\n{earlier}\n").into_bytes(), "log line 2: its time is 3600.000 s before"),
    ];
    for (name, bytes, message) in bad {
        let path: PathBuf = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let requests =
            js(&client, "return Number(document.querySelector('#requests').textContent.replaceAll(',', ''));").await;
        upload(&client, &path).await;
        let refused = format!("document.querySelector('#log-error') && document.querySelector('#log-error').textContent.startsWith({message:?})");
        wait_until(&client, &refused, Duration::from_secs(20), &format!("{name} is refused with '{message}'")).await;
        assert_eq!(
            js(&client, "return document.querySelector('#log-results').textContent;").await,
            Value::String(String::new()),
            "{name}: no report"
        );
        let later = format!("Number(document.querySelector('#requests').textContent.replaceAll(',', '')) > {requests}");
        wait_until(&client, &later, Duration::from_secs(5), &format!("{name}: the playground keeps running")).await;
    }
    set_control(&client, "#log-target", "150", "change").await;
    click(&client, "#log-sample-login").await;
    analysed(&client, "the login sample is analysed").await;
    let status = text(&client, "#log-status").await;
    assert!(status.contains("target: 150 is above 100 %; using 100 %"), "a bad target is named: {status}");
    assert_clean(&client, "the log panel").await;

    eprintln!("logs: bad files");
    // How it looks: a phone, and dark.
    set_control(&client, "#log-target", "1", "change").await;
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
    click(&client, "#log-apply").await;
    let applied = format!(
        "(q => q.get('limit') === '{limit}' && q.get('window') === '{window}' && q.get('algo') === 'sliding_log' && !q.has('capacity') && !q.has('refill'))(new URLSearchParams(location.search))"
    );
    wait_until(&client, &applied, Duration::from_secs(5), "the URL carries the applied limit and window only").await;
    eprintln!("logs: a window algorithm's policy applied");
    std::fs::remove_dir_all(&dir).ok();
}
