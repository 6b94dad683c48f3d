//! The server view's plain-Rust parts (issue #37): its presets, and what its cards draw from a
//! run ([`cards`]). No Leptos: tested natively; [`crate::app`] renders it in the whole page.

pub mod cards;
pub mod presets;
