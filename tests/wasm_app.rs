#![cfg(target_arch = "wasm32")]
//! Browser tests of the web app (run with `CHROMEDRIVER=/usr/bin/chromedriver cargo test --target
//! wasm32-unknown-unknown`): the page mounts and counts live, fast-forward and compare mode work,
//! the loop pauses out of view and resumes without a burst, and the page cleans up after itself;
//! a link in the address restores the page and edits are written back, the embed layout shows
//! only its controls and posts its height and status (a link it would correct is the whole page's
//! module's, which names what it changed), and the production panel follows the policy. The chart canvases have their own file, `wasm_charts.rs`.

use gloo_timers::future::TimeoutFuture;
use leptos::mount::mount_to;
use leptos::view;
use ratelimit_playground::app::{App, EmbedPage, WholeEmbedPage};
use ratelimit_playground::chart::theme::ChartTheme;
use ratelimit_playground::present::modules;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{js_sys, HtmlCanvasElement, HtmlElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A fresh 1100 px wide container attached to the body, with no panel remembered open from an
/// earlier test.
fn host() -> HtmlElement {
    web_sys::window().unwrap().local_storage().unwrap().unwrap().clear().unwrap();
    let host: HtmlElement = document().create_element("div").unwrap().unchecked_into();
    host.style().set_property("width", "1100px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    host
}

fn el(host: &HtmlElement, selector: &str) -> HtmlElement {
    host.query_selector(selector).unwrap().unwrap_or_else(|| panic!("no {selector}")).unchecked_into()
}

/// Opens the folded panel `#id` by its title's button, as a reader does.
async fn unfold(host: &HtmlElement, id: &str) {
    let toggle = el(host, &format!("#{id} > h2 > .fold-toggle"));
    assert_eq!(toggle.get_attribute("aria-expanded").as_deref(), Some("false"), "#{id} starts folded");
    toggle.click();
    TimeoutFuture::new(20).await;
    assert!(host.query_selector(&format!("#{id}-body")).unwrap().is_some(), "#{id} did not open");
}

fn text_of(host: &HtmlElement, selector: &str) -> String {
    el(host, selector).text_content().unwrap()
}

fn count(host: &HtmlElement, selector: &str) -> u64 {
    let text = text_of(host, selector);
    text.replace(',', "").parse().unwrap_or_else(|_| panic!("{selector} is not an integer like 12,345: {text:?}"))
}

/// Simulated time shown by the clock, in nanoseconds.
fn clock_ns(host: &HtmlElement) -> u64 {
    el(host, "#clock").get_attribute("data-ns").unwrap().parse().unwrap()
}

/// Pixels of `canvas` within a small distance of `colour`.
fn pixels_near(canvas: &HtmlCanvasElement, colour: plotters::style::RGBColor) -> usize {
    // Read through a copy: a canvas the paint worker paints has no context of its own here.
    let copy: HtmlCanvasElement = document().create_element("canvas").unwrap().unchecked_into();
    copy.set_width(canvas.width());
    copy.set_height(canvas.height());
    let ctx: web_sys::CanvasRenderingContext2d = copy.get_context("2d").unwrap().unwrap().unchecked_into();
    ctx.draw_image_with_html_canvas_element(canvas, 0.0, 0.0).unwrap();
    let data = ctx.get_image_data(0.0, 0.0, canvas.width().into(), canvas.height().into()).unwrap().data();
    data.chunks(4)
        .filter(|p| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).abs();
            p[3] > 0 && d(p[0], colour.0) + d(p[1], colour.1) + d(p[2], colour.2) <= 30
        })
        .count()
}

#[wasm_bindgen_test]
async fn app_counts_live_jumps_ahead_compares_and_cleans_up() {
    let host = host();
    let handle = mount_to(host.clone(), || view! { <App caps=modules::WHOLE /> });
    TimeoutFuture::new(600).await;

    // The page opens on 8 requests/s into a bucket refilled at 5 tokens/s, running.
    let requests = count(&host, "#requests");
    assert!(requests > 0, "no requests after 0.6 s of running");
    assert_eq!(count(&host, "#admitted") + count(&host, "#rejected"), requests);
    let chart: HtmlCanvasElement = el(&host, "#chart").unchecked_into();
    assert!(chart.width() > 0 && chart.width() == chart.client_width() as u32, "data layer not sized at DPR 1");

    // Fast-forward a minute: computed at once, and the bucket has long been rejecting.
    // (A chart is drawn only while it is in view.)
    chart.scroll_into_view();
    TimeoutFuture::new(100).await;
    let before = clock_ns(&host);
    let drawn_before = chart.to_data_url().unwrap();
    el(&host, "#jump-60").click();
    TimeoutFuture::new(50).await;
    // Regression: the data layer drew once at mount and never again.
    assert_ne!(chart.to_data_url().unwrap(), drawn_before, "the chart did not redraw after the jump");
    assert!(clock_ns(&host) >= before + 60_000_000_000, "the jump did not add 60 s");
    assert!(count(&host, "#rejected") > 100, "a minute of 8/s into 5/s should reject");
    assert!(text_of(&host, "#first-rejection").contains("C ÷ (λ − r) predicts 3.33 s"));
    // Why the first 429 comes before the prediction, in the engine's numbers.
    assert!(text_of(&host, "#first-rejection").contains("first arrival after (C − 1) ÷ (λ − r) = 3.00 s"));
    assert!(text_of(&host, "#headers").contains("RateLimit-Policy: \"default\";q=10;w=2"));

    // Compare mode: five columns on the same arrivals.
    el(&host, "#algo-compare").click();
    el(&host, "#jump-10").click();
    TimeoutFuture::new(100).await;
    let columns = host.query_selector_all(".compare-column").unwrap();
    assert_eq!(columns.length(), 5);
    let requests: Vec<String> = (0..5)
        .map(|i| columns.item(i).unwrap().unchecked_into::<HtmlElement>().get_attribute("data-requests").unwrap())
        .collect();
    assert!(requests.iter().all(|r| r == &requests[0] && r != "0"), "{requests:?}");
    assert!(host.query_selector("#disagreement").unwrap().is_some());

    // Unmounting removes the page and stops the loop.
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the app left elements behind");
    host.remove();
}

#[wasm_bindgen_test]
async fn the_loop_pauses_out_of_view_or_in_a_hidden_tab_and_resumes_without_a_burst() {
    let host = host();
    let handle = mount_to(host.clone(), || view! { <App caps=modules::WHOLE /> });
    TimeoutFuture::new(400).await;
    assert!(clock_ns(&host) > 0, "not running");

    // Scrolled far out of view: the IntersectionObserver holds the loop.
    host.style().set_property("margin-top", "20000px").unwrap();
    TimeoutFuture::new(300).await;
    let held = clock_ns(&host);
    TimeoutFuture::new(700).await;
    assert_eq!(clock_ns(&host), held, "simulated time moved while out of view");
    assert_eq!(text_of(&host, "#play-status"), "waiting while out of view");

    // Back in view: it resumes from where it was, without catching up the second it missed.
    host.style().set_property("margin-top", "0").unwrap();
    TimeoutFuture::new(400).await;
    let resumed = clock_ns(&host) - held;
    assert!(resumed > 0, "did not resume");
    assert!(resumed < 700_000_000, "resumed with a burst of {} ms", resumed / 1_000_000);

    // A hidden tab holds it too (headless Chromium is never hidden: pretend, and tell the page).
    let set_hidden = |hidden: bool| {
        let script = format!(
            "Object.defineProperty(document, 'hidden', {{ configurable: true, get: () => {hidden} }}); document.dispatchEvent(new Event('visibilitychange'));"
        );
        js_sys::Function::new_no_args(&script).call0(&wasm_bindgen::JsValue::NULL).unwrap();
    };
    set_hidden(true);
    TimeoutFuture::new(100).await;
    let hidden_at = clock_ns(&host);
    TimeoutFuture::new(600).await;
    assert_eq!(clock_ns(&host), hidden_at, "simulated time moved while the tab was hidden");
    set_hidden(false);
    TimeoutFuture::new(300).await;
    let after = clock_ns(&host) - hidden_at;
    assert!(after > 0 && after < 600_000_000, "resumed by {} ms after the tab came back", after / 1_000_000);
    js_sys::Function::new_no_args("delete document.hidden;").call0(&wasm_bindgen::JsValue::NULL).unwrap();

    drop(handle);
    host.remove();
}

/// Replaces the page's address query (the app reads it when it mounts); returns the old one.
fn set_query(query: &str) -> String {
    let window = web_sys::window().unwrap();
    let old = window.location().search().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("?{query}")))
        .unwrap();
    old
}

/// Puts the address back as it was before a test changed it.
fn restore_query(old: &str) {
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&format!("{path}{old}")))
        .unwrap();
}

fn ids(host: &HtmlElement, selector: &str) -> Vec<String> {
    let list = host.query_selector_all(selector).unwrap();
    (0..list.length()).map(|i| list.item(i).unwrap().unchecked_into::<web_sys::Element>().id()).collect()
}

#[wasm_bindgen_test]
async fn a_link_restores_the_view_and_edits_are_written_back_to_the_address() {
    let old = set_query("algo=sliding_log&limit=7&window=2&rate=9&seed=5&view=compare");
    let host = host();
    let handle = mount_to(host.clone(), || view! { <App caps=modules::WHOLE /> });
    TimeoutFuture::new(300).await;
    assert_eq!(host.query_selector_all(".compare-column").unwrap().length(), 5, "view=compare was not restored");
    assert!(host.query_selector("#link-notice").unwrap().is_none(), "a clean link got a notice");
    let search = || web_sys::window().unwrap().location().search().unwrap();
    assert_eq!(search(), "?algo=sliding_log&limit=7&window=2&rate=9&seed=5&view=compare");

    // Back to one algorithm: the address follows once the edit settles.
    el(&host, "#algo-sliding_log").click();
    TimeoutFuture::new(400).await;
    assert_eq!(search(), "?algo=sliding_log&limit=7&window=2&rate=9&seed=5");
    assert_eq!(el(&host, "#limit").get_attribute("aria-valuetext").unwrap(), "7 requests");

    drop(handle);
    host.remove();
    restore_query(&old);
}

#[wasm_bindgen_test]
async fn the_embed_shows_only_its_controls_and_reports_height_and_status() {
    let record = "window.__wasmMessages = []; window.__wasmRecord = e => window.__wasmMessages.push(e.data); addEventListener('message', window.__wasmRecord);";
    js_sys::Function::new_no_args(record).call0(&wasm_bindgen::JsValue::NULL).unwrap();
    let old = set_query("embed=1&controls=seed,rate&rate=6");
    let host = host();
    // What ratelimit-frame mounts for an embed link (the loader starts it instead of the page).
    let handle = mount_to(host.clone(), || view! { <EmbedPage caps=modules::FRAME /> });
    TimeoutFuture::new(1500).await;
    assert!(host.query_selector(".site-header").unwrap().is_none(), "page chrome in the embed");
    assert!(host.query_selector(".embed").unwrap().is_some(), "no embed layout");
    assert_eq!(ids(&host, "input[type=range]"), ["rate"]);
    assert!(host.query_selector("#seed").unwrap().is_some(), "the seed control is missing");
    assert!(host.query_selector("#link-notice").unwrap().is_none(), "a notice for a clean link");
    assert!(count(&host, "#requests") > 0, "the embed does not run");

    let messages = js_sys::Function::new_no_args(
        "return window.__wasmMessages.map(m => m.type + ':' + (m.height || m.requests || 0));",
    )
    .call0(&wasm_bindgen::JsValue::NULL)
    .unwrap();
    let messages: Vec<String> = js_sys::Array::from(&messages).iter().map(|m| m.as_string().unwrap()).collect();
    let height =
        messages.iter().find_map(|m| m.strip_prefix("ratelimit-playground:height:")).expect("a height message");
    assert!(height.parse::<f64>().unwrap() > 100.0, "{messages:?}");
    assert!(messages.iter().any(|m| m.starts_with("ratelimit-playground:status:")), "{messages:?}");

    // The address is not rewritten in an embed (a sandboxed frame may not).
    assert_eq!(web_sys::window().unwrap().location().search().unwrap(), "?embed=1&controls=seed,rate&rate=6");
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the embed left elements behind");
    host.remove();
    restore_query(&old);
    js_sys::Function::new_no_args("removeEventListener('message', window.__wasmRecord);")
        .call0(&wasm_bindgen::JsValue::NULL)
        .unwrap();
}

#[wasm_bindgen_test]
async fn an_embed_link_to_correct_is_the_whole_pages_which_names_what_it_changed() {
    let old = set_query("embed=1&controls=seed,rate,knob&rate=6");
    // The frame's module reads only clean links: it asks for the whole page's module (which the
    // loader would start; here there is none, so it says it could not load) and draws no cards.
    let frame = host();
    let handle = mount_to(frame.clone(), || view! { <EmbedPage caps=modules::FRAME /> });
    TimeoutFuture::new(300).await;
    assert!(frame.query_selector(".embed").unwrap().is_none(), "the frame's module drew a link it would correct");
    assert!(frame.query_selector("#whole-page-loading").unwrap().is_some(), "no hand-over asked");
    drop(handle);
    frame.remove();

    // The whole page's module draws it, with one notice, for the unknown control.
    let host = host();
    let handle = mount_to(host.clone(), || view! { <WholeEmbedPage caps=modules::WHOLE /> });
    TimeoutFuture::new(300).await;
    assert_eq!(ids(&host, "input[type=range]"), ["rate"]);
    assert_eq!(host.query_selector_all("#link-notice li").unwrap().length(), 1, "one notice, for the unknown control");
    assert!(text_of(&host, "#link-notice").contains("controls: 'knob' is not a control"));
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the embed left elements behind");
    host.remove();
    restore_query(&old);
}

#[wasm_bindgen_test]
async fn the_production_panel_follows_the_policy() {
    let old = set_query("capacity=10&refill=5&rate=8");
    let host = host();
    let handle = mount_to(host.clone(), || view! { <App caps=modules::WHOLE /> });
    TimeoutFuture::new(200).await;
    unfold(&host, "production").await;
    TimeoutFuture::new(50).await;
    assert_eq!(
        host.query_selector_all("#production [role=tab]").unwrap().length() as usize,
        ratelimit_playground::sim::products::EXPORT_NAMES.len()
    );
    let snippet = || text_of(&host, "#production-snippet");
    assert!(snippet().contains("rate=5r/s"), "{}", snippet());
    assert!(snippet().contains("burst=9 nodelay"), "{}", snippet());

    // A bigger bucket changes the burst at once.
    let capacity: web_sys::HtmlInputElement = el(&host, "#capacity").unchecked_into();
    capacity.set_value("20");
    capacity.dispatch_event(&web_sys::Event::new("input").unwrap()).unwrap();
    TimeoutFuture::new(50).await;
    assert!(snippet().contains("burst=19 nodelay"), "{}", snippet());
    el(&host, "#production-tab-2").click();
    TimeoutFuture::new(50).await;
    assert_eq!(text_of(&host, "#production-language"), "rust");

    drop(handle);
    host.remove();
    restore_query(&old);
}

#[wasm_bindgen_test]
async fn multi_node_mode_draws_the_cluster_and_leaves_nothing_behind() {
    let window = web_sys::window().unwrap();
    let address = format!("{}{}", window.location().pathname().unwrap(), window.location().search().unwrap());
    let host = host();
    let handle = mount_to(host.clone(), || view! { <App caps=modules::WHOLE /> });
    TimeoutFuture::new(100).await;
    el(&host, "#play").click(); // pause: what follows is computed, not waited for
    el(&host, "#mode-cluster").click();
    TimeoutFuture::new(100).await;
    assert!(host.query_selector("#state-chart").unwrap().is_none(), "the single view is still shown");
    assert!(host.query_selector("#nodes").unwrap().is_some(), "no cluster controls");
    unfold(&host, "nodes-card").await;
    unfold(&host, "code-card").await;

    // Four nodes racing: a jump fills the counters, the per-node bars and both canvases.
    el(&host, "#jump-10").click();
    TimeoutFuture::new(100).await;
    assert!(count(&host, "#requests") > 0);
    assert_eq!(host.query_selector_all("#node-bars li").unwrap().length(), 4);
    // Round robin on evenly spaced arrivals: the refills land on the same turns, and it says so.
    let split = text_of(&host, "#node-split");
    assert!(split.contains("Round robin gives each node every 4th arrival"), "{split}");
    for id in ["#topology", "#swimlane"] {
        // Drawn while in view, by the paint worker once it has started (tens of ms; more in a
        // debug build): look, and give it a moment.
        let canvas: HtmlCanvasElement = el(&host, id).unchecked_into();
        canvas.scroll_into_view();
        let mut drawn = 0;
        for _ in 0..60 {
            drawn = pixels_near(&canvas, ChartTheme::LIGHT.axis);
            if drawn > 20 {
                break;
            }
            TimeoutFuture::new(50).await;
        }
        assert!(canvas.width() > 0, "{id} is not sized");
        assert!(drawn > 20, "{id} drew nothing");
    }

    // The atomic script: its Lua is shown beside the node's code.
    let store: web_sys::HtmlSelectElement = el(&host, "#store").unchecked_into();
    store.set_value("atomic");
    let init = web_sys::EventInit::new();
    init.set_bubbles(true);
    store.dispatch_event(&web_sys::Event::new_with_event_init_dict("change", &init).unwrap()).unwrap();
    TimeoutFuture::new(100).await;
    assert!(text_of(&host, "#lua-script").contains("redis.call"), "no Lua script in atomic mode");
    assert!(text_of(&host, "#node-code").contains("evalsha"));

    // Back to one server, then unmounted: nothing is left, and the address is put back.
    el(&host, "#mode-single").click();
    TimeoutFuture::new(50).await;
    assert!(host.query_selector("#topology").unwrap().is_none());
    drop(handle);
    assert_eq!(host.child_element_count(), 0, "the app left elements behind");
    host.remove();
    window.history().unwrap().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address)).unwrap();
}
