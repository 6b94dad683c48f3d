//! The host API, driven as a writer's post drives it: a post on another origin than its frames,
//! with the host script (`embed.js`) from the frames' plain static host. The frame says `ready`,
//! takes `get`, `seek` (the CLI's counts at that moment), `step` both ways, `set` (refusing a value
//! a link would clamp, naming the key and its range, and changing nothing), `play` and `pause`
//! (with `state` and `time` events), refuses what it does not know, ignores other scripts'
//! messages, keeps the older `ratelimit-playground:*` messages, and a scroll step entering the
//! middle of the screen drives it.

use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use ratelimit_playground::present::share::link::scenario_query;
use ratelimit_playground::sim::Scenario;

use super::cli;
use super::harness::dist_dir;
use super::page::{js, wait_until};
use super::server::StaticServer;
use super::stills::still_counts;

/// The widget's scenario.
const QUERY: &str = "algo=fixed_window&limit=10&window=1&traffic=seam&duration=30&rate=8";

/// The post: one frame, the host script, a log of every `rlp` message the post hears
/// (`window.__rlp`), an older-style listener (`window.__legacy`), and a scroll step far down.
const POST: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A post that directs its widget</title><link rel="icon" href="data:,">
<script>
window.__rlp = []; window.__legacy = [];
addEventListener('message', e => {
  if (e.data && e.data.ns === 'rlp') window.__rlp.push(e.data);
  if (e.data && String(e.data.type).startsWith('ratelimit-playground:')) window.__legacy.push(e.data.type);
});
</script>
<script src="HOST/embed.js" defer></script></head>
<body style="margin: 0; padding: 16px; font: 16px system-ui">
<iframe id="w" data-ratelimit-playground title="A fixed window at its seam" src="HOST/?embed=1&QUERY&show=throughput&autoplay=0&t=0" style="width: 600px; height: 420px; border: 0"></iframe>
<div style="height: 2000px"></div>
<p id="step" data-rlp-step='{"t": 5}'>At five seconds.</p>
<div style="height: 2000px"></div>
</body></html>"#;

/// `query` as a frame's link writes it.
fn normal(query: &str) -> String {
    scenario_query(&Scenario::from_query(query).unwrap())
}

/// Sends `name` with `data` through the host script and returns `{ok: result}` or `{err: words}`.
async fn send(client: &Client, name: &str, data: Value) -> Value {
    let call = format!(
        "window.__answer = null; RatelimitPlayground.widget('#w').send('{name}', {data}).then(r => window.__answer = {{ ok: r }}, e => window.__answer = {{ err: e.message }}); return true;"
    );
    js(client, &call).await;
    wait_until(client, "window.__answer !== null", Duration::from_secs(10), name).await;
    js(client, "return window.__answer;").await
}

/// The frame's counts now: t, requests, admitted, rejected.
async fn counts(client: &Client) -> Value {
    send(client, "get", json!({ "name": "counts" })).await["ok"].clone()
}

/// The post, served by `server` (the post's origin), with its frame and `embed.js` from a plain
/// static host of its own, driven in `client`'s browser.
pub async fn a_post_directs_its_widget(client: &Client, server: &StaticServer) {
    let client = client.clone();
    let plain = StaticServer::start_without_cors(dist_dir());
    *plain.hook.lock().unwrap() = server.hook.lock().unwrap().clone();
    let host = plain.url.trim_end_matches('/');
    let post = POST.replace("HOST", host).replace("QUERY", &QUERY.replace('&', "&amp;"));
    server.pages.lock().unwrap().push(("/post/directed.html".into(), post));
    client.goto(&server.at("/post/directed.html")).await.expect("open the post");

    // Ready, unprompted, paused at 0 on the link's scenario.
    wait_until(
        &client,
        "window.__rlp.some(m => m.kind === 'evt' && m.name === 'ready')",
        Duration::from_secs(20),
        "ready",
    )
    .await;
    let ready = js(&client, "return window.__rlp.find(m => m.name === 'ready').data;").await;
    assert_eq!(
        (ready["paused"].clone(), ready["t"].as_f64(), ready["duration"].as_f64()),
        (json!(true), Some(0.0), Some(30.0)),
        "{ready}"
    );
    let query = send(&client, "get", json!({ "name": "query" })).await;
    assert_eq!(query["ok"], json!(normal(QUERY)), "{query}");

    // Seek: computed at once, on the CLI's counts at that moment.
    assert_eq!(send(&client, "seek", json!({ "t": 12.5 })).await, json!({ "ok": true }));
    let at = counts(&client).await;
    let still = cli(&["--query", QUERY, "--format", "svg", "--show", "throughput", "--at", "12.5"]);
    let [requests, admitted, rejected] = still_counts(&still);
    assert_eq!(
        (at["t"].as_f64(), at["requests"].as_u64(), at["admitted"].as_u64(), at["rejected"].as_u64()),
        (Some(12.5), Some(requests), Some(admitted), Some(rejected)),
        "{at}"
    );
    assert_eq!(at["running"], json!(false));

    // Step three events forward and back again.
    assert_eq!(send(&client, "step", json!({ "n": 3 })).await, json!({ "ok": true }));
    let stepped = counts(&client).await;
    assert!(stepped["t"].as_f64() > Some(12.5), "{stepped}");
    send(&client, "step", json!({ "n": -3 })).await;
    assert_eq!(counts(&client).await["requests"], at["requests"], "stepped back to where it was");

    // Set: a value a link would clamp is refused, naming the key and its range, and nothing changes.
    let refused = send(&client, "set", json!({ "query": "limit=0" })).await;
    let words = refused["err"].as_str().unwrap_or_default();
    assert!(words.starts_with("limit:") && words.contains("allowed"), "{refused}");
    assert_eq!(send(&client, "get", json!({ "name": "query" })).await["ok"], json!(normal(QUERY)), "nothing changed");
    let unknown = send(&client, "set", json!({ "query": "bogus=1" })).await;
    assert!(unknown["err"].as_str().unwrap_or_default().starts_with("bogus: not a scenario key"), "{unknown}");
    assert_eq!(send(&client, "set", json!({ "query": "algo=sliding_window" })).await, json!({ "ok": true }));
    let set = send(&client, "get", json!({ "name": "query" })).await;
    assert_eq!(set["ok"], json!(normal(&QUERY.replace("fixed_window", "sliding_window"))), "{set}");

    // What it does not know, in words; another script's messages are ignored.
    let dance = send(&client, "dance", json!({})).await;
    assert!(dance["err"].as_str().unwrap_or_default().starts_with("'dance' is not a command"), "{dance}");
    let goto = send(&client, "goto", json!({ "step": 3 })).await;
    assert!(goto["err"].as_str().unwrap_or_default().starts_with("goto: this widget shows no tour"), "{goto}");
    let before = js(&client, "return window.__rlp.length;").await;
    js(&client, "document.querySelector('#w').contentWindow.postMessage({ ns: 'other', v: 1, kind: 'cmd', id: 99, name: 'play' }, '*'); return true;").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(js(&client, "return window.__rlp.length;").await, before, "a message of another ns gets no answer");
    assert_eq!(counts(&client).await["running"], json!(false), "and plays nothing");

    // Play and pause, with their events; time about four times a second while playing.
    js(&client, "window.__rlp = []; return true;").await;
    assert_eq!(send(&client, "play", json!({})).await, json!({ "ok": true }));
    tokio::time::sleep(Duration::from_millis(1500)).await;
    send(&client, "pause", json!({})).await;
    let heard = js(&client, "return [window.__rlp.filter(m => m.name === 'state').map(m => m.data.state), window.__rlp.filter(m => m.name === 'time').length];").await;
    assert_eq!(heard[0], json!(["playing", "paused"]), "{heard}");
    let times = heard[1].as_u64().unwrap_or(0);
    assert!((3..=9).contains(&times), "about four time events a second: {heard}");

    // A scroll step: when it reaches the middle of the screen, the frame goes to t = 5.
    js(&client, "document.querySelector('#step').scrollIntoView({ block: 'center' }); return true;").await;
    wait_until(
        &client,
        "document.querySelector('#step').hasAttribute('data-rlp-entered')",
        Duration::from_secs(10),
        "the step drives the frame",
    )
    .await;
    assert_eq!(counts(&client).await["t"].as_f64(), Some(5.0));

    // The older messages keep coming for posts already published.
    let legacy = js(&client, "return [...new Set(window.__legacy)].sort();").await;
    assert_eq!(
        legacy,
        json!(["ratelimit-playground:height", "ratelimit-playground:loading", "ratelimit-playground:status"]),
        "{legacy}"
    );
}
