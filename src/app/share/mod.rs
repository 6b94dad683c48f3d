//! Sharing, embedding and exporting: the address bar holds the whole run ([`link`]), a Share
//! button copies it, an Embed button hands out an `<iframe>` snippet for the compact layout
//! (`?embed=1`), whose frame reports its height (and a small status) to the parent page by
//! `postMessage`; the chart exports as PNG, the series as CSV, the scenario as JSON; and the
//! production panel shows the current policy as configuration for the limiters people run.
//!
//! The Embed panel's builder is a wasm module of its own, loaded when the panel first opens
//! (`builder_host` on the page's side, `builder_module` on the builder's).
//!
//! [`builder_input`], [`cards`], [`link`], [`export`] and [`snippet`] are plain Rust, tested
//! natively; the rest needs a browser.

pub mod builder_input;
pub mod cards;
pub mod export;
pub mod frame;
pub mod link;
mod plain_link;
pub mod snippet;
#[cfg(not(target_arch = "wasm32"))]
pub mod still;

#[cfg(target_arch = "wasm32")]
mod builder_host;
#[cfg(target_arch = "wasm32")]
pub mod builder_module;
#[cfg(target_arch = "wasm32")]
mod clipboard;
#[cfg(target_arch = "wasm32")]
mod download;
#[cfg(target_arch = "wasm32")]
mod embed;
#[cfg(target_arch = "wasm32")]
mod embed_bar;
#[cfg(target_arch = "wasm32")]
mod embed_cards;
#[cfg(target_arch = "wasm32")]
mod embed_controls;
#[cfg(target_arch = "wasm32")]
mod embed_panel;
#[cfg(target_arch = "wasm32")]
mod exports;
#[cfg(target_arch = "wasm32")]
mod frame_messages;
#[cfg(target_arch = "wasm32")]
mod notice;
#[cfg(target_arch = "wasm32")]
mod png;
#[cfg(target_arch = "wasm32")]
mod production;
#[cfg(target_arch = "wasm32")]
mod share_bar;
#[cfg(target_arch = "wasm32")]
mod url_sync;

#[cfg(target_arch = "wasm32")]
pub use embed::{embed_notice, fitted_cards, EmbedApp};
#[cfg(target_arch = "wasm32")]
pub use embed_cards::{any_card, needs_whole_page, one_server_card};
#[cfg(target_arch = "wasm32")]
pub use notice::LinkNotice;
#[cfg(target_arch = "wasm32")]
pub use production::ProductionPanel;
#[cfg(target_arch = "wasm32")]
pub use share_bar::ShareBar;
#[cfg(target_arch = "wasm32")]
pub use url_sync::{
    apply_view, link_view, read_link, read_plain_embed_link, read_plain_link, replace_query, use_url_sync,
};
