//! Sharing, embedding and exporting: the address bar holds the whole run ([`crate::present::share::link`]), a Share
//! button copies it, an Embed button hands out an `<iframe>` snippet for the compact layout
//! (`?embed=1`), whose frame reports its height (and a small status) to the parent page by
//! `postMessage`; the chart exports as PNG, the series as CSV, the scenario as JSON; and the
//! production panel shows the current policy as configuration for the limiters people run.
//!
//! The Embed panel's builder is a wasm module of its own, loaded when the panel first opens
//! (`builder_host` on the page's side, `builder_module` on the builder's).
//!
//! What a link, a card, an export and a snippet say is plain Rust, in [`crate::present::share`];
//! these are the components and browser hooks that show and send them.

mod builder_host;
pub mod builder_module;
mod clipboard;
mod download;
mod embed;
mod embed_bar;
mod embed_cards;
mod embed_controls;
mod embed_panel;
mod every_product;
mod exports;
mod frame_messages;
mod host_api;
mod notice;
mod png;
mod production;
mod run_config;
mod share_bar;
mod url_sync;

pub use embed::{embed_notice, fit_link_controls, fitted_cards, EmbedApp};
pub use embed_cards::{any_card, needs_whole_page, one_server_card};
pub use embed_controls::{any_control, one_server_control};
pub use notice::LinkNotice;
pub use production::ProductionPanel;
pub use share_bar::ShareBar;
pub use url_sync::{apply_view, read_frame_link, read_link, read_page_link, replace_query, use_url_sync};
