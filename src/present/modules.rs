//! What each wasm module's entry point gives its engine ([`Capabilities`]): the page's and a
//! frame's first modules run one limiter of a textbook algorithm and hand any other scenario to
//! the whole page, which runs everything. Each entry names its own constant, so a module links
//! only the parts its constant holds; `tests/capabilities.rs` runs every module's set over the
//! golden scenarios.

use crate::sim::Capabilities;

/// The page's first module (`ratelimit-playground`, src/main.rs).
pub const PAGE: Capabilities = Capabilities::ONE_LIMITER;

/// A frame's module (`ratelimit-frame`, src/bin/ratelimit-frame.rs).
pub const FRAME: Capabilities = Capabilities::ONE_LIMITER;

/// The whole page (`ratelimit-full`, src/bin/ratelimit-full.rs): every view and panel.
pub const WHOLE: Capabilities = Capabilities::ALL;

/// Every module that runs the engine, by its binary's name.
pub const ALL: [(&str, Capabilities); 3] =
    [("ratelimit-playground", PAGE), ("ratelimit-frame", FRAME), ("ratelimit-full", WHOLE)];
