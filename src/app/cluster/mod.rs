//! Multi-node mode: what happens when the counter leaves the single server. The cluster behind a
//! load balancer and its store, made visible — the topology with requests flowing, a swimlane of
//! store operations with lost updates marked, the code being executed, admissions against one
//! exact limiter, decision latency per store mode, the edge design's sweep, what an outage
//! lets through and the stories of a failing store.
//!
//! The plain-Rust parts (presets, choices, readout, outage, modes, sweep, code, measured) are in
//! [`crate::present::cluster`], tested without a browser; these are the components.
//! As everywhere in the app, every number comes from the engine in [`crate::sim`].

pub(crate) mod code_view;
mod controls;
pub(crate) mod failures_view;
mod key_view;
mod kong_controls;
mod layered;
mod mode;
pub(crate) mod modes_view;
pub(crate) mod nodes_view;
mod outage_controls;
pub(crate) mod outage_view;
mod replica_controls;
pub(crate) mod stats_view;
pub(crate) mod sweep_view;
pub(crate) mod swimlane_view;
pub(crate) mod throughput_view;
pub(crate) mod topology_view;
mod view;

pub use controls::{nodes_slider, rtt_slider, store_hint, store_select, ClusterControls};
pub use mode::ModeSwitch;
pub use view::ClusterView;
