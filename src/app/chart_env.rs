//! What every chart redraws for besides its data: the colour scheme and the page size, and
//! whether it is drawn at all: a chart scrolled out of view is not (without a GPU, every canvas
//! drawn costs its rasterising each frame), and draws the moment it comes back, unless an export
//! or printing needs every chart current. The page provides one [`ChartEnv`] (owning the window `resize`
//! listener); charts read it from context.

use leptos::ev;
use leptos::prelude::*;

/// The colour scheme, a counter of window resizes, and whether every chart must be drawn.
#[derive(Clone, Copy)]
pub struct ChartEnv {
    /// Whether the page is dark (the charts re-read their colours from CSS when it flips).
    pub dark: Signal<bool>,
    resized: ReadSignal<u32>,
    everything: RwSignal<bool>,
    printing: Signal<bool>,
}

impl ChartEnv {
    /// A number that changes whenever charts must re-measure their canvases or re-read the
    /// theme; reading it tracks both.
    pub fn key(&self) -> u64 {
        (u64::from(self.resized.get()) << 1) | u64::from(self.dark.get())
    }

    /// Whether a chart whose canvas is `seen` (see [`super::hooks::in_view::use_in_view`]) draws now: while it is in
    /// view, or while an export or printing needs every chart current. Reading it tracks all.
    pub fn draws(&self, seen: Signal<bool>) -> bool {
        self.everything.get() || self.printing.get() || seen.get()
    }

    /// Has every chart drawn, in view or not, then runs `then` (which reads the canvases) on the
    /// next animation frame, after the charts' effects have run.
    pub fn with_every_chart_drawn(&self, then: impl FnOnce() + 'static) {
        let everything = self.everything;
        everything.set(true);
        request_animation_frame(move || {
            // The page may have gone away meanwhile (handed over): then nothing is left to read.
            if everything.try_set(false).is_none() {
                then();
            }
        });
    }
}

/// Provides the [`ChartEnv`] for `dark` to the components below; the resize listener is removed
/// when the calling component goes away.
pub fn provide_chart_env(dark: Signal<bool>) {
    let (resized, set_resized) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    // Printing (or saving as PDF) shows every chart, scrolled into view or not: the `print` media
    // query starts matching before the browser lays the page out for print, and the charts draw
    // in the effects it sets off.
    let printing = super::hooks::media::use_media_query("print");
    provide_context(ChartEnv { dark, resized, everything: RwSignal::new(false), printing });
}

/// The [`ChartEnv`] provided by the page.
///
/// Not `expect_context`: its panic message prints the caller's `Location` with `{:?}`, which
/// brings core's `str` Debug, its escaping and Unicode's printable tables into every module (see
/// docs/size.md).
pub fn use_chart_env() -> ChartEnv {
    use_context::<ChartEnv>().expect("the page provides a ChartEnv")
}
