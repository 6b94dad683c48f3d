//! The server view's plain-Rust parts (issue #37): its presets; what its cards draw from a run
//! is [`crate::chart::server_window`]. No Leptos: tested natively; [`crate::app`] renders it in
//! the whole page.

pub mod presets;
