//! The web app: Leptos components and the browser's hooks. Every single-node limiter running
//! live, alone or side by side, the multi-node view, sharing and embedding. Components only show
//! and forward: what they show is made by the plain-Rust layer in [`crate::present`] from what the
//! engine in [`crate::sim`] decided. The whole module is the browser's (wasm32 only).

pub mod cluster;
pub mod share;

mod algo_picker;
pub mod chart_env;
mod choice;
mod compare_column;
pub(crate) mod compare_view;
mod controls;
pub(crate) mod convergence_view;
pub mod crash;
mod explain_view;
pub mod fold;
pub mod hooks;
mod knob;
mod legend;
mod logs;
mod page;
pub(crate) mod playback;
pub mod playground;
mod plot_canvas;
mod product_options;
pub(crate) mod response;
pub mod script;
mod server_view;
mod single_view;
mod slider;
pub mod split;
pub(crate) mod state_view;
pub(crate) mod stats;
pub(crate) mod stories;
pub(crate) mod strip_view;
pub(crate) mod throughput_view;
mod tour;

pub use page::{App, EmbedPage, LightApp, WholeApp, WholeEmbedPage};
