//! The web app: every single-node limiter running live, alone or side by side. Components only
//! show and forward; every number comes from the engine in [`crate::sim`]. The plain-Rust parts
//! ([`units`], [`clock`], [`options`], [`explain`], [`runner`], [`snapshot`], [`chart_data`])
//! compile natively and are tested without a browser; everything else needs the browser.

pub mod chart_data;
pub mod clock;
pub mod cluster;
pub mod explain;
pub mod explain_products;
pub mod handover;
pub mod log_report;
pub mod options;
pub mod runner;
pub mod share;
pub mod snapshot;
pub mod units;

#[cfg(target_arch = "wasm32")]
mod algo_picker;
#[cfg(target_arch = "wasm32")]
pub mod chart_env;
#[cfg(target_arch = "wasm32")]
mod choice;
#[cfg(target_arch = "wasm32")]
mod compare_column;
#[cfg(target_arch = "wasm32")]
pub(crate) mod compare_view;
#[cfg(target_arch = "wasm32")]
mod controls;
#[cfg(target_arch = "wasm32")]
pub(crate) mod convergence_view;
#[cfg(target_arch = "wasm32")]
pub mod crash;
#[cfg(target_arch = "wasm32")]
mod explain_view;
#[cfg(target_arch = "wasm32")]
pub mod in_view;
#[cfg(target_arch = "wasm32")]
mod knob;
#[cfg(target_arch = "wasm32")]
mod legend;
#[cfg(target_arch = "wasm32")]
mod logs;
#[cfg(target_arch = "wasm32")]
pub mod media;
#[cfg(target_arch = "wasm32")]
mod page;
#[cfg(target_arch = "wasm32")]
pub(crate) mod playback;
#[cfg(target_arch = "wasm32")]
pub mod playground;
#[cfg(target_arch = "wasm32")]
mod plot_canvas;
#[cfg(target_arch = "wasm32")]
pub mod raf;
#[cfg(target_arch = "wasm32")]
pub(crate) mod response;
#[cfg(target_arch = "wasm32")]
pub mod script;
#[cfg(target_arch = "wasm32")]
mod single_view;
#[cfg(target_arch = "wasm32")]
mod slider;
#[cfg(target_arch = "wasm32")]
pub mod stand_in;
#[cfg(target_arch = "wasm32")]
pub(crate) mod state_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod stats;
#[cfg(target_arch = "wasm32")]
pub(crate) mod strip_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod throughput_view;
#[cfg(target_arch = "wasm32")]
pub mod visibility;
#[cfg(target_arch = "wasm32")]
pub mod whole_page;

#[cfg(target_arch = "wasm32")]
pub use page::{App, EmbedPage, LightApp, WholeApp, WholeEmbedPage};
