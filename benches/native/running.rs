//! Running cost beside the peers (issue #50): each page as it opens at 1280×800, animating as it
//! does by itself, measured the same way for the app and for the peers in one browser:
//!
//! - **main-thread task time per frame**: Chrome's cumulative `TaskDuration` (script, style,
//!   layout, paint) over 5 s, divided by the display frames counted in those 5 s by a
//!   `requestAnimationFrame` loop of the probe's own (so a page that animates by timers is
//!   counted the same way as one that animates by frames);
//! - **whole-browser CPU per frame**: the user and system time of every process of the browser
//!   (its browser, GPU, network and renderer processes, read from `/proc`) over the same 5 s,
//!   divided by the same frames: what the reader's machine pays, not only the page's thread.
//!
//! Each page first runs 2 s, so its start-up is not counted.

use std::time::Duration;

use super::browser::Browser;
use super::page::{cdp, js, set_control, wait_until};
use serde_json::json;

/// A rAF loop counting display frames, installed before any of the page's scripts.
const FRAMES: &str = "window.__displayFrames = 0; (() => { const tick = () => { window.__displayFrames++; requestAnimationFrame(tick); }; requestAnimationFrame(tick); })();";

/// Seconds measured, after [`WARM`].
const SECS: u64 = 5;

/// Seconds a page runs before it is measured.
const WARM: Duration = Duration::from_secs(2);

/// CPU time (user + system) of every Chromium process, in ms, from `/proc/*/stat`.
fn browser_cpu_ms() -> f64 {
    // Clock ticks per second: 100 on Linux (sysconf(_SC_CLK_TCK)); `getconf` says so otherwise.
    let ticks = std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8_lossy(&o.stdout).trim().parse::<f64>().ok())
        .unwrap_or(100.0);
    let mut total = 0u64;
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let dir = entry.path();
        let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        if !comm.contains("chrom") {
            continue;
        }
        let stat = std::fs::read_to_string(dir.join("stat")).unwrap_or_default();
        // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
        let Some((_, rest)) = stat.rsplit_once(')') else { continue };
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let field = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok()).unwrap_or(0);
        total += field(11) + field(12);
    }
    total as f64 * 1000.0 / ticks
}

/// One page's running cost: (task ms per frame, browser CPU ms per frame, frames per second).
async fn measure(client: &fantoccini::Client, url: &str, speed: Option<&str>) -> (f64, f64, f64) {
    client.goto(url).await.expect("open the page");
    wait_until(client, "window.__displayFrames > 10", Duration::from_secs(30), "the page runs").await;
    if let Some(speed) = speed {
        wait_until(client, "document.querySelector('#speed')", Duration::from_secs(10), "the playback bar").await;
        set_control(client, "#speed", speed, "change").await;
    }
    tokio::time::sleep(WARM).await;
    cdp(client, "Performance.enable", json!({})).await;
    let (task0, cpu0) = (super::task_duration(client).await, browser_cpu_ms());
    let frames0 = js(client, "return window.__displayFrames;").await.as_f64().unwrap_or(f64::NAN);
    tokio::time::sleep(Duration::from_secs(SECS)).await;
    let frames1 = js(client, "return window.__displayFrames;").await.as_f64().unwrap_or(f64::NAN);
    let (task1, cpu1) = (super::task_duration(client).await, browser_cpu_ms());
    let frames = frames1 - frames0;
    ((task1 - task0) / frames, (cpu1 - cpu0) / frames, frames / SECS as f64)
}

/// The table: the app's default view and its 16 racing nodes, and each peer, as lines.
pub async fn table(dist: &std::path::Path) -> Vec<String> {
    let ours = super::gzip_server::GzipServer::start(dist);
    let mut subjects = vec![
        ("ratelimit-playground, default view".to_string(), ours.url.clone(), None, Some(0.75)),
        (
            "ratelimit-playground, 16 nodes racing at 100×".to_string(),
            format!("{}?nodes=16&store=race&rtt=5&rate=1000&traffic=poisson", ours.url),
            Some("100"),
            Some(2.0),
        ),
    ];
    let mut lines = Vec::new();
    let mut hosts = Vec::new();
    for peer in &super::peers::PEERS {
        match peer.site() {
            Ok(site) => {
                let host = super::gzip_server::GzipServer::start(&site);
                subjects.push((peer.name.to_string(), host.url.clone(), None, None));
                hosts.push(host);
            }
            Err(why) => lines.push(why),
        }
    }
    let browser = Browser::start();
    let client = browser.connect().await;
    cdp(
        &client,
        "Emulation.setDeviceMetricsOverride",
        json!({ "width": 1280, "height": 800, "deviceScaleFactor": 1.0, "mobile": false }),
    )
    .await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": FRAMES })).await;
    lines.push(format!(
        "{:<48} {:<22} {:<28} {:<10} target",
        "page", "task ms / frame", "browser CPU ms / frame", "frames/s"
    ));
    let mut best_peer_cpu = f64::INFINITY;
    let mut rows = Vec::new();
    for (name, url, speed, target) in &subjects {
        let (task, cpu, fps) = measure(&client, url, *speed).await;
        if target.is_none() {
            best_peer_cpu = best_peer_cpu.min(cpu);
        }
        rows.push((name.clone(), task, cpu, fps, *target));
    }
    for (name, task, cpu, fps, target) in rows {
        let mark = match target {
            Some(t) if name.ends_with("default view") => format!(
                "task ≤ {t} ms {}, CPU ≤ the best peer's {}",
                if task <= t { "met" } else { "NOT MET" },
                if cpu <= best_peer_cpu { "met" } else { "NOT MET" }
            ),
            Some(t) => format!("task ≤ {t} ms {}", if task <= t { "met" } else { "NOT MET" }),
            None => String::new(),
        };
        lines.push(format!("{name:<48} {task:<22.2} {cpu:<28.2} {fps:<10.0} {mark}"));
    }
    client.close().await.expect("close the WebDriver session");
    drop(browser);
    lines
}
