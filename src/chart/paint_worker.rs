//! The paint worker (`paint-worker.js`, beside this file): a thread that paints the canvases redrawn on every
//! frame — the request strip, the cluster's topology and swimlane — so that the page's own
//! thread only computes what to draw. Without a GPU, a canvas changed on a frame costs the page's
//! thread its rasterising and ~1 ms of commit to the compositor; a canvas handed to a worker
//! (`transferControlToOffscreen`) reaches the compositor from the worker instead. Measured on a
//! bare page: a canvas drawn every frame cost 2.1 ms of main-thread task time per frame drawn on
//! the page, 1.0 ms drawn by a worker, the same as not drawing it at all.
//!
//! One worker serves every such canvas of the page, started by the first and terminated when
//! the last goes away. A canvas is handed over only once the worker has said it is ready: a
//! canvas handed over cannot come back, and one ever drawn on cannot be handed over. So a chart
//! waits, undrawn, for the few milliseconds the worker takes to start (reading [`Phase`] tracks
//! it: the chart draws the moment the worker is ready), and where the browser refuses a worker
//! (a host whose CSP forbids `blob:` workers) or the worker fails, the page draws it itself, as
//! before.
//!
//! Messages to the worker: `[id, OffscreenCanvas]`, a canvas to paint from now on; `id`, that
//! canvas's chart went away; a `Float64Array`, a frame ([`super::pen`]: id, width, height,
//! commands). From it: `"ready"`, once, when its script runs.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use leptos::prelude::{ArcTrigger, Notify, Track};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{js_sys, Blob, BlobPropertyBag, HtmlCanvasElement, MessageEvent, Url, Worker};

use super::compact_js::{compact, compact_len};

/// The worker's script. It is started from a `blob:` URL of this text rather than from a file
/// next to the page: a sandboxed frame without its own origin (as an embedding page may make it)
/// may start a worker from no other URL, and there is no request to wait for. Kept without its
/// comments and indentation ([`super::compact_js`], at compile time) for the page's size: see
/// docs/size.md.
const SOURCE: &str = match std::str::from_utf8(&COMPACT) {
    Ok(source) => source,
    Err(_) => panic!("the paint worker's script is UTF-8"),
};
const COMPACT: [u8; compact_len(include_str!("paint-worker.js"))] = compact(include_str!("paint-worker.js"));

/// Where the worker is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Starting its script: charts wait for it.
    Starting,
    /// Takes canvases.
    Ready,
    /// Stopped (its script threw, or a CSP refused it): the page draws what it had not taken.
    Failed,
}

/// The page's end of the paint worker.
pub struct PaintWorker {
    worker: Worker,
    phase: Rc<Cell<Phase>>,
    /// Notified when the phase changes.
    changed: ArcTrigger,
    next_id: Cell<u32>,
    /// Hears "ready" and errors.
    _listener: Closure<dyn FnMut(MessageEvent)>,
}

thread_local! {
    static SHARED: RefCell<Weak<PaintWorker>> = const { RefCell::new(Weak::new()) };
}

impl PaintWorker {
    /// The page's paint worker, started now if none runs; `None` if the browser refuses one.
    pub fn shared() -> Option<Rc<PaintWorker>> {
        if let Some(running) = SHARED.with_borrow(Weak::upgrade) {
            return Some(running);
        }
        let started = Rc::new(Self::start()?);
        SHARED.set(Rc::downgrade(&started));
        Some(started)
    }

    fn start() -> Option<PaintWorker> {
        let options = BlobPropertyBag::new();
        options.set_type("text/javascript");
        let source =
            Blob::new_with_str_sequence_and_options(&js_sys::Array::of1(&JsValue::from_str(SOURCE)), &options).ok()?;
        let url = Url::create_object_url_with_blob(&source).ok()?;
        let worker = Worker::new(&url);
        if worker.is_err() {
            let _ = Url::revoke_object_url(&url);
        }
        let worker = worker.ok()?;
        let (phase, changed) = (Rc::new(Cell::new(Phase::Starting)), ArcTrigger::new());
        // One listener for both: "ready" is the only message the worker sends; an error (a
        // script that failed to load or threw) carries no data.
        let listener = Closure::<dyn FnMut(MessageEvent)>::new({
            let (phase, changed) = (Rc::clone(&phase), changed.clone());
            move |ev: MessageEvent| {
                // The script has run or failed: the URL is no longer needed.
                let _ = Url::revoke_object_url(&url);
                let ready = ev.data().as_string().as_deref() == Some("ready");
                let next = match phase.get() {
                    Phase::Starting if ready => Phase::Ready,
                    _ if ready => return,
                    _ => {
                        ev.prevent_default();
                        leptos::logging::warn!(
                            "the paint worker stopped: charts it had not taken are drawn on the page"
                        );
                        Phase::Failed
                    }
                };
                phase.set(next);
                changed.notify();
            }
        });
        worker.set_onmessage(Some(listener.as_ref().unchecked_ref()));
        worker.set_onerror(Some(listener.as_ref().unchecked_ref()));
        Some(PaintWorker { worker, phase, changed, next_id: Cell::new(0), _listener: listener })
    }

    /// Where the worker is; reading it inside an effect runs the effect again when it changes.
    pub fn phase(&self) -> Phase {
        self.changed.track();
        self.phase.get()
    }

    /// Hands `canvas` (never drawn on) to the worker and returns its id there, or `None` if the
    /// browser would not hand it over (the canvas stays the page's).
    pub fn adopt(&self, canvas: &HtmlCanvasElement) -> Option<u32> {
        let offscreen = canvas.transfer_control_to_offscreen().ok()?;
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let message = js_sys::Array::of2(&JsValue::from(id), &offscreen);
        self.worker.post_message_with_transfer(&message, &js_sys::Array::of1(&offscreen)).ok()?;
        Some(id)
    }

    /// Has the worker paint `frame` (see [`super::pen`]): copied out of the module's memory once,
    /// then moved to the worker, not copied again.
    pub fn paint(&self, frame: &[f64]) {
        let array = js_sys::Float64Array::from(frame);
        let _ = self.worker.post_message_with_transfer(&array, &js_sys::Array::of1(&array.buffer()));
    }

    /// Lets the worker drop canvas `id` (its chart went away).
    pub fn forget(&self, id: u32) {
        let _ = self.worker.post_message(&JsValue::from(id));
    }
}

impl Drop for PaintWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}
