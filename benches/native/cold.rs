//! A reader's first visit (issue #49): each load in a browser of its own with a fresh profile
//! (nothing cached, nothing compiled), files gzip-compressed as GitHub Pages sends them
//! ([`super::gzip_server`]), on a desktop without throttling and on a phone as Lighthouse's
//! mobile profile emulates one. Measured the same way for the app and for its peers:
//!
//! - **first contentful paint**: Chrome's `first-contentful-paint` entry;
//! - **first live chart**: the first animation frame after a `<canvas>` of the page was drawn on
//!   (any 2D drawing call, wrapped before the page's scripts run) and shows at least two colours
//!   (a chart, not a blank or a plain fill), as `performance.now()` in that frame's callback, or
//!   the first contentful paint if that is later (nothing is seen before it);
//! - **chart in the first screen**: the earlier of the first such canvas inside the viewport and
//!   the still the page's HTML draws (`#first-chart`, the app's page only) once it is laid out in
//!   the viewport, each no earlier than the first contentful paint; "—" when neither is there
//!   by a second after the first live chart;
//! - **transfer bytes**: what the network carried (headers included) for every response that
//!   ended before the live chart, from Resource Timing;
//! - **layout shift**: Chrome's score for every shift not caused by input, until a second
//!   after the live chart.

use std::time::Duration;

use super::browser::Browser;
use super::page::{cdp, js, wait_until};
use serde_json::json;

/// Installed before any of the page's scripts: the layout-shift sum, the canvas drawing probe
/// and the still probe (see the module's documentation), polled once per animation frame for
/// the first 30 s.
const PROBE: &str = r#"
window.__cls = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
}).observe({ type: 'layout-shift', buffered: true });
window.__chart = null;
window.__chartInView = null;
window.__still = null;
(() => {
  const raf = window.requestAnimationFrame.bind(window);
  const drawn = new Set();
  const P = CanvasRenderingContext2D.prototype;
  for (const m of ['fill', 'stroke', 'fillRect', 'strokeRect', 'fillText', 'strokeText', 'drawImage', 'putImageData']) {
    const f = P[m];
    P[m] = function (...a) { drawn.add(this.canvas); return f.apply(this, a); };
  }
  const inView = (e) => {
    const r = e.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && r.top < innerHeight && r.bottom > 0 && r.left < innerWidth && r.right > 0;
  };
  const twoColours = (c) => {
    try {
      const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      for (let i = 4; i < d.length; i += 4) {
        if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2] || d[i + 3] !== d[3]) return true;
      }
    } catch (_) {}
    return false;
  };
  const tick = () => {
    const now = performance.now();
    if (window.__still === null) {
      const still = [...document.querySelectorAll('#first-chart svg')].find((s) => inView(s));
      if (still) window.__still = now;
    }
    for (const c of drawn) {
      if (window.__chartInView !== null) break;
      if (!twoColours(c)) continue;
      if (window.__chart === null) window.__chart = now;
      if (inView(c)) window.__chartInView = now;
    }
    drawn.clear();
    if (now < 30000) raf(tick);
  };
  raf(tick);
})();
"#;

/// How long a new browser is left to finish starting before the page is loaded.
const SETTLE: Duration = Duration::from_millis(1500);

/// What the loads are measured on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// 1280 × 800 at one device pixel per CSS pixel, no throttling.
    Desktop,
    /// Lighthouse's mobile profile: 412 × 823 at 1.75, touch, 150 ms round trip, 1.6 Mbit/s
    /// down, 750 kbit/s up, the CPU 4× slower.
    Phone,
}

impl Profile {
    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Desktop => "desktop",
            Profile::Phone => "phone (Lighthouse mobile)",
        }
    }

    /// Sets the profile up on a fresh page, before it navigates (the blank page has no viewport
    /// tag, so a phone's layout width shows only once the page is in).
    async fn apply(self, client: &fantoccini::Client) {
        let metrics = |width: u32, height: u32, scale: f64, mobile: bool| json!({ "width": width, "height": height, "deviceScaleFactor": scale, "mobile": mobile });
        match self {
            Profile::Desktop => {
                cdp(client, "Emulation.setDeviceMetricsOverride", metrics(1280, 800, 1.0, false)).await;
            }
            Profile::Phone => {
                cdp(client, "Emulation.setDeviceMetricsOverride", metrics(412, 823, 1.75, true)).await;
                cdp(client, "Network.enable", json!({})).await;
                let network = json!({
                    "offline": false,
                    "latency": 150,
                    "downloadThroughput": 1_600_000 / 8,
                    "uploadThroughput": 750_000 / 8,
                });
                cdp(client, "Network.emulateNetworkConditions", network).await;
                cdp(client, "Emulation.setCPUThrottlingRate", json!({ "rate": 4 })).await;
            }
        }
    }
}

/// One cold load; times in ms from navigation.
#[derive(Clone, Copy, Debug)]
pub struct Load {
    /// First contentful paint.
    pub fcp: f64,
    /// First live chart.
    pub live: f64,
    /// The first chart in the first screen (NaN if none was, until the live chart).
    pub first_screen: f64,
    /// Bytes transferred until the live chart.
    pub bytes: f64,
    /// Cumulative layout shift until a second after the live chart.
    pub cls: f64,
    /// The app's own mark of its first frame after mounting (`rlp-first-frame`; NaN for a peer).
    pub mark: f64,
}

/// `url` loaded `n` times on `profile`, each in a new browser with a fresh profile.
pub async fn loads(url: &str, profile: Profile, n: usize) -> Vec<Load> {
    let mut out = Vec::new();
    for _ in 0..n {
        let browser = Browser::start();
        let client = browser.connect().await;
        profile.apply(&client).await;
        // A reader's browser is already running when they follow a link: let this one finish
        // starting (its GPU and network processes, its first blank page) before the clock starts,
        // so the load is timed, not the launch. The profile stays fresh: nothing of any page is
        // cached or compiled.
        tokio::time::sleep(SETTLE).await;
        cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": PROBE })).await;
        client.goto(url).await.expect("open the page");
        wait_until(&client, "window.__chart !== null", Duration::from_secs(60), "the first live chart").await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        let v = js(
            &client,
            "const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN; \
             const live = Math.max(window.__chart, fcp); \
             const still = window.__still === null ? NaN : Math.max(window.__still, fcp); \
             const inView = window.__chartInView === null ? NaN : Math.max(window.__chartInView, fcp); \
             const shown = [still, inView].filter((t) => !Number.isNaN(t)); \
             const done = [...performance.getEntriesByType('navigation'), ...performance.getEntriesByType('resource')] \
               .filter((e) => e.responseEnd <= live); \
             return [fcp, live, shown.length ? Math.min(...shown) : NaN, \
               done.reduce((sum, e) => sum + e.transferSize, 0), window.__cls, \
               performance.getEntriesByName('rlp-first-frame')[0]?.startTime ?? NaN];",
        )
        .await;
        let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
        out.push(Load { fcp: n(0), live: n(1), first_screen: n(2), bytes: n(3), cls: n(4), mark: n(5) });
        client.close().await.expect("close the WebDriver session");
        drop(browser);
    }
    out
}

/// What is loaded: the app's page or frame, or a peer's site.
struct Subject {
    /// Its name in the table.
    name: String,
    /// The address loaded.
    url: String,
    /// Whether the issue's targets apply (the app's loads; the peers are a comparison).
    ours: bool,
    /// Whether its HTML paints a still of its chart (the app's page; a frame's link may ask for
    /// any scenario and cards, so its HTML has none).
    still: bool,
}

/// The median and the range of `f` over `loads`, as "median (min–max)"; and the median.
fn summary(loads: &[Load], f: fn(&Load) -> f64, digits: usize) -> (String, f64) {
    let mut v: Vec<f64> = loads.iter().map(f).collect();
    v.sort_by(f64::total_cmp);
    let median = v[v.len() / 2];
    if median.is_nan() {
        return ("—".into(), median);
    }
    let (lo, hi) = (v[0], v[v.len() - 1]);
    (format!("{median:.digits$} ({lo:.digits$}–{hi:.digits$})"), median)
}

/// The targets of issue #49 for the app on `profile`, each met or not by the medians (the first
/// screen's only where the HTML paints a still).
fn targets(profile: Profile, still: bool, fcp: f64, live: f64, first: f64, cls: f64) -> String {
    let mark = |ok: bool| if ok { "met" } else { "NOT MET" };
    match profile {
        Profile::Desktop => format!(
            "FCP ≤ 150 {}, chart ≤ 250 {}, CLS ≤ 0.01 {}",
            mark(fcp <= 150.0),
            mark(live <= 250.0),
            mark(cls <= 0.01)
        ),
        Profile::Phone => format!(
            "chart ≤ 2000 {}, {}CLS ≤ 0.01 {}",
            mark(live <= 2000.0),
            if still { format!("first screen ≤ 700 {}, ", mark(first <= 700.0)) } else { String::new() },
            mark(cls <= 0.01)
        ),
    }
}

/// Five cold loads of the app's page and frame (served from `dist`) and of each peer that is
/// available, on both profiles: the table's lines, with a line for each peer left out.
pub async fn table(dist: &std::path::Path) -> Vec<String> {
    let ours = super::gzip_server::GzipServer::start(dist);
    let mut subjects = vec![
        Subject { name: "ratelimit-playground, the page".into(), url: ours.url.clone(), ours: true, still: true },
        Subject {
            name: "ratelimit-playground, a frame".into(),
            url: format!("{}?embed=1", ours.url),
            ours: true,
            still: false,
        },
    ];
    let mut lines = Vec::new();
    for peer in &super::peers::PEERS {
        match peer.site() {
            Ok(site) => {
                let host = super::gzip_server::GzipServer::start(&site);
                subjects.push(Subject { name: peer.name.into(), url: host.url, ours: false, still: false });
            }
            Err(why) => lines.push(why),
        }
    }
    lines.push(format!(
        "{:<36} {:<26} {:<20} {:<20} {:<20} {:<14} {:<7} targets (#49)",
        "app", "profile", "FCP ms", "first live chart ms", "chart 1st screen ms", "transfer KB", "CLS"
    ));
    let mut marks = Vec::new();
    for profile in [Profile::Desktop, Profile::Phone] {
        for s in &subjects {
            let loads = loads(&s.url, profile, 5).await;
            if s.ours {
                let (mark, _) = summary(&loads, |l| l.mark, 0);
                marks.push(format!("  {}, {}: {mark} ms", s.name, profile.name()));
            }
            let (fcp, fcp_m) = summary(&loads, |l| l.fcp, 0);
            let (live, live_m) = summary(&loads, |l| l.live, 0);
            let (first, first_m) = summary(&loads, |l| l.first_screen, 0);
            let (_, bytes) = summary(&loads, |l| l.bytes, 0);
            let (_, cls) = summary(&loads, |l| l.cls, 3);
            let target = if s.ours { targets(profile, s.still, fcp_m, live_m, first_m, cls) } else { String::new() };
            lines.push(format!(
                "{:<36} {:<26} {fcp:<20} {live:<20} {first:<20} {:<14.1} {cls:<7.3} {target}",
                s.name,
                profile.name(),
                bytes / 1000.0
            ));
        }
    }
    lines.push("The app's own mark of its first frame after mounting (rlp-first-frame), for comparison:".into());
    lines.extend(marks);
    lines
}
