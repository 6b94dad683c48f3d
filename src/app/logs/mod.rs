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
//! value of its own, because each new reactive type adds its own code to the page's wasm (see
//! docs/size.md).

mod worker;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use leptos::html::Div;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Element, File, FileList, HtmlInputElement, HtmlSelectElement};

use super::playground::Playground;
use crate::markup::escape;
use crate::present::log_report::panel::{applied, read_scope, status, watching, Settings, Status, CONTROLS};
use crate::present::log_report::wire::{Ask, Message, Phase, SAMPLE_MINUTES};
use crate::present::log_report::words::{policy_words, scenario_words};
use crate::present::units::format_number;
use crate::sim::logs::output::product_config;
use crate::sim::logs::policy::PolicyKeys;
use crate::sim::logs::samples::SAMPLES;
use crate::sim::logs::watch::{lead_in, replay};
use crate::sim::{Scenario, Trace, TrafficShape};
use worker::LogWorker;

/// What is analysed: the files the user chose (several are merged by time), or one of the
/// generated samples.
#[derive(Clone)]
enum Source {
    Files(Vec<File>),
    Sample(&'static str),
}

impl Source {
    /// The files of `list`, if it holds any.
    fn files(list: Option<FileList>) -> Option<Source> {
        let list = list?;
        let files: Vec<File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
        (!files.is_empty()).then_some(Source::Files(files))
    }

    fn describe(&self) -> String {
        match self {
            Source::Files(files) => {
                let mb = format_number(files.iter().map(|f| f.size()).sum::<f64>() / 1e6);
                let names: Vec<String> = files.iter().map(File::name).collect();
                match files.len() {
                    1 => format!("{} ({mb} MB)", names[0]),
                    n => format!("{} merged by time ({n} files, {mb} MB)", names.join(", ")),
                }
            }
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
fn settings_of(root: &Element) -> [String; 10] {
    [
        "log-key",
        "log-field",
        "log-format",
        "log-time-field",
        "log-objective",
        "log-target",
        "log-scope",
        "log-instances",
        "log-placement",
        "log-scope-field",
    ]
    .map(|id| value_of(root, id))
}

/// The playground's policy, which the log is replayed under: its scenario without its traffic
/// (the log is the traffic; a replayed trace's times are no part of a query).
fn policy_of(pg: Playground) -> Scenario {
    pg.scenario.with_untracked(|s| {
        let Scenario { algo, capacity, refill, limit, window, count_rejected, seed, product, .. } = *s;
        Scenario { algo, capacity, refill, limit, window, count_rejected, seed, product, ..Scenario::default() }
    })
}

/// What an analysis started now would be made under: the policy and the options.
fn asked_now(root: &Element, pg: Playground) -> String {
    policy_of(pg).to_query_full() + "\t" + &settings_of(root).join("\t")
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

/// Puts `markup` right after `anchor`, in place of the element `#id` it replaces.
fn place_after(root: &Element, anchor: &Element, id: &str, markup: &str) {
    if let Some(old) = find(root, id) {
        old.remove();
    }
    let _ = anchor.insert_adjacent_html("afterend", markup);
}

/// Sizing for a product (`algo=python_limits`, …): the recommendation as that product's own
/// configuration, right under its Apply button ("100/minute" for Flask-Limiter, not only
/// `limit=100&window=60`), with the product's notes.
fn as_product(root: &Element, sc: &Scenario) {
    let policy = find(root, "log-sizing").and_then(|e| e.get_attribute("data-recommended"));
    let (Some(policy), Some(button)) = (policy.and_then(|p| PolicyKeys::parse(&p)), find(root, "log-apply")) else {
        return;
    };
    let Some(c) = product_config(sc, policy) else { return };
    let notes: String = c.notes.iter().map(|n| format!("<li>{}</li>", escape(n))).collect();
    let markup = format!(
        "<div class=\"log-product\" id=\"log-product-config\"><p>As {} writes it ({}):</p><pre class=\"snippet\"><code>{}</code></pre><ul class=\"notes\">{notes}</ul></div>",
        escape(c.target),
        escape(c.language),
        escape(&c.snippet)
    );
    place_after(root, &button, "log-product-config", &markup);
}

/// Replays the key chosen under `#log-watch-key` live in the playground, from the start of its
/// policy's window, and says so; `None` if nothing is chosen.
fn watch(root: &Element, pg: Playground) -> Option<String> {
    let option = root.query_selector("#log-watch-key option:checked").ok().flatten()?;
    let attr = |name: &str| option.get_attribute(name).unwrap_or_default();
    let trace = Trace::parse(&attr("data-times").replace(',', "\n")).ok()?;
    let base = attr("data-base").parse::<u64>().ok()?;
    let live = pg.scenario.with_untracked(|s| replay(&trace, base, s));
    let (key, n, skip) = (attr("data-key"), live.len() as u64, lead_in(&live));
    pg.edit(|s| (s.traffic, s.trace) = (TrafficShape::Trace, Some(Arc::new(live))));
    // The window's quiet start is computed at once: the replay shows its first request soon.
    pg.jump_by(skip);
    pg.running.set(true);
    if let Some(w) = web_sys::window() {
        w.scroll_to_with_x_and_y(0.0, 0.0);
    }
    Some(watching(&key, n, &pg.scenario.with_untracked(scenario_words), skip.as_secs_f64()))
}

/// Starts analysing the current source under the playground's policy.
fn start(shared: &Shared, pg: Playground) {
    let scenario = policy_of(pg);
    let mut s = shared.borrow_mut();
    s.worker = None;
    let (Some(src), Some(root)) = (s.source.clone(), s.root.clone()) else { return };
    let [key, field, format, time, objective, target, scope, instances, placement, scope_field] = settings_of(&root);
    let (settings, mut notices) = Settings::read(&key, &field, &format, &time, &objective, &target);
    let (scope, scope_notices) = read_scope(&scope, &instances, &placement, &scope_field);
    notices.extend(scope_notices);
    let ask = Ask {
        scenario,
        format: settings.format,
        key: settings.key,
        objective: settings.objective,
        width: (root.client_width() - 40).max(280) as u32,
        scope,
    };
    let payload: JsValue = match &src {
        Source::Files(files) => files.iter().collect::<js_sys::Array>().into(),
        Source::Sample(name) => JsValue::from_str(name),
    };
    let request = js_sys::Array::of2(&JsValue::from_str(&ask.encode()), &payload);
    s.under = Some(asked_now(&root, pg));
    s.status = Status { progress: Some((Phase::Read, 0, 1)), notices, ..Status::default() };
    (s.times, s.has_report) = ((None, None), false);
    show_results(&s, "", false);
    show_status(&s, pg);
    let (t0, described, weak) = (now_ms(), src.describe(), Rc::downgrade(shared));
    let asked = ask.scenario.clone();
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
                if let Some(root) = s.root.as_ref() {
                    as_product(root, &asked);
                }
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
    let panel = NodeRef::<Div>::new();
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
                // A policy that spares keys the current one throttles asks once, in the button
                // itself (a sandboxed frame blocks `window.confirm`).
                if let Some(question) =
                    button.get_attribute("data-confirm").filter(|_| !button.has_attribute("data-armed"))
                {
                    let _ = button.set_attribute("data-armed", "");
                    button.set_text_content(Some(&question));
                    return;
                }
                pg.edit(|s| policy.apply(s));
                // Said where the eye is, with the next steps; the report is not called stale for
                // the policy it recommended (its note says it was replayed under the one before).
                let mut s = shared.borrow_mut();
                if let Some(root) = s.root.clone() {
                    s.under = Some(asked_now(&root, pg));
                    place_after(&root, &button, "log-applied", &applied(&policy_words(&policy)));
                }
            } else if let Some(button) = target_matching(&ev, "#log-watch-go") {
                let s = shared.borrow();
                let Some(root) = s.root.clone() else { return };
                if let Some(note) = watch(&root, pg) {
                    place_after(&root, &button, "log-watching", &note);
                }
            }
        }
    };
    let on_change = {
        let (shared, choose) = (Rc::clone(&shared), choose.clone());
        move |ev: leptos::ev::Event| {
            let Some(e) = ev.target().and_then(|t| t.dyn_into::<Element>().ok()) else { return };
            if e.id() == "log-file" {
                let input: HtmlInputElement = e.unchecked_into();
                if let Some(files) = Source::files(input.files()) {
                    choose(files);
                }
                input.set_value("");
            } else {
                let s = shared.borrow();
                // The key's field name shows for `a field`; the time field for JSON and CSV; the
                // servers for counters per server, the field for counters per field value.
                let value = e.dyn_ref::<HtmlSelectElement>().map(HtmlSelectElement::value).unwrap_or_default();
                let shown: &[(&str, bool)] = match e.id().as_str() {
                    "log-key" => &[("log-field-label", value == "field")],
                    "log-format" => &[("log-time-label", value == "json" || value == "csv")],
                    "log-objective" => &[("log-target-label", value == "target")],
                    "log-scope" => {
                        &[("log-instances-label", value == "instance"), ("log-scope-field-label", value == "field")]
                    }
                    _ => &[],
                };
                for &(id, show) in shown {
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
                if let Some(files) = Source::files(ev.data_transfer().and_then(|d| d.files())) {
                    choose(files);
                }
            }
        }
    };
    view! {
        <div class="logs-body" node_ref=panel
            on:click=on_click on:change=on_change on:drop=on_drag.clone() on:dragover=on_drag.clone() on:dragleave=on_drag>
            <div inner_html=CONTROLS></div>
            <div id="log-status"></div>
            <div id="log-results"></div>
        </div>
    }
}
