//! Accessible as it changes (issue #50): axe-core, at the version the bootstrap pins, run in
//! the page in every view (one algorithm, Compare all, Multi-node) with every panel opened, and
//! at every step of the tour, light and dark: no violations.

use super::*;

/// axe-core's browser build from the bootstrap's tool cache.
fn axe_source() -> String {
    let home = std::env::var_os("HOME").expect("HOME is set");
    let path =
        std::path::PathBuf::from(home).join(".cache/ratelimit-playground/node-axe/node_modules/axe-core/axe.min.js");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (scripts/bootstrap.sh --test installs axe-core)", path.display()))
}

#[test]
fn axe_finds_nothing_in_any_view_or_tour_step_light_or_dark() {
    one_browser_at_a_time(axe_everywhere());
}

async fn axe_everywhere() {
    let (server, browser, client) = launch().await;
    cdp(&client, "Page.addScriptToEvaluateOnNewDocument", json!({ "source": axe_source() })).await;
    viewport(&client, 1280, 800, 1.0, false).await;
    let mut pages: Vec<(String, String)> =
        [("home", ""), ("Compare all", "?view=compare"), ("Multi-node", "?view=cluster")]
            .iter()
            .map(|(name, query)| (name.to_string(), query.to_string()))
            .collect();
    pages.extend((1..=10).map(|step| (format!("tour step {step}"), format!("?tour=path&step={step}"))));
    let mut found = Vec::new();
    for scheme in ["light", "dark"] {
        let media = json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] });
        cdp(&client, "Emulation.setEmulatedMedia", media).await;
        for (name, query) in &pages {
            client.goto(&format!("{}{query}", server.url)).await.expect("open the page");
            let ready = "document.querySelector('canvas') && (document.querySelector('.controls .slider') || document.querySelector('#tour'))";
            wait_until(&client, ready, Duration::from_secs(15), &format!("{name} has mounted")).await;
            // Every panel open, so what each holds is checked too.
            js(
                &client,
                "document.querySelectorAll('.fold-toggle[aria-expanded=false]').forEach(b => b.click()); return null;",
            )
            .await;
            tokio::time::sleep(Duration::from_millis(800)).await;
            let violations = js(
                &client,
                "return axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')));",
            )
            .await;
            if violations != json!([]) {
                found.push(format!("{name}, {scheme}: {violations}"));
            }
        }
    }
    assert!(found.is_empty(), "axe found:\n{}", found.join("\n"));
    client.close().await.expect("close the WebDriver session");
    drop(browser);
}
