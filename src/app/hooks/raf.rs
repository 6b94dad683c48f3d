//! `use_raf_fn`: calls a function on every animation frame while a signal is true, with the real
//! milliseconds since the previous frame. The hook owns its cleanup: when the calling component is
//! disposed the pending frame is cancelled and the frame closure is dropped. And
//! [`mark_first_frame`], the one mark `make bench` times page loads by.

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;

/// The JS-callable function run on each frame, given the frame's timestamp in ms.
type FrameFn = Closure<dyn FnMut(f64)>;

/// The loop's state, shared by the frame closure (weakly) and the effect and cleanup (strongly).
struct Loop {
    /// The pending `requestAnimationFrame` id, if one is scheduled.
    handle: Cell<Option<i32>>,
    /// Timestamp of the previous frame of the current run; `None` right after (re)starting.
    last: Cell<Option<f64>>,
    /// The JS-callable frame function; dropped on cleanup.
    frame: RefCell<Option<FrameFn>>,
}

impl Loop {
    fn schedule(&self) {
        if self.handle.get().is_some() {
            return;
        }
        let frame = self.frame.borrow();
        if let Some(frame) = frame.as_ref() {
            self.handle.set(window().request_animation_frame(frame.as_ref().unchecked_ref()).ok());
        }
    }

    fn cancel(&self) {
        if let Some(id) = self.handle.take() {
            let _ = window().cancel_animation_frame(id);
        }
        self.last.set(None);
    }
}

/// Runs `callback(delta_ms)` once per animation frame while `active` is true. The first frame after
/// (re)starting reports a delta of 0, so pausing does not count as elapsed time.
pub fn use_raf_fn(active: Signal<bool>, mut callback: impl FnMut(f64) + 'static) {
    let state = Rc::new(Loop { handle: Cell::new(None), last: Cell::new(None), frame: RefCell::new(None) });
    let weak: Weak<Loop> = Rc::downgrade(&state);
    let frame = FrameFn::new(move |timestamp: f64| {
        let Some(state) = weak.upgrade() else { return };
        state.handle.set(None);
        let delta = state.last.get().map_or(0.0, |last| (timestamp - last).max(0.0));
        state.last.set(Some(timestamp));
        callback(delta);
        state.schedule();
    });
    *state.frame.borrow_mut() = Some(frame);

    let for_effect = Rc::clone(&state);
    Effect::new(move |_| {
        if active.get() {
            for_effect.schedule();
        } else {
            for_effect.cancel();
        }
    });

    let for_cleanup = SendWrapper::new(state);
    on_cleanup(move || {
        for_cleanup.cancel();
        for_cleanup.frame.borrow_mut().take();
    });
}

/// Marks the first frame after mounting as `rlp-first-frame` in the page's performance
/// timeline (a standard User Timing entry, invisible to users): `make bench` reads it to time
/// navigation → first interactive frame.
pub fn mark_first_frame() {
    let Some(window) = web_sys::window() else { return };
    let mark = Closure::once_into_js(|| {
        if let Some(performance) = web_sys::window().and_then(|w| w.performance()) {
            let _ = performance.mark("rlp-first-frame");
        }
    });
    let _ = window.request_animation_frame(mark.unchecked_ref());
}
