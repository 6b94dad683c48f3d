//! Sharing, embedding and exporting, in plain Rust: the link that holds the whole run ([`link`]:
//! one reader of an address, for every module), which wasm module serves a link ([`route`]), an
//! embed's cards ([`cards`]) and frame options ([`frame`]), what a host page may ask a frame
//! ([`host`]), the embed builder's input
//! ([`builder_input`]), the snippets it hands out ([`snippet`]), the CSV and JSON exports
//! ([`export`]) and, natively, the still SVG of a run ([`still`], what `ratelimit-sim --show`
//! writes, in the embed's theme and with its caption: [`still_look`]).

pub mod builder_input;
pub mod cards;
pub mod export;
pub mod frame;
pub mod host;
pub mod link;
mod read_link;
pub mod route;
pub mod snippet;
#[cfg(not(target_arch = "wasm32"))]
pub mod still;
#[cfg(not(target_arch = "wasm32"))]
mod still_body;
#[cfg(not(target_arch = "wasm32"))]
pub mod still_look;
pub mod title;
