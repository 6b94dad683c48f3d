//! "Your traffic": the user's own access log, replayed in shadow mode through one limiter per
//! key under the playground's policy, and the sizing assistant's sweep. The log is read in a Web
//! Worker of its own ([`worker`]), a chunk at a time, so the page stays responsive with a
//! progress bar and Cancel, and nothing is uploaded. The worker also draws the report and the
//! sizing table ([`crate::app::log_report`]); this panel places that markup, its static controls
//! and a status line, with one listener per event type; `#log-times` carries how long the
//! report and the table took (ms, for `make bench`). That keeps the feature's code out of the
//! page's wasm (a reactive view per control cost 12 KB brotli; this costs a fraction of it).

mod worker;

use leptos::html::Section;
use leptos::prelude::*;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Element, File, HtmlInputElement, HtmlSelectElement};

use super::playground::Playground;
use super::units::format_number;
use crate::app::log_report::panel::{status, Settings, Status, CONTROLS};
use crate::sim::logs::samples::SAMPLES;
use crate::sim::logs::wire::{Ask, Message, Phase, SAMPLE_MINUTES};
use crate::sim::Scenario;
use worker::LogWorker;

/// What is analysed: a file the user chose, or one of the generated samples.
#[derive(Clone)]
enum Source {
    File(File),
    Sample(&'static str),
}

impl Source {
    fn describe(&self) -> String {
        match self {
            Source::File(f) => format!("{} ({} MB)", f.name(), format_number(f.size() / 1e6)),
            Source::Sample(name) => format!("the generated '{name}' sample ({SAMPLE_MINUTES} minutes)"),
        }
    }
}

/// One analysis: what the worker has said so far (the report and sizing table as markup).
#[derive(Clone, Default)]
struct Outcome {
    status: Status,
    report: String,
    sizing: String,
    /// ms from the start to the report and to the sizing table (for `make bench`).
    times: (Option<f64>, Option<f64>),
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// `sc` with the policy keys of `policy` (`capacity=…&refill=…` or `limit=…&window=…`).
fn apply_policy(sc: &mut Scenario, policy: &str) {
    let Ok(p) = Scenario::from_query(policy) else { return };
    if policy.contains("window=") {
        (sc.limit, sc.window) = (p.limit, p.window);
    } else {
        (sc.capacity, sc.refill) = (p.capacity, p.refill);
    }
}

/// The value of the control `id` inside `root`.
fn value_of(root: &Element, id: &str) -> String {
    let Ok(Some(e)) = root.query_selector(&format!("#{id}")) else { return String::new() };
    match e.dyn_ref::<HtmlSelectElement>() {
        Some(select) => select.value(),
        None => e.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::value).unwrap_or_default(),
    }
}

/// The element an event happened on, or its nearest ancestor matching `selector`.
fn target_matching(ev: &web_sys::Event, selector: &str) -> Option<Element> {
    ev.target()?.dyn_into::<Element>().ok()?.closest(selector).ok().flatten()
}

/// The panel.
#[component]
pub fn LogsPanel(
    /// The page state: its policy is what the log is replayed under.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let outcome = RwSignal::new(Outcome::default());
    let source = StoredValue::new_local(None::<Source>);
    let under = RwSignal::new(None::<String>);
    let running = StoredValue::new_local(None::<LogWorker>);
    let panel = NodeRef::<Section>::new();
    on_cleanup(move || running.set_value(None));
    let start = move || {
        let (Some(src), Some(root)) = (source.get_value(), panel.get_untracked()) else { return };
        running.set_value(None);
        let value = |id| value_of(&root, id);
        let (settings, notices) =
            Settings::read(&value("log-key"), &value("log-field"), &value("log-format"), &value("log-target"));
        let query = pg.scenario.with_untracked(|s| s.to_query_full());
        let ask = Ask {
            query: query.clone(),
            format: settings.format,
            key: settings.key,
            target: settings.target,
            width: (root.client_width() - 40).max(280) as u32,
        };
        let payload: JsValue = match &src {
            Source::File(f) => f.into(),
            Source::Sample(name) => JsValue::from_str(name),
        };
        let request = js_sys::Array::of2(&JsValue::from_str(&ask.encode()), &payload);
        under.set(Some(query));
        let status = Status { progress: Some((Phase::Read, 0, 1)), notices, ..Status::default() };
        outcome.set(Outcome { status, ..Outcome::default() });
        let (t0, described) = (now_ms(), src.describe());
        let on = move |m: Message| {
            let t = now_ms() - t0;
            let stop = || running.with_value(|w| w.as_ref().map(LogWorker::stop));
            outcome.update(|o| match m {
                Message::Ready => {}
                Message::Progress { phase, done, total } => o.status.progress = Some((phase, done, total)),
                Message::Report(markup) => {
                    (o.report, o.times.0) = (markup, Some(t));
                    o.status.source = Some(described.clone());
                }
                Message::Sizing(markup) => {
                    (o.sizing, o.times.1, o.status.progress) = (markup, Some(t), None);
                    stop();
                }
                Message::Failed(line, message) => {
                    let at = if line == 0 { "log".to_string() } else { format!("log line {line}") };
                    (o.status.error, o.status.progress) = (Some(format!("{at}: {message}")), None);
                    stop();
                }
            });
        };
        match LogWorker::start(request, on) {
            Ok(w) => running.set_value(Some(w)),
            Err(e) => outcome.update(|o| (o.status.error, o.status.progress) = (Some(e), None)),
        }
    };
    let choose = move |src: Source| {
        source.set_value(Some(src));
        start();
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        if let Some(b) = target_matching(&ev, "[data-sample]") {
            let name = b.get_attribute("data-sample").unwrap_or_default();
            if let Some(&name) = SAMPLES.iter().find(|&&s| s == name) {
                choose(Source::Sample(name));
            }
        } else if target_matching(&ev, "#log-cancel").is_some() {
            running.set_value(None);
            outcome
                .update(|o| (o.status.progress, o.status.error) = (None, Some("Cancelled: nothing was kept.".into())));
        } else if target_matching(&ev, "#log-again").is_some() {
            start();
        } else if let Some(policy) = target_matching(&ev, "#log-apply").and_then(|b| b.get_attribute("data-policy")) {
            pg.edit(|s| apply_policy(s, &policy));
            let note = format!("Applied: the playground and the production panel now run {policy}.");
            outcome.update(|o| o.status.applied = Some(note));
        }
    };
    let on_change = move |ev: leptos::ev::Event| {
        let Some(e) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
        match e.id().as_str() {
            "log-file" => {
                let input: HtmlInputElement = e.unchecked_into();
                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                    choose(Source::File(file));
                }
                input.set_value("");
            }
            "log-key" => {
                let field = panel.get_untracked().and_then(|p| p.query_selector("#log-field-label").ok().flatten());
                if let Some(label) = field {
                    let by_field = e.unchecked_ref::<HtmlSelectElement>().value() == "field";
                    let _ = label.toggle_attribute_with_force("hidden", !by_field);
                }
            }
            _ => {}
        }
    };
    let dragging = move |on: bool| {
        if let Some(zone) = panel.get_untracked().and_then(|p| p.query_selector("#log-drop").ok().flatten()) {
            let _ = zone.class_list().toggle_with_force("dragging", on);
        }
    };
    let on_drop = move |ev: leptos::ev::DragEvent| {
        ev.prevent_default();
        dragging(false);
        if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
            choose(Source::File(file));
        }
    };
    // Two bindings only (the status line, and the results once they change), each one string.
    let shown_status = move || {
        let changed = under.get().is_some_and(|q| pg.scenario.with(|s| s.to_query_full()) != q);
        outcome.with(|o| {
            let stale = changed && o.status.progress.is_none() && !o.report.is_empty();
            let ms = |t: Option<f64>| t.map_or(String::new(), |t| format!("{t:.0}"));
            let times = format!(
                "<span hidden id=\"log-times\" data-read-ms=\"{}\" data-total-ms=\"{}\"></span>",
                ms(o.times.0),
                ms(o.times.1)
            );
            status(&Status { stale, ..o.status.clone() }) + &times
        })
    };
    let results = Memo::new(move |_| outcome.with(|o| o.report.clone() + &o.sizing));
    view! {
        <section class="panel logs" id="logs" aria-labelledby="logs-title" node_ref=panel
            on:click=on_click on:change=on_change on:drop=on_drop
            on:dragover=move |ev: leptos::ev::DragEvent| { ev.prevent_default(); dragging(true); }
            on:dragleave=move |_| dragging(false)>
            <div inner_html=CONTROLS></div>
            <div id="log-status" inner_html=shown_status></div>
            <div id="log-results" inner_html=move || results.get()></div>
        </section>
    }
}
