//! `use_settled`: a flag that turns true two animation frames after mounting, once the first
//! frame (with the running chart) has been painted. What a reader does not need to see the run
//! start (the parameters' sliders, the explanation, the panels further down) mounts then, so the
//! first screen's chart is not held back by building them.

use leptos::prelude::*;

/// True from the second animation frame after the calling component mounted; true at once when
/// `now` (the page is already painted, as when handed over). The pending frame is cancelled
/// when the component goes away first.
pub fn use_settled(now: bool) -> Signal<bool> {
    let settled = RwSignal::new(now);
    if !now {
        let second = StoredValue::new(None::<AnimationFrameRequestHandle>);
        let first = request_animation_frame_with_handle(move || {
            let next = request_animation_frame_with_handle(move || {
                settled.try_set(true);
            });
            second.try_set_value(next.ok());
        });
        let first = StoredValue::new(first.ok());
        on_cleanup(move || {
            for handle in [first.try_get_value().flatten(), second.try_get_value().flatten()].into_iter().flatten() {
                handle.cancel();
            }
        });
    }
    settled.into()
}
