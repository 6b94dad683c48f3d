//! What every browser test binary needs before it can drive the app: the built `dist/`, one
//! browser at a time, and the hook that records what went wrong inside the page.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use fantoccini::Client;
use serde_json::{json, Value};

use super::browser::Browser;
use super::page::{cdp, js};
use super::server::StaticServer;

/// Serves the built app and starts a browser with a WebDriver session on it. Keep all three
/// alive for the test: dropping the browser ends the session.
pub async fn launch() -> (StaticServer, Browser, Client) {
    let server = StaticServer::start(dist_dir());
    let browser = Browser::start();
    let client = browser.connect().await;
    (server, browser, client)
}

/// The tests share two cores with the machine: one browser at a time keeps timings honest.
static ONE_BROWSER_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Per-frame script time — the app's frame callback plus the reactive work it queues as
/// microtasks — in `window.__frames` as `[timestamp, ms]`, by wrapping `requestAnimationFrame`.
/// Install it before the app loads (or, in a sandboxed frame, after it mounted: the loop asks for
/// every frame anew).
pub const FRAME_PROBE: &str = r#"
window.__frames = [];
const raf = window.requestAnimationFrame.bind(window);
window.requestAnimationFrame = (cb) => raf((ts) => {
  const t0 = performance.now();
  try { cb(ts); } finally {
    queueMicrotask(() => queueMicrotask(() => queueMicrotask(() => window.__frames.push([ts, performance.now() - t0]))));
  }
});
"#;

/// Installed in every frame before its scripts run: records console errors, uncaught errors,
/// unhandled rejections and Content-Security-Policy violations (the server sends the CSP of
/// `dist/_headers`) in `window.__e2eErrors`, and every message the window receives in
/// `window.__messages`.
pub const ERROR_HOOK: &str = r#"
window.__e2eErrors = [];
window.__messages = [];
const original = console.error.bind(console);
console.error = (...args) => { window.__e2eErrors.push(args.map(String).join(' ')); original(...args); };
addEventListener('error', e => window.__e2eErrors.push('uncaught: ' + (e.message || e.type)));
addEventListener('unhandledrejection', e => window.__e2eErrors.push('unhandled rejection: ' + String(e.reason)));
addEventListener('securitypolicyviolation', e => window.__e2eErrors.push('CSP violation: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));
addEventListener('message', e => window.__messages.push(e.data));
"#;

/// The release build to serve: `$E2E_DIST`, or `dist/` in the crate.
pub fn dist_dir() -> PathBuf {
    let dir = std::env::var_os("E2E_DIST")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("dist"));
    assert!(
        dir.join("index.html").is_file(),
        "no built app at {} — run `trunk build --release --public-url ./` first (or set E2E_DIST)",
        dir.display()
    );
    dir
}

/// Runs one browser test on its own tokio runtime, never while another one runs.
pub fn one_browser_at_a_time(test: impl std::future::Future<Output = ()>) {
    let _one = ONE_BROWSER_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build();
    runtime.expect("a tokio runtime").block_on(test);
}

/// Counts animation frames from now on in `window.__frames`.
const COUNT_FRAMES: &str = "window.__frames = 0; if (!window.__counting) { window.__counting = true; const tick = () => { window.__frames++; requestAnimationFrame(tick); }; requestAnimationFrame(tick); }";

/// Script time per animation frame over `ms` real milliseconds, from CDP's Performance metrics
/// (call `Performance.enable` first), and the number of frames it is averaged over.
pub async fn script_ms_per_frame(client: &Client, ms: u64) -> (f64, u64) {
    let metric = |m: &Value, name: &str| {
        m["metrics"].as_array().and_then(|a| a.iter().find(|e| e["name"] == name)).and_then(|e| e["value"].as_f64())
    };
    js(client, COUNT_FRAMES).await;
    let before = cdp(client, "Performance.getMetrics", json!({})).await;
    tokio::time::sleep(Duration::from_millis(ms)).await;
    let after = cdp(client, "Performance.getMetrics", json!({})).await;
    let frames = js(client, "return window.__frames;").await.as_u64().unwrap_or(0).max(1);
    let script = metric(&after, "ScriptDuration").unwrap_or(0.0) - metric(&before, "ScriptDuration").unwrap_or(0.0);
    (script * 1000.0 / frames as f64, frames)
}

/// Runs `ratelimit-sim` with `args` and returns what it printed (it must succeed).
pub fn cli(args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(args)
        .output()
        .expect("ratelimit-sim runs");
    assert!(out.status.success(), "ratelimit-sim {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}
