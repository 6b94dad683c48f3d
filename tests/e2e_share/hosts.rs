//! Embeds on the hosts writers have. A plain static server (no CORS headers) on another origin
//! than the post serves the builder's previews and the frames; where a frame's code does not load
//! (its scripts, or its wasm, missing) the frame says why and the snippet shows its still.

use std::path::{Path, PathBuf};
use std::time::Duration;

use fantoccini::Client;
use serde_json::json;

use super::harness::dist_dir;
use super::page::{js, screenshot, wait_until};
use super::server::StaticServer;
use super::{assert_clean, start};

/// A post with three snippets and a listener that files each frame's messages
/// (`window.__frames[i]`).
const POST: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A post on a plain host</title><link rel="icon" href="data:,">
<script>
window.__frames = [[], [], []];
addEventListener('message', e => {
  const i = [...document.querySelectorAll('iframe')].findIndex(f => f.contentWindow === e.source);
  if (i >= 0 && e.data && String(e.data.type).startsWith('ratelimit-playground:')) window.__frames[i].push(e.data);
});
</script></head>
<body style="margin: 0; padding: 16px; font: 16px system-ui">
<p>Works, no scripts, no wasm:</p>SNIPPETS</body></html>"#;

/// A copy of `dist/` without the files whose names end in `suffix`: a host that lost them.
fn dist_without(suffix: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rlp-dist-without{suffix}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder for the copy");
    for entry in std::fs::read_dir(dist_dir()).expect("dist/") {
        let path = entry.expect("an entry").path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_string();
        if path.is_file() && !name.ends_with(suffix) {
            std::fs::copy(&path, dir.join(Path::new(&name))).expect("copy a file");
        }
    }
    dir
}

/// Frame `i`'s reading of index.html's word for an app that did not start: whether it shows,
/// and what it says.
async fn word(client: &Client, i: u16) -> serde_json::Value {
    client.enter_frame(i).await.expect("enter the frame");
    let word = js(client, "const w = document.querySelector('#boot-failed'); return w && [getComputedStyle(w).visibility, w.textContent.replace(/\\s+/g, ' ').trim()];").await;
    client.enter_parent_frame().await.expect("back to the post");
    word
}

pub async fn plain_hosts() {
    let (server, _browser, client) = start().await;
    let plain = StaticServer::start_without_cors(dist_dir());
    let no_scripts = StaticServer::start_without_cors(dist_without(".js"));
    let no_wasm = StaticServer::start_without_cors(dist_without("_bg.wasm"));

    // The builder on the plain host: its previews run (the helper waits for the 600 px one to
    // report its height; the 375 px one is checked here), with no CORS error anywhere.
    let snippet = super::embeds::snippet(&client, &plain.url, &[]).await;
    wait_until(
        &client,
        "document.querySelector('#embed-preview-343[data-measured=true]')",
        Duration::from_secs(15),
        "the 375 px preview reports its height",
    )
    .await;
    assert!(snippet.contains(&format!("src=\"{}?rate=8&amp;embed=1", plain.url)), "{snippet}");
    assert_clean(&client, "the builder on a host without CORS").await;
    let said = js(&client, "return document.querySelector('#embed-host-needs').textContent;").await;
    assert!(said.as_str().unwrap_or_default().contains("Any static host serves it, no CORS headers needed"), "{said}");

    // The post, on another origin, with the snippet from the plain host and the same snippet
    // from the two broken ones; the still beside the post, drawn by the CLI.
    let snippets = [&plain.url, &no_scripts.url, &no_wasm.url].map(|url| snippet.replace(&plain.url, url));
    server.pages.lock().unwrap().push(("/post/plain.html".into(), POST.replace("SNIPPETS", &snippets.join("\n"))));
    let still = super::cli(&["--query", "rate=8", "--format", "svg", "--show", "throughput", "--at", "0"]);
    let page = ratelimit_playground::sim::Scenario::from_query("rate=8").expect("the page's scenario");
    let file = ratelimit_playground::present::share::title::still_name(&page, ratelimit_playground::sim::Nanos(0));
    assert!(snippet.contains(&format!("<img src=\"{file}\"")), "{snippet}");
    server.pages.lock().unwrap().push((format!("/post/{file}"), still));
    client.goto(&server.at("/post/plain.html")).await.expect("open the post");

    // The frame from the plain host runs.
    let running = "(window.__frames[0].filter(m => m.type === 'ratelimit-playground:status').pop() || {}).t > 2";
    wait_until(&client, running, Duration::from_secs(20), "the frame from a host without CORS runs").await;
    // The frame without its wasm: the loader ran and says at once why it stopped.
    let failed = word(&client, 2).await;
    assert_eq!(failed[0], json!("visible"), "the frame whose wasm is missing: {failed}");
    let text = failed[1].as_str().unwrap_or_default();
    assert!(text.starts_with("The live playground did not start here: its code (JavaScript and WebAssembly) did not load or run. It needs a server that sends this folder's files as built (.js as JavaScript) and a page that allows its scripts. (") && text.contains("ratelimit-frame_bg.wasm"), "{text}");
    // The frame without its scripts: nothing of it ran; its word shows after a few seconds, and
    // 8 s after it loaded the snippet puts it under the still, which the reader now sees.
    let moved = "[1, 2].every(i => document.querySelectorAll('iframe')[i].style.gridRowStart === '2')";
    wait_until(&client, moved, Duration::from_secs(15), "the snippet moves a silent frame under its still").await;
    let silent = word(&client, 1).await;
    assert_eq!(silent[0], json!("visible"), "the frame without scripts: {silent}");
    let layout = js(&client, "return [...document.querySelectorAll('iframe')].map(f => { const img = f.parentElement.querySelector('img'); const a = img.getBoundingClientRect(), b = f.getBoundingClientRect(); return [img.complete && img.naturalWidth > 0, b.top >= a.bottom - 1, f.style.gridRowStart]; });").await;
    assert_eq!(
        layout,
        json!([[true, false, "1"], [true, true, "2"], [true, true, "2"]]),
        "the working frame covers its still; each silent one sits under its own"
    );
    // And the working frame stayed where it was.
    assert_eq!(word(&client, 0).await, json!(null), "the started frame took its word away");
    js(&client, "document.querySelectorAll('iframe')[1].scrollIntoView({ block: 'end' });").await;
    screenshot(&client, "embeds-plain-host.png").await;
}
