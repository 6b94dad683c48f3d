//! "Replay my traffic": paste arrival times or upload a file of them. The engine parses the text
//! and names the first bad line; a file larger than the engine accepts is refused before it is
//! read. A pending file read is aborted when the component goes away.

use std::sync::Arc;

use leptos::html::Textarea;
use leptos::prelude::*;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{FileReader, HtmlInputElement};

use crate::app::playground::Playground;
use crate::present::units::{format_secs, group_thousands};
use crate::sim::trace::MAX_TRACE_BYTES;
use crate::sim::{Trace, TraceError, TrafficShape};

/// A file read in progress: the reader and its `load` callback (dropped when done or replaced).
type Reading = (FileReader, Closure<dyn FnMut(web_sys::ProgressEvent)>);

/// The trace box: a textarea with "Use these times", a file picker, and the outcome.
#[component]
pub fn TraceInput(
    /// The page state.
    playground: Playground,
    /// Called after a trace was accepted and the simulation switched to it.
    on_loaded: Callback<()>,
) -> impl IntoView {
    let pg = playground;
    let outcome = RwSignal::new(None::<Result<String, String>>);
    let text = NodeRef::<Textarea>::new();
    let apply = move |source: &str| match Trace::parse(source) {
        Ok(trace) => {
            let span = trace.times().last().map_or(0.0, |&ns| ns as f64 / 1e9);
            let summary = format!("{} arrivals over {}", group_thousands(trace.len() as u64), format_secs(span));
            pg.edit(|s| (s.traffic, s.trace) = (TrafficShape::Trace, Some(Arc::new(trace))));
            outcome.set(Some(Ok(summary)));
            on_loaded.run(());
        }
        Err(e) => outcome.set(Some(Err(e.to_string()))),
    };
    let reading = StoredValue::new_local(None::<Reading>);
    let abort = move || {
        if let Some((reader, _)) = reading.try_update_value(Option::take).flatten() {
            reader.abort();
        }
    };
    on_cleanup(abort);
    let on_file = move |ev: leptos::ev::Event| {
        let input: HtmlInputElement = event_target(&ev);
        let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
        abort();
        if file.size() > MAX_TRACE_BYTES as f64 {
            outcome.set(Some(Err(TraceError::TooLarge { bytes: file.size() as usize }.to_string())));
            return;
        }
        let Ok(reader) = FileReader::new() else { return };
        let on_load = Closure::<dyn FnMut(web_sys::ProgressEvent)>::new({
            let reader = reader.clone();
            move |_| match reader.result().ok().and_then(|r| r.as_string()) {
                Some(source) => apply(&source),
                None => outcome.set(Some(Err("trace: the file could not be read as text".into()))),
            }
        });
        reader.set_onload(Some(on_load.as_ref().unchecked_ref()));
        if reader.read_as_text(&file).is_ok() {
            reading.set_value(Some((reader, on_load)));
        }
    };
    let use_text = move |_| {
        if let Some(area) = text.get() {
            apply(&area.value());
        }
    };
    view! {
        <div class="trace">
            <label for="trace-text">"Arrival times, one per line, in ms since the start"</label>
            <textarea id="trace-text" node_ref=text rows="4" spellcheck="false" placeholder="0\n12.5\n40\n# comments start with #"></textarea>
            <div class="trace-actions">
                <button type="button" id="trace-use" on:click=use_text>"Use these times"</button>
                <label class="file">
                    <span>"or upload a file"</span>
                    <input type="file" id="trace-file" accept=".txt,.csv,text/plain" on:change=on_file />
                </label>
            </div>
            {move || match outcome.get() {
                Some(Ok(summary)) => view! { <p class="ok" id="trace-message" role="status">{summary}</p> }.into_any(),
                Some(Err(message)) => view! { <p class="error" id="trace-message" role="alert">{message}</p> }.into_any(),
                None => ().into_any(),
            }}
        </div>
    }
}
