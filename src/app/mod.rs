//! The web app: one token bucket running live. Components only show and forward; every number
//! comes from the engine in [`crate::sim`]. Only [`units`] is compiled natively (pure arithmetic,
//! tested without a browser); everything else needs the browser.

pub mod units;

#[cfg(target_arch = "wasm32")]
mod chart_view;
#[cfg(target_arch = "wasm32")]
mod controls;
#[cfg(target_arch = "wasm32")]
mod counters;
#[cfg(target_arch = "wasm32")]
pub mod media;
#[cfg(target_arch = "wasm32")]
mod playback;
#[cfg(target_arch = "wasm32")]
pub mod playground;
#[cfg(target_arch = "wasm32")]
pub mod raf;
#[cfg(target_arch = "wasm32")]
mod slider;

#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub use page::App;
