//! The page's log worker: a dedicated Web Worker of its own (`ratelimit-logs`, built by Trunk
//! as a second wasm module and loaded only when a log is analysed), so reading a 2 GB log never
//! blocks the page and the page's own wasm stays small. It says [`Message::Ready`], takes one
//! request (an [`Ask`] and a `File` or a sample's name), and answers with what [`job::analyse`]
//! finds, drawn as the page shows it ([`crate::app::log_report`]). Cancel is the page
//! terminating it.

mod file_input;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Blob, DedicatedWorkerGlobalScope, MessageEvent};

use crate::app::log_report::{report::report_markup, sizing::sizing_markup};
use crate::sim::logs::job::{self, Step};
use crate::sim::logs::samples::sample_log;
use crate::sim::logs::wire::{Ask, Message, Phase, SAMPLE_MINUTES};
use crate::sim::Scenario;
use file_input::FileInput;

/// Analyses `input` as `ask` says, posting each step as the page shows it.
fn analyse(input: impl std::io::BufRead, ask: &Ask, post: &dyn Fn(Message)) {
    let done = job::analyse(input, ask, |step| {
        post(match step {
            Step::Report(report) => Message::Report(report_markup(report, ask)),
            Step::Swept(done, of) => Message::Progress { phase: Phase::Sweep, done: done as u64, total: of as u64 },
            Step::Sized { sizing, report, swept } => {
                Message::Sizing(sizing_markup(sizing, &report.read.keys, swept, ask))
            }
        })
    });
    if let Err(e) = done {
        post(Message::Failed(e.line as u64, e.message));
    }
}

/// Runs one request: `data` is `[ask, file or sample name]`.
fn serve(data: &JsValue, post: &dyn Fn(Message)) {
    let data: js_sys::Array = data.clone().unchecked_into();
    let ask = match data.get(0).as_string().map(|text| Ask::decode(&text)) {
        Some(Ok(ask)) => ask,
        Some(Err(e)) => return post(Message::Failed(0, e)),
        None => return post(Message::Failed(0, "the request to the log worker is malformed".into())),
    };
    let source = data.get(1);
    if let Some(name) = source.as_string() {
        let seed = Scenario::from_query(&ask.query).map(|s| s.seed).unwrap_or(1);
        match sample_log(&name, seed, SAMPLE_MINUTES) {
            Some(text) => analyse(text.as_bytes(), &ask, post),
            None => post(Message::Failed(0, format!("there is no sample called '{name}'"))),
        }
    } else if let Ok(file) = source.dyn_into::<Blob>() {
        match FileInput::new(file, post) {
            Ok(input) => analyse(input, &ask, post),
            Err(e) => post(Message::Failed(0, e)),
        }
    }
}

/// Starts the worker: listens for the request and says it is ready.
pub fn start() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post = {
        let scope = scope.clone();
        move |m: Message| {
            let _ = scope.post_message(&JsValue::from_str(&m.encode()));
        }
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
        let post = post.clone();
        move |ev: MessageEvent| serve(&ev.data(), &post)
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The listener lives as long as the worker, which the page terminates when it is done.
    on_message.forget();
    post(Message::Ready);
}
