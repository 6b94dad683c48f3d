//! The multi-node view's pictures: the engine's recent events regrouped by request ([`trace`]),
//! and the two pictures made from them — the topology at one instant ([`topology`], laid out by
//! [`topology_layout`], drawn by [`topology_draw`]) and the swimlane of store operations
//! ([`swimlane`], drawn by [`swimlane_draw`]).

pub mod swimlane;
pub mod swimlane_draw;
pub mod topology;
pub mod topology_draw;
pub mod topology_layout;
pub mod trace;
