//! Multi-node mode: what happens when the counter leaves the single server. The cluster behind a
//! load balancer and its store, made visible — the topology with requests flowing, a swimlane of
//! store operations with lost updates marked, the code being executed, admissions against one
//! exact limiter, decision latency per store mode, the edge design's sweep and what an outage
//! lets through.
//!
//! The plain-Rust parts ([`presets`], [`choices`], [`readout`], [`outage`], [`modes`], [`sweep`],
//! [`code`], [`measured`]) compile natively and are tested without a browser; the components need the browser.
//! As everywhere in the app, every number comes from the engine in [`crate::sim`].

pub mod choices;
pub mod code;
pub mod measured;
pub mod modes;
pub mod outage;
pub mod pictures;
pub mod presets;
pub mod readout;
pub mod redis_measured;
pub mod sweep;

#[cfg(target_arch = "wasm32")]
pub(crate) mod code_view;
#[cfg(target_arch = "wasm32")]
mod controls;
#[cfg(target_arch = "wasm32")]
mod layered;
#[cfg(target_arch = "wasm32")]
mod mode;
#[cfg(target_arch = "wasm32")]
pub(crate) mod modes_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod nodes_view;
#[cfg(target_arch = "wasm32")]
mod outage_controls;
#[cfg(target_arch = "wasm32")]
pub(crate) mod outage_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod stats_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod sweep_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod swimlane_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod throughput_view;
#[cfg(target_arch = "wasm32")]
pub(crate) mod topology_view;
#[cfg(target_arch = "wasm32")]
mod view;

#[cfg(target_arch = "wasm32")]
pub use controls::ClusterControls;
#[cfg(target_arch = "wasm32")]
pub use mode::ModeSwitch;
#[cfg(target_arch = "wasm32")]
pub use view::ClusterView;
