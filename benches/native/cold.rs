//! A reader's first visit: each load in a browser of its own with a fresh profile (nothing
//! cached, nothing compiled), as issue #34 measures it — when the first contentful paint comes,
//! when the first live frame is drawn, and how far the layout shifts when the app takes over.

use std::time::Duration;

use super::browser::Browser;
use super::page::{cdp, js, wait_until};
use serde_json::json;

/// Sums every layout shift not caused by input (Cumulative Layout Shift, as Chrome scores it).
const SHIFT_PROBE: &str = "window.__cls = 0; new PerformanceObserver((list) => { \
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; \
}).observe({ type: 'layout-shift', buffered: true });";

/// One cold load: first contentful paint and first live frame (ms from navigation), and the
/// layout shift until a second after that frame.
#[derive(Clone, Copy, Debug)]
pub struct Load {
    pub fcp: f64,
    pub live: f64,
    pub cls: f64,
}

/// `url` loaded `n` times, each in a new browser with a fresh profile.
pub async fn loads(url: &str, n: usize) -> Vec<Load> {
    let mut out = Vec::new();
    for _ in 0..n {
        let browser = Browser::start();
        let client = browser.connect().await;
        cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": SHIFT_PROBE })).await;
        client.goto(url).await.expect("open the app");
        let live = "performance.getEntriesByName('rlp-first-frame').length > 0";
        wait_until(&client, live, Duration::from_secs(20), "the first live frame").await;
        tokio::time::sleep(Duration::from_secs(1)).await;
        let v = js(
            &client,
            "return [performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN, \
             performance.getEntriesByName('rlp-first-frame')[0].startTime, window.__cls];",
        )
        .await;
        let n = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
        out.push(Load { fcp: n(0), live: n(1), cls: n(2) });
        client.close().await.expect("close the WebDriver session");
        drop(browser);
    }
    out
}
