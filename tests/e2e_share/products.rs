//! The product models in the page: "Run this config" switches to the tab's model with exactly
//! the exported numbers and states the difference from the textbook algorithm (the same numbers
//! as the CLI); the product picker and each product's knobs change the run and the URL. The
//! page's first module has no product models: it hands a pick over to the whole page, and a
//! product link opens the whole page directly.

use std::time::Duration;

use fantoccini::{Client, Locator};
use serde_json::{json, Value};

use super::page::{cdp, click, js, screenshot, set_control, text, viewport, wait_until};
use super::{assert_clean, load_panel, open, save_png, start};

/// What `ratelimit-sim --query Q` admits.
fn cli_admitted(query: &str) -> u64 {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["--query", query])
        .output()
        .expect("ratelimit-sim runs");
    let report: Value = serde_json::from_slice(&out.stdout).expect("a JSON report");
    report["admitted"].as_u64().expect("admitted")
}

/// The product picker's two groups: the products whose real software `make test` runs, then
/// those read from source or documentation, said to be not run here.
async fn picker_groups_say_what_runs_here(client: &Client, which: &str) {
    let groups = js(
        client,
        "return [...document.querySelectorAll('#algo-product optgroup')].map(g => [g.label, [...g.children].map(o => o.value)]);",
    )
    .await;
    let groups: Vec<(String, Vec<String>)> = serde_json::from_value(groups).expect("optgroups");
    assert_eq!(groups.len(), 2, "{which}: {groups:?}");
    let (run, read) = (&groups[0], &groups[1]);
    assert_eq!(run.0, "Checked against the real software", "{which}");
    assert!(read.0.ends_with("not run here"), "{which}: {}", read.0);
    for key in ["nginx", "haproxy", "redis_cell", "go_rate", "governor"] {
        assert!(run.1.iter().any(|k| k == key), "{which}: {key} is run here: {groups:?}");
    }
    for key in ["kong", "aws", "cloudflare", "spring", "envoy_global", "traefik"] {
        assert!(read.1.iter().any(|k| k == key), "{which}: {key} is not run here: {groups:?}");
    }
    let all = ratelimit_playground::sim::products::REGISTRY.len();
    assert_eq!(run.1.len() + read.1.len(), all, "{which}: every product once: {groups:?}");
}

pub async fn run_config_and_product_picker() {
    let (server, browser, client) = start().await;
    open(&client, &format!("{}?capacity=5&refill=0.017&rate=1&duration=600", server.url)).await;
    // The first module's stand-in lists the same products in the same order, without the groups.
    let listed =
        js(&client, "return [...document.querySelectorAll('#algo-product option')].map(o => o.value).filter(v => v);")
            .await;
    let listed: Vec<String> = serde_json::from_value(listed).expect("options");
    let at = |key: &str| listed.iter().position(|k| k == key).unwrap_or_else(|| panic!("{key} in {listed:?}"));
    assert!(at("go_rate") < at("kong") && at("haproxy") < at("traefik"), "run here first: {listed:?}");
    load_panel(&client, "#production-load", "#production-snippet", "production-tab-0").await;

    // Run this config on the nginx tab: the model of exactly the exported snippet.
    let snippet = text(&client, "#production-snippet").await;
    assert!(snippet.contains("rate=1r/m;") && snippet.contains("burst=4 nodelay;"), "{snippet}");
    assert_eq!(text(&client, "#production-run").await, "Run this config (nginx model)");
    click(&client, "#production-run").await;
    wait_until(&client, "location.search.includes('algo=nginx')", Duration::from_secs(3), "the URL says algo=nginx")
        .await;
    assert_eq!(js(&client, "return document.querySelector('#algo-product').value;").await, json!("nginx"));
    picker_groups_say_what_runs_here(&client, "the whole page's picker").await;
    // Above the parameters, which model reads them (the groups keep the textbook's names).
    let reads = text(&client, "#product-reads").await;
    assert!(reads.starts_with("nginx limit_req runs on the parameters below"), "{reads}");
    assert_eq!(text(&client, "#production-snippet").await, snippet, "the model runs the config that was shown");
    assert_eq!(js(&client, "return document.querySelector('#production-run').disabled;").await, json!(true));
    assert_eq!(text(&client, "#production-run").await, "Running this config");
    // Then the reader is taken to the chart it changed, which says what nginx did differently.
    let shown = "(c => c && c.getBoundingClientRect().top >= 0 && c.getBoundingClientRect().top < innerHeight)(document.querySelector('#ran-callout'))";
    wait_until(&client, shown, Duration::from_secs(3), "the throughput card says what ran, in view").await;
    let ran = text(&client, "#ran-callout").await;
    assert!(ran.starts_with("Ran the configuration: nginx admits") && ran.contains("fewer"), "{ran}");

    // The side-by-side: the numbers the CLI gives for both algorithms on the same arrivals.
    let side = "document.querySelector('#production-side')?.textContent.includes('fewer')";
    wait_until(&client, side, Duration::from_secs(5), "the side-by-side sentence").await;
    let sentence = text(&client, "#production-side").await;
    let nginx = cli_admitted("algo=nginx&capacity=5&refill=0.017&rate=1&duration=600");
    let bucket = cli_admitted("capacity=5&refill=0.017&rate=1&duration=600");
    assert!(nginx < bucket, "{nginx} vs {bucket}");
    assert!(sentence.contains(&format!("{nginx} against {bucket}")), "{sentence}");
    assert!(sentence.contains("truncates to 16 milli-requests/s"), "{sentence}");

    // nodelay off: the snippet drops it, nginx delays instead of refusing, the URL keeps it.
    js(&client, "document.querySelector('#nginx-nodelay').click();").await;
    wait_until(&client, "location.search.includes('nodelay=0')", Duration::from_secs(3), "nodelay=0 in the URL").await;
    let snippet = text(&client, "#production-snippet").await;
    assert!(snippet.contains("burst=4;") && !snippet.contains("nodelay"), "{snippet}");
    let delays = "document.querySelector('#production-side').textContent.includes('delays')";
    wait_until(&client, delays, Duration::from_secs(5), "the side-by-side counts the delayed requests").await;

    js(&client, "document.querySelector('#production').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let panel = client.find(Locator::Css("#production")).await.expect("the production panel");
    save_png("production-run.png", &panel.screenshot().await.expect("screenshot the panel"));

    // The last response is what nginx sends: without limit_req_status a 503, and no headers.
    js(&client, "document.querySelector('#nginx-nodelay').click(); document.querySelector('#nginx-503').click();")
        .await;
    wait_until(
        &client,
        "location.search.includes('nginx_status=503') && !location.search.includes('nodelay=0')",
        Duration::from_secs(3),
        "nodelay back on, 503",
    )
    .await;
    click(&client, "#jump-600").await;
    let refused = "document.querySelector('#headers .status-line').textContent === 'HTTP/1.1 503 Service Temporarily Unavailable'";
    for _ in 0..20 {
        if js(&client, &format!("return {refused};")).await == json!(true) {
            break;
        }
        click(&client, "#step").await;
    }
    wait_until(&client, refused, Duration::from_secs(3), "a 503 from nginx").await;
    assert_eq!(js(&client, "return document.querySelectorAll('#headers .header-line').length;").await, json!(0));
    assert!(text(&client, ".response .hint").await.contains("sends none"));

    // Compare mode: the five algorithms and nginx, on the same arrivals.
    click(&client, "#algo-compare").await;
    wait_until(
        &client,
        "document.querySelectorAll('.compare-column').length === 6",
        Duration::from_secs(3),
        "six columns",
    )
    .await;
    assert_eq!(
        js(&client, "return document.querySelectorAll('.compare-column')[5].dataset.algo;").await,
        json!("nginx")
    );
    assert_eq!(js(&client, "return !!document.querySelector('#mini-product');").await, json!(true));
    click(&client, "#jump-60").await;
    js(&client, "document.querySelector('.compare-grid').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "product-compare.png").await;

    // The picker: the Lua script model shaped by its script; its knob only for it.
    set_control(&client, "#algo-product", "redis_lua", "change").await;
    wait_until(&client, "!!document.querySelector('#lua-script')", Duration::from_secs(3), "the script choice").await;
    assert_eq!(js(&client, "return !!document.querySelector('#nginx-nodelay');").await, json!(false));
    set_control(&client, "#lua-script", "sliding_window", "change").await;
    wait_until(&client, "location.search.includes('lua=sliding_window')", Duration::from_secs(3), "lua= in the URL")
        .await;
    let sub = "document.querySelector('#state-chart').closest('figure').querySelector('.chart-sub').textContent";
    wait_until(
        &client,
        &format!("{sub} === 'Weighted estimate and its two counters'"),
        Duration::from_secs(3),
        "a sliding-window state chart",
    )
    .await;

    // A product picked opens the production panel on its own tab; Rack::Attack's 429 carries
    // only its Retry-After, which the last response shows as the product's own.
    let own_tab = |target: &str| {
        format!("document.querySelector('#production [role=tab][aria-selected=true]')?.dataset.target === '{target}'")
    };
    wait_until(&client, &own_tab("Redis Lua script"), Duration::from_secs(3), "the Lua script's tab").await;
    set_control(&client, "#algo-product", "rack_attack", "change").await;
    wait_until(&client, &own_tab("Rack::Attack"), Duration::from_secs(3), "Rack::Attack's tab").await;
    assert!(text(&client, "#production-snippet").await.contains("Rack::Attack.throttle(\"requests per ip\""));
    click(&client, "#jump-60").await;
    let throttled = "document.querySelector('#headers .status-line').textContent.startsWith('HTTP/1.1 429')";
    for _ in 0..20 {
        if js(&client, &format!("return {throttled};")).await == json!(true) {
            break;
        }
        click(&client, "#step").await;
    }
    wait_until(&client, throttled, Duration::from_secs(3), "a 429 from Rack::Attack").await;
    let lines =
        js(&client, "return [...document.querySelectorAll('#headers .header-line')].map(l => l.textContent);").await;
    assert!(
        lines.as_array().is_some_and(|l| l.len() == 1 && l[0].as_str().unwrap().starts_with("Retry-After: ")),
        "{lines}"
    );
    assert!(text(&client, ".response .hint").await.contains("sets itself"));
    // How they differ: a row per product, the registry's words.
    js(&client, "document.querySelector('#differences summary').click();").await;
    let rows =
        js(&client, "return [...document.querySelectorAll('#differences-table tbody tr')].map(r => r.textContent);")
            .await;
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), ratelimit_playground::sim::products::REGISTRY.len(), "{rows:?}");
    assert!(
        rows.iter().any(|r| r.as_str().unwrap().starts_with("Rack::Attack (Rails)whole sthe Unix epochyes")),
        "{rows:?}"
    );
    js(&client, "document.querySelector('#differences').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "product-differences.png").await;

    // rate-limiter-flexible's block: a slider whose field takes seconds to the ms, into the URL.
    set_control(&client, "#algo-product", "rlflex", "change").await;
    wait_until(&client, "!!document.querySelector('#product-block-field')", Duration::from_secs(3), "the block slider")
        .await;
    assert!(text(&client, "label[for=product-block]").await.contains("0: none"));
    set_control(&client, "#product-block-field", "3.5", "change").await;
    wait_until(&client, "location.search.includes('block=3.5')", Duration::from_secs(3), "block= in the URL").await;
    assert!(text(&client, "#production-snippet").await.contains("blockDuration: 3.5"));

    // Back to a textbook algorithm: the picker shows no product.
    set_control(&client, "#algo-product", "envoy", "change").await;
    wait_until(&client, "!!document.querySelector('#envoy-timer')", Duration::from_secs(3), "Envoy's timer knob").await;
    js(&client, "window.scrollTo(0, 0);").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    screenshot(&client, "product-desktop.png").await;

    viewport(&client, 375, 812, 1.0, true).await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    let scroll = js(&client, "return document.documentElement.scrollWidth;").await;
    assert!(scroll.as_f64().unwrap_or(999.0) <= 375.0, "the page scrolls sideways at 375 px: {scroll}");
    screenshot(&client, "product-mobile.png").await;
    js(&client, "document.querySelector('#production').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "product-mobile-panel.png").await;
    js(&client, "document.querySelector('#differences').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "product-mobile-differences.png").await;

    viewport(&client, 1280, 800, 1.0, false).await;
    let dark = json!({ "features": [{ "name": "prefers-color-scheme", "value": "dark" }] });
    cdp(&client, "Emulation.setEmulatedMedia", dark).await;
    js(&client, "window.scrollTo(0, 0);").await;
    tokio::time::sleep(Duration::from_millis(400)).await;
    screenshot(&client, "product-dark.png").await;

    // Same policy, every product: the CLI's rows for this address, and each row runs its config.
    js(&client, "document.querySelector('#every-product summary').click();").await;
    let table = "document.querySelectorAll('#every-product-table tbody tr').length > 0";
    wait_until(&client, table, Duration::from_secs(10), "the every-product table").await;
    let query = js(&client, "return location.search.slice(1);").await;
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["--query", query.as_str().unwrap(), "--format", "products"])
        .output()
        .expect("ratelimit-sim runs");
    let cli: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(5).collect::<Vec<_>>().join(","))
        .collect();
    let page = js(
        &client,
        "return [...document.querySelectorAll('#every-product-table tbody tr')].map(r => { \
           const c = [...r.children].map(x => x.textContent); \
           const run = r.querySelector('.every-run'); \
           const tag = r.querySelector('.not-run') ? 'not run' : ''; \
           return [r.children[0].firstChild.textContent.trim(), run ? run.dataset.export : '', c[1], c[2], tag]; });",
    )
    .await;
    let page: Vec<Vec<String>> = serde_json::from_value(page).unwrap();
    assert_eq!(page.len(), cli.len(), "one row per limiter: {page:?}");
    for (row, line) in page.iter().zip(&cli) {
        let cols: Vec<&str> = line.split(',').collect();
        assert_eq!((row[0].as_str(), row[1].as_str()), (cols[0], cols[2]), "{line}");
        assert_eq!((row[2].as_str(), row[3].as_str()), (cols[3], cols[4]), "{}: admitted, refused as the CLI", row[0]);
        // The models read from source or docs say so.
        let not_run = ["envoy", "traefik", "kong", "envoy-global", "spring", "aws", "cloudflare"].contains(&cols[2]);
        assert_eq!(row[4] == "not run", not_run, "{line}");
    }
    js(&client, "document.querySelector('#every-product').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    screenshot(&client, "every-product-dark.png").await;
    viewport(&client, 375, 812, 1.0, true).await;
    js(&client, "document.querySelector('#every-product').scrollIntoView();").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let scroll = js(&client, "return document.documentElement.scrollWidth;").await;
    assert!(scroll.as_f64().unwrap_or(999.0) <= 375.0, "the table scrolls the page sideways: {scroll}");
    screenshot(&client, "every-product-mobile.png").await;
    viewport(&client, 1280, 800, 1.0, false).await;
    click(&client, "#every-product .every-run[data-export=haproxy]").await;
    wait_until(&client, "location.search.includes('algo=haproxy')", Duration::from_secs(3), "HAProxy runs").await;
    wait_until(&client, shown, Duration::from_secs(3), "the chart HAProxy changed, in view").await;
    assert!(text(&client, "#ran-callout").await.starts_with("Ran the configuration: HAProxy"));

    click(&client, "#algo-token_bucket").await;
    wait_until(
        &client,
        "document.querySelector('#algo-product').value === ''",
        Duration::from_secs(3),
        "no product chosen",
    )
    .await;
    assert_eq!(js(&client, "return !!document.querySelector('#production-side');").await, json!(false));

    assert_clean(&client, "the product models").await;
    client.close().await.expect("close the session");
    drop(browser);
}

/// Which of the page's wasm modules the browser has fetched: (first module, whole page).
async fn modules_fetched(client: &fantoccini::Client) -> (bool, bool) {
    let fetched = |name: &str| {
        format!("return performance.getEntriesByType('resource').some(e => e.name.includes('{name}') && e.name.endsWith('.wasm'));")
    };
    let first = js(client, &fetched("ratelimit-playground")).await == json!(true);
    let whole = js(client, &fetched("ratelimit-full")).await == json!(true);
    (first, whole)
}

pub async fn products_run_in_the_whole_page() {
    let (server, browser, client) = start().await;

    // Picked on the first module's stand-in: the whole page takes over and runs the model from
    // t = 0, with the picker, the explanation and the address on it.
    open(&client, &format!("{}?rate=9", server.url)).await;
    assert_eq!(modules_fetched(&client).await, (true, false), "the page opens on its first module");
    click(&client, "#jump-60").await;
    set_control(&client, "#algo-product", "governor", "change").await;
    let governed = "document.querySelector('#explanation-title')?.textContent === 'How governor behaves'";
    wait_until(&client, governed, Duration::from_secs(15), "the whole page explains governor").await;
    assert_eq!(modules_fetched(&client).await, (true, true));
    assert_eq!(js(&client, "return document.querySelector('#algo-product').value;").await, json!("governor"));
    let search = js(&client, "return location.search;").await;
    assert!(search.as_str().is_some_and(|s| s.contains("algo=governor") && s.contains("rate=9")), "{search}");
    let secs = js(&client, "return Number(document.querySelector('#clock').dataset.ns) / 1e9;").await;
    assert!(
        secs.as_f64().is_some_and(|s| s < 30.0),
        "the model starts from t = 0, not where the first module was: {secs}"
    );
    assert_clean(&client, "a product picked on the first module").await;

    // A product link: the loader starts the whole page at once; the first module never loads.
    open(&client, &format!("{}?algo=envoy&rate=9", server.url)).await;
    let envoy =
        "document.querySelector('#explanation-title')?.textContent === \"How Envoy's local rate limit behaves\"";
    wait_until(&client, envoy, Duration::from_secs(15), "the whole page explains Envoy").await;
    assert_eq!(modules_fetched(&client).await, (false, true), "a product link opens the whole page directly");
    assert_eq!(js(&client, "return !!document.querySelector('#envoy-timer');").await, json!(true));
    assert_clean(&client, "a product link").await;

    client.close().await.expect("close the session");
    drop(browser);
}
