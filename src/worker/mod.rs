//! The page's log worker: a dedicated Web Worker of its own (`ratelimit-logs`, built by Trunk
//! as a second wasm module and loaded only when a log is analysed), so reading a 2 GB log never
//! blocks the page and the page's own wasm stays small. Files are read as streams, gzip or not,
//! several merged by time ([`stream`]), and fed to an [`Analysis`] a buffer at a time. It says
//! [`Message::Ready`], takes one request (an [`Ask`] and the files or a sample's name), and
//! answers with what the analysis finds, drawn as the page shows it ([`crate::present::log_report`]), in the words of
//! [`crate::present::log_report::wire`]. Cancel is the page terminating it.

mod stream;

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Blob, DedicatedWorkerGlobalScope, MessageEvent};

use crate::present::log_report::wire::{Ask, Message, Phase, SAMPLE_MINUTES};
use crate::present::log_report::{
    dry_run::dry_run_markup, report::report_markup, sizing::sizing_markup, watch::watch_markup,
};
use crate::sim::logs::error::LogError;
use crate::sim::logs::job::{Analysis, Step};
use crate::sim::logs::samples::sample_log;
use crate::sim::logs::watch::watched;

/// Each step of the analysis's end as the page shows it.
fn step_message(step: Step<'_>, ask: &Ask) -> Message {
    match step {
        Step::Report(report, against, checked) => Message::Report(
            report_markup(report, &ask.scenario, ask.width, against) + &checked.map(dry_run_markup).unwrap_or_default(),
        ),
        Step::Swept(done, of) => Message::Progress { phase: Phase::Sweep, done: done as u64, total: of as u64 },
        Step::Sized { sizing, report, swept, arrivals } => {
            // How much memory the worker's wasm took at its most (for `make bench`).
            let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>().buffer();
            let bytes = memory.unchecked_into::<js_sys::ArrayBuffer>().byte_length();
            let memory = format!("<span hidden id=\"log-worker-memory\" data-bytes=\"{bytes}\"></span>");
            let watch = watch_markup(&watched(report, arrivals), &report.read.keys);
            Message::Sizing(sizing_markup(sizing, &report.read.keys, swept, ask.width, &watch) + &memory)
        }
    }
}

/// Analyses a file or a sample as `ask` says.
async fn analyse(ask: Ask, source: JsValue, post: Rc<dyn Fn(Message)>) -> Result<(), LogError> {
    let files: Vec<Blob> = match source.dyn_ref::<js_sys::Array>() {
        Some(list) => list.iter().filter_map(|f| f.dyn_into::<Blob>().ok()).collect(),
        None => source.dyn_ref::<Blob>().into_iter().cloned().collect(),
    };
    let bytes = (!files.is_empty()).then(|| files.iter().map(|f| f.size() as u64).sum());
    let mut analysis =
        Analysis::new(&ask.scenario, ask.format.clone(), &ask.key, ask.scope.clone(), ask.objective, bytes);
    match (files.is_empty(), source.as_string()) {
        (false, _) => {
            let told = |done, total| post(Message::Progress { phase: Phase::Read, done, total });
            stream::read_files(&files, &mut analysis, &told).await?;
        }
        (true, Some(name)) => {
            let text = sample_log(&name, ask.scenario.seed, SAMPLE_MINUTES)
                .ok_or_else(|| LogError { line: 0, message: format!("there is no sample called '{name}'") })?;
            analysis.feed(text.as_bytes())?;
        }
        (true, None) => return Err(LogError { line: 0, message: "the request to the log worker is malformed".into() }),
    }
    analysis.finish(|step| post(step_message(step, &ask)))
}

/// Runs one request: `data` is `[ask, files (an array of them, or one) or a sample's name]`.
fn serve(data: JsValue, post: Rc<dyn Fn(Message)>) {
    let data: js_sys::Array = data.unchecked_into();
    let ask = match data.get(0).as_string().map(|text| Ask::decode(&text)) {
        Some(Ok(ask)) => ask,
        Some(Err(e)) => return post(Message::Failed(0, e)),
        None => return post(Message::Failed(0, "the request to the log worker is malformed".into())),
    };
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = analyse(ask, data.get(1), Rc::clone(&post)).await {
            post(Message::Failed(e.line as u64, e.message));
        }
    });
}

/// Starts the worker: listens for the request and says it is ready.
pub fn start() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let post: Rc<dyn Fn(Message)> = {
        let scope = scope.clone();
        Rc::new(move |m: Message| {
            let _ = scope.post_message(&JsValue::from_str(&m.encode()));
        })
    };
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
        let post = Rc::clone(&post);
        move |ev: MessageEvent| serve(ev.data(), Rc::clone(&post))
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The listener lives as long as the worker, which the page terminates when it is done.
    on_message.forget();
    post(Message::Ready);
}
