//! What every chart redraws for besides its data: the colour scheme and the page size. The page
//! provides one [`ChartEnv`] (owning the window `resize` listener); charts read it from context.

use leptos::ev;
use leptos::prelude::*;

/// The colour scheme and a counter of window resizes.
#[derive(Clone, Copy)]
pub struct ChartEnv {
    /// Whether the page is dark (the charts re-read their colours from CSS when it flips).
    pub dark: Signal<bool>,
    resized: ReadSignal<u32>,
}

impl ChartEnv {
    /// A number that changes whenever charts must re-measure their canvases or re-read the
    /// theme; reading it tracks both.
    pub fn key(&self) -> u64 {
        (u64::from(self.resized.get()) << 1) | u64::from(self.dark.get())
    }
}

/// Provides the [`ChartEnv`] for `dark` to the components below; the resize listener is removed
/// when the calling component goes away.
pub fn provide_chart_env(dark: Signal<bool>) {
    let (resized, set_resized) = signal(0u32);
    let listener = window_event_listener(ev::resize, move |_| set_resized.update(|n| *n = n.wrapping_add(1)));
    on_cleanup(move || listener.remove());
    provide_context(ChartEnv { dark, resized });
}

/// The [`ChartEnv`] provided by the page.
pub fn use_chart_env() -> ChartEnv {
    expect_context::<ChartEnv>()
}
