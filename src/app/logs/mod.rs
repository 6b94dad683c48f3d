//! "Your traffic": the user's own access log, replayed in shadow mode through one limiter per
//! key under the playground's policy, and the sizing assistant's sweep. The log is read in a Web
//! Worker of its own ([`worker`]), a chunk at a time, so the page stays responsive with a
//! progress bar and Cancel, and nothing is uploaded. The worker also draws the report and the
//! sizing table ([`crate::present::log_report`]).
//!
//! This panel places that markup, its static controls and a status line (`#log-times` in it
//! carries how long the report and the table took, ms, for `make bench`). It keeps its state in
//! one plain struct and writes its two live regions itself, with one listener per event type
//! and one effect (a new policy, like a changed option, makes the report stale): no reactive
//! value of its own,
//! because each new reactive type costs the page's wasm a kilobyte or more, and the page has a
//! size budget.

mod worker;

use std::cell::RefCell;
use std::rc::Rc;

use leptos::html::Section;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Element, File, HtmlInputElement, HtmlSelectElement};

use super::playground::Playground;
use crate::present::log_report::panel::{status, Settings, Status, CONTROLS};
use crate::present::log_report::wire::{Ask, Message, Phase, SAMPLE_MINUTES};
use crate::present::units::format_number;
use crate::sim::logs::policy::PolicyKeys;
use crate::sim::logs::samples::SAMPLES;
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

/// The panel's state.
#[derive(Default)]
struct State {
    root: Option<Element>,
    source: Option<Source>,
    worker: Option<LogWorker>,
    /// What the shown report was made under: [`asked_now`] when it started.
    under: Option<String>,
    status: Status,
    /// ms from the start to the report and to the sizing table.
    times: (Option<f64>, Option<f64>),
    has_report: bool,
}

type Shared = Rc<RefCell<State>>;

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// The element `#id` inside `root`.
fn find(root: &Element, id: &str) -> Option<Element> {
    root.query_selector(&format!("#{id}")).ok().flatten()
}

/// The value of the control `#id` inside `root`.
fn value_of(root: &Element, id: &str) -> String {
    let Some(e) = find(root, id) else { return String::new() };
    match e.dyn_ref::<HtmlSelectElement>() {
        Some(select) => select.value(),
        None => e.dyn_ref::<HtmlInputElement>().map(HtmlInputElement::value).unwrap_or_default(),
    }
}

/// The element an event happened on, or its nearest ancestor matching `selector`.
fn target_matching(ev: &web_sys::Event, selector: &str) -> Option<Element> {
    ev.target()?.dyn_into::<Element>().ok()?.closest(selector).ok().flatten()
}

/// The control values a report depends on.
fn settings_of(root: &Element) -> [String; 5] {
    ["log-key", "log-field", "log-format", "log-time-field", "log-target"].map(|id| value_of(root, id))
}

/// What an analysis started now would be made under: the policy and the options.
fn asked_now(root: &Element, pg: Playground) -> String {
    pg.scenario.with_untracked(|s| s.to_query_full()) + "\t" + &settings_of(root).join("\t")
}

/// Writes the status line; the report is stale if the policy or an option changed since.
fn show_status(s: &State, pg: Playground) {
    let Some(root) = &s.root else { return };
    let changed = s.under.as_deref().is_some_and(|u| u != asked_now(root, pg));
    let stale = s.has_report && s.status.progress.is_none() && changed;
    let ms = |t: Option<f64>| t.map_or(String::new(), |t| format!("{t:.0}"));
    let times = format!(
        "<span hidden id=\"log-times\" data-read-ms=\"{}\" data-total-ms=\"{}\"></span>",
        ms(s.times.0),
        ms(s.times.1)
    );
    if let Some(e) = find(root, "log-status") {
        e.set_inner_html(&(status(&Status { stale, ..s.status.clone() }) + &times));
    }
}

/// Replaces the report and sizing table with `markup` (`append`: adds to them).
fn show_results(s: &State, markup: &str, append: bool) {
    if let Some(e) = s.root.as_ref().and_then(|r| find(r, "log-results")) {
        if append {
            let _ = e.insert_adjacent_html("beforeend", markup);
        } else {
            e.set_inner_html(markup);
        }
    }
}

/// Starts analysing the current source under the playground's policy.
fn start(shared: &Shared, pg: Playground) {
    let scenario = pg.scenario.get_untracked();
    let mut s = shared.borrow_mut();
    s.worker = None;
    let (Some(src), Some(root)) = (s.source.clone(), s.root.clone()) else { return };
    let [key, field, format, time, target] = settings_of(&root);
    let (settings, notices) = Settings::read(&key, &field, &format, &time, &target);
    let ask = Ask {
        scenario,
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
    s.under = Some(asked_now(&root, pg));
    s.status = Status { progress: Some((Phase::Read, 0, 1)), notices, ..Status::default() };
    (s.times, s.has_report) = ((None, None), false);
    show_results(&s, "", false);
    show_status(&s, pg);
    let (t0, described, weak) = (now_ms(), src.describe(), Rc::downgrade(shared));
    let on = move |m: Message| {
        let Some(shared) = weak.upgrade() else { return };
        let mut s = shared.borrow_mut();
        let t = now_ms() - t0;
        match m {
            Message::Ready => return,
            Message::Progress { phase, done, total } => s.status.progress = Some((phase, done, total)),
            Message::Report(markup) => {
                (s.times.0, s.has_report) = (Some(t), true);
                s.status.source = Some(described.clone());
                show_results(&s, &markup, false);
            }
            Message::Sizing(markup) => {
                (s.times.1, s.status.progress) = (Some(t), None);
                show_results(&s, &markup, true);
                s.worker.as_ref().map(LogWorker::stop);
            }
            Message::Failed(line, message) => {
                let at = if line == 0 { "log".to_string() } else { format!("log line {line}") };
                (s.status.error, s.status.progress) = (Some(format!("{at}: {message}")), None);
                s.worker.as_ref().map(LogWorker::stop);
            }
        }
        show_status(&s, pg);
    };
    match LogWorker::start(request, on) {
        Ok(w) => s.worker = Some(w),
        Err(e) => {
            (s.status.error, s.status.progress) = (Some(e), None);
            show_status(&s, pg);
        }
    }
}

/// The panel.
#[component]
pub fn LogsPanel(
    /// The page state: its policy is what the log is replayed under.
    playground: Playground,
) -> impl IntoView {
    let pg = playground;
    let shared: Shared = Rc::default();
    let panel = NodeRef::<Section>::new();
    {
        let shared = SendWrapper::new(Rc::clone(&shared));
        on_cleanup(move || shared.borrow_mut().worker = None);
    }
    {
        // Mounted: find the live regions; after that, a policy change may make the report stale.
        let shared = SendWrapper::new(Rc::clone(&shared));
        Effect::new(move |_| {
            pg.scenario.track();
            let mut s = shared.borrow_mut();
            if s.root.is_none() {
                s.root = panel.get().map(Element::from);
            }
            show_status(&s, pg);
        });
    }
    let choose = {
        let shared = Rc::clone(&shared);
        move |src: Source| {
            shared.borrow_mut().source = Some(src);
            start(&shared, pg);
        }
    };
    let on_click = {
        let (shared, choose) = (Rc::clone(&shared), choose.clone());
        move |ev: leptos::ev::MouseEvent| {
            if let Some(b) = target_matching(&ev, "[data-sample]") {
                let name = b.get_attribute("data-sample").unwrap_or_default();
                if let Some(&name) = SAMPLES.iter().find(|&&s| s == name) {
                    choose(Source::Sample(name));
                }
            } else if target_matching(&ev, "#log-cancel").is_some() {
                let mut s = shared.borrow_mut();
                s.worker = None;
                (s.status.progress, s.status.error) = (None, Some("Cancelled: nothing was kept.".into()));
                // Even a report already shown goes: the analysis it belongs to was not finished.
                (s.has_report, s.status.source) = (false, None);
                show_results(&s, "", false);
                show_status(&s, pg);
            } else if target_matching(&ev, "#log-again").is_some() {
                start(&shared, pg);
            } else if let Some(button) = target_matching(&ev, "#log-apply") {
                // The button carries the recommended policy as the worker wrote it.
                let Some(policy) = button.get_attribute("data-policy").and_then(|p| PolicyKeys::parse(&p)) else {
                    return;
                };
                shared.borrow_mut().status.applied =
                    Some(format!("Applied: the playground and the production panel now run {policy}."));
                // The effect above shows it (and that the report is now stale).
                pg.edit(|s| policy.apply(s));
            }
        }
    };
    let on_change = {
        let (shared, choose) = (Rc::clone(&shared), choose.clone());
        move |ev: leptos::ev::Event| {
            let Some(e) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
            if e.id() == "log-file" {
                let input: HtmlInputElement = e.unchecked_into();
                if let Some(file) = input.files().and_then(|f| f.get(0)) {
                    choose(Source::File(file));
                }
                input.set_value("");
            } else {
                let s = shared.borrow();
                // The key's field name shows for `a field`; the time field for JSON and CSV.
                let value = e.dyn_ref::<HtmlSelectElement>().map(HtmlSelectElement::value).unwrap_or_default();
                let shown = match e.id().as_str() {
                    "log-key" => Some(("log-field-label", value == "field")),
                    "log-format" => Some(("log-time-label", value == "json" || value == "csv")),
                    _ => None,
                };
                if let Some((id, show)) = shown {
                    if let Some(label) = s.root.as_ref().and_then(|r| find(r, id)) {
                        let _ = label.toggle_attribute_with_force("hidden", !show);
                    }
                }
                show_status(&s, pg);
            }
        }
    };
    let on_drag = {
        let shared = Rc::clone(&shared);
        move |ev: leptos::ev::DragEvent| {
            ev.prevent_default();
            let kind = ev.type_();
            if let Some(zone) = shared.borrow().root.as_ref().and_then(|r| find(r, "log-drop")) {
                let _ = zone.class_list().toggle_with_force("dragging", kind == "dragover");
            }
            if kind == "drop" {
                if let Some(file) = ev.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0)) {
                    choose(Source::File(file));
                }
            }
        }
    };
    view! {
        <section class="panel logs" id="logs" aria-labelledby="logs-title" node_ref=panel
            on:click=on_click on:change=on_change on:drop=on_drag.clone() on:dragover=on_drag.clone() on:dragleave=on_drag>
            <div inner_html=CONTROLS></div>
            <div id="log-status"></div>
            <div id="log-results"></div>
        </section>
    }
}
