//! The page's end of the log worker (`src/worker/`): starts it on first use, hands it the
//! request once it says it is ready, and passes every answer on. Dropping the handle (Cancel, a
//! new log, the panel going away) terminates the worker, which frees everything it held.

use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, ErrorEvent, MessageEvent, Worker};

use crate::present::log_report::wire::Message;

/// Trunk's loader for the worker's module, next to the page.
const WORKER_URL: &str = "./ratelimit-logs_loader.js";

/// A running worker and its listeners.
pub struct LogWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl LogWorker {
    /// Starts a worker that analyses `request` (`[ask, file or sample name]`), calling `on`
    /// with each answer.
    pub fn start(request: js_sys::Array, on: impl Fn(Message) + 'static) -> Result<LogWorker, String> {
        let worker = Worker::new(WORKER_URL).map_err(|_| {
            "the browser refused to start the log worker here (a sandboxed frame?): open the playground on a page of its own".to_string()
        })?;
        let on = Rc::new(on);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let (worker, on) = (worker.clone(), Rc::clone(&on));
            move |ev: MessageEvent| match ev.data().as_string().as_deref().and_then(Message::decode) {
                Some(Message::Ready) => {
                    let _ = worker.post_message(&JsValue::from(&request));
                }
                Some(m) => on(m),
                None => {}
            }
        });
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |ev: ErrorEvent| {
            ev.prevent_default();
            let why = ev.message();
            on(Message::Failed(
                0,
                format!("the log worker stopped ({why}); a log this large may need more memory than the tab has"),
            ));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(LogWorker { worker, _on_message: on_message, _on_error: on_error })
    }

    /// Stops the worker (safe from inside its own callbacks: the listeners stay until drop).
    pub fn stop(&self) {
        self.worker.terminate();
    }
}

impl Drop for LogWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
