//! The shipped CSP, the three exports and the production panel.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::{json, Value};

use super::browser::BrowserLog;
use super::page::{click, js, text, unfold, wait_until};
use super::{assert_clean, open, save_png, start};

/// Records downloads instead of saving them: every object URL's blob in `window.__blobs`, every
/// `<a download>` click as `{name, href}` in `window.__saved`.
const CATCH_DOWNLOADS: &str = r#"
window.__blobs = {}; window.__saved = [];
const create = URL.createObjectURL.bind(URL);
URL.createObjectURL = b => { const u = create(b); window.__blobs[u] = b; return u; };
HTMLAnchorElement.prototype.click = function () { window.__saved.push({ name: this.download, href: this.href }); };
"#;

/// Reads the saved files: name, type, text (not for the PNG), the PNG's bytes, size and
/// pixels near the admitted colour and near the chart's text colour (both layers are in it).
const READ_DOWNLOADS: &str = r#"
const done = arguments[arguments.length - 1];
const css = getComputedStyle(document.querySelector('#chart'));
const rgb = name => { const h = css.getPropertyValue(name).trim().slice(1); return [0, 2, 4].map(i => parseInt(h.slice(i, i + 2), 16)); };
const near = (d, i, c, tol) => Math.abs(d[i] - c[0]) + Math.abs(d[i + 1] - c[1]) + Math.abs(d[i + 2] - c[2]) <= tol;
Promise.all(window.__saved.map(async s => {
  const blob = window.__blobs[s.href];
  const out = { name: s.name, type: blob.type };
  if (s.name.endsWith('.png')) {
    out.bytes = Array.from(new Uint8Array(await blob.arrayBuffer()));
    out.signature = out.bytes.slice(0, 8);
    const bitmap = await createImageBitmap(blob);
    const c = document.createElement('canvas');
    c.width = bitmap.width; c.height = bitmap.height;
    const ctx = c.getContext('2d'); ctx.drawImage(bitmap, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    const admitted = rgb('--admitted'), text = rgb('--chart-text');
    let a = 0, t = 0;
    for (let i = 0; i < d.length; i += 4) { if (near(d, i, admitted, 40)) a++; if (near(d, i, text, 40)) t++; }
    Object.assign(out, { width: bitmap.width, height: bitmap.height, admitted: a, text: t });
  } else {
    out.text = await blob.text();
  }
  return out;
})).then(done, e => done(String(e)));
"#;

/// Every target, in the panel's order: the registry's tabs, as the engine lists them.
fn targets() -> Vec<&'static str> {
    let sc = ratelimit_playground::sim::Scenario::from_query("rate=8").expect("the page's query");
    ratelimit_playground::production::configs(&sc).into_iter().map(|c| c.target).collect()
}

pub async fn csp_exports_and_production() {
    let (server, browser, client) = start().await;
    open(&client, &server.url).await;

    // The page is served with the CSP of dist/_headers, and the browser enforces it (an eval is
    // an inline script and a style attribute are refused and reported); then nothing the page does
    // violates it.
    let shipped = server.headers.iter().find(|(k, _)| k == "Content-Security-Policy").map(|(_, v)| v.clone());
    let shipped = shipped.expect("a CSP in dist/_headers");
    assert!(!shipped.contains("unsafe-inline") && !shipped.contains("'unsafe-eval'"), "{shipped}");
    let served = js(&client, "return fetch(location.href).then(r => r.headers.get('content-security-policy'));").await;
    assert_eq!(served, json!(shipped));
    // (WebDriver's own scripts may eval: an inline script and a style attribute show it instead.)
    let refused = js(&client, "const s = document.createElement('script'); s.textContent = 'window.__inlineRan = true;'; document.head.append(s); const p = document.createElement('p'); p.setAttribute('style', 'color: red'); document.body.append(p); const ok = !window.__inlineRan && p.style.color === ''; s.remove(); p.remove(); return ok;").await;
    assert_eq!(refused, json!(true), "an inline script or style ran: the CSP is not enforced");
    let reported = "window.__e2eErrors.length === 2 && window.__e2eErrors.every(e => e.startsWith('CSP violation: script-src') || e.startsWith('CSP violation: style-src'))";
    wait_until(&client, reported, Duration::from_secs(2), "the violation listener reports both").await;
    js(&client, "window.__e2eErrors = [];").await;
    client.issue_cmd(BrowserLog).await.expect("drain the browser log of the two expected violations");

    // PNG, CSV and JSON of a paused minute at 8 requests/s.
    click(&client, "#play").await;
    click(&client, "#reset").await;
    click(&client, "#jump-60").await;
    js(&client, CATCH_DOWNLOADS).await;
    // One at a time: the PNG is encoded asynchronously (canvas.toBlob), and the status line
    // must end on the last one.
    for (n, id) in ["#export-png", "#export-csv", "#export-json"].into_iter().enumerate() {
        click(&client, id).await;
        let saved = format!("window.__saved.length === {}", n + 1);
        wait_until(&client, &saved, Duration::from_secs(5), &format!("the download of {id}")).await;
    }
    let files = client.execute_async(READ_DOWNLOADS, vec![]).await.expect("read the downloads");
    let saved = |name: &str| {
        let all = files.as_array().expect("a list of downloads");
        all.iter().find(|f| f["name"] == name).unwrap_or_else(|| panic!("no {name} among {all:?}"))
    };
    let [png, csv, json_file] =
        [saved("ratelimit-chart.png"), saved("ratelimit-series.csv"), saved("ratelimit-scenario.json")];
    assert_eq!((&png["name"], &png["type"]), (&json!("ratelimit-chart.png"), &json!("image/png")), "{}", png["name"]);
    assert_eq!(png["signature"], json!([137, 80, 78, 71, 13, 10, 26, 10]), "not a PNG");
    let bytes: Vec<u8> = serde_json::from_value(png["bytes"].clone()).expect("the PNG's bytes");
    save_png("export-chart.png", &bytes);
    let chart = js(&client, "const c = document.querySelector('#chart'); return [c.width, c.height];").await;
    let png =
        json!({ "width": png["width"], "height": png["height"], "admitted": png["admitted"], "text": png["text"] });
    assert!(png["width"].as_u64() > chart[0].as_u64(), "the PNG is not the chart plus margins: {png} vs {chart}");
    assert!(png["height"].as_u64() > chart[1].as_u64(), "no legend strip: {png} vs {chart}");
    assert!(png["admitted"].as_u64().unwrap_or(0) > 500, "the data layer is missing: {png}");
    assert!(png["text"].as_u64().unwrap_or(0) > 200, "the axis layer (labels) is missing: {png}");
    let csv_text = csv["text"].as_str().unwrap_or_default();
    assert!(csv_text.starts_with("t_s,requests,admitted,rejected,retries,level,node0_admitted\n"), "{csv}");
    assert_eq!(csv_text.lines().count(), 1 + 61, "a header and a row per simulated second: {csv_text}");
    let scenario: Value = serde_json::from_str(json_file["text"].as_str().unwrap_or_default()).expect("JSON");
    assert_eq!(json_file["name"], json!("ratelimit-scenario.json"));
    assert_eq!(scenario["query"], json!("rate=8"));
    assert_eq!((&scenario["scenario"]["rate"], &scenario["scenario"]["capacity"]), (&json!(8), &json!(10)));
    assert_eq!(text(&client, "#export-status").await, "Saved ratelimit-scenario.json.");

    // The production panel: a tab per product's target, each with its snippet and its notes; arrow keys move
    // between the tabs; Copy copies the snippet shown. (It starts folded, as every panel below the charts.)
    unfold(&client, "production").await;
    let names =
        js(&client, "return [...document.querySelectorAll('#production [role=tab]')].map(t => t.dataset.target);")
            .await;
    let targets = targets();
    assert!(targets.len() >= 7, "every product's tab: {targets:?}");
    assert_eq!(names, json!(targets));
    for (i, target) in targets.iter().enumerate() {
        click(&client, &format!("#production-tab-{i}")).await;
        let shown = format!("document.querySelector('#production-tab-{i}').getAttribute('aria-selected') === 'true'");
        wait_until(&client, &shown, Duration::from_secs(2), target).await;
        let panel = js(&client, "return [document.querySelector('#production-snippet').textContent, document.querySelectorAll('#production-notes li').length];").await;
        assert!(panel[0].as_str().is_some_and(|s| s.lines().count() >= 3), "{target}: {panel}");
        assert!(panel[1].as_u64() >= Some(2), "{target}: units and burst notes missing: {panel}");
    }
    click(&client, "#production-tab-0").await;
    wait_until(
        &client,
        "document.querySelector('#production-snippet').textContent.includes('limit_req zone=api burst=9 nodelay;')",
        Duration::from_secs(2),
        "the nginx snippet",
    )
    .await;
    assert!(text(&client, "#production-notes").await.contains("burst=9 counts requests beyond the first"));
    js(&client, "document.querySelector('#production-tab-0').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));").await;
    wait_until(&client, "document.activeElement.id === 'production-tab-1' && document.querySelector('#production-tab-1').getAttribute('aria-selected') === 'true'", Duration::from_secs(2), "ArrowRight moves to Envoy").await;
    js(&client, "window.__copied = []; Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: t => { window.__copied.push(t); return Promise.resolve(); } } });").await;
    click(&client, "#production-copy").await;
    wait_until(&client, "window.__copied.length === 1 && window.__copied[0] === document.querySelector('#production-snippet').textContent", Duration::from_secs(2), "the snippet is copied").await;
    // ... and it is byte for byte what `ratelimit-sim --export envoy` prints for the page's query.
    let copied = js(&client, "return window.__copied[0];").await;
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["--query", "rate=8", "--export", "envoy"])
        .output()
        .expect("ratelimit-sim runs");
    assert_eq!(
        copied.as_str(),
        Some(String::from_utf8_lossy(&cli.stdout).as_ref()),
        "the CLI and the Copy button differ"
    );
    js(&client, "document.querySelector('#production').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let panel = client.find(Locator::Css("#production")).await.expect("the production panel");
    save_png("production.png", &panel.screenshot().await.expect("screenshot the panel"));

    assert_clean(&client, "exports and production").await;
    client.close().await.expect("close the session");
    drop(browser);
}
