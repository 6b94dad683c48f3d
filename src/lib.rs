//! ratelimit-playground: see rate limiters work.
//!
//! - [`sim`]: the exact, deterministic engine (pure Rust; runs natively and in WebAssembly);
//! - [`chart`]: drawing from plain data, generic over plotters' backends (canvas and SVG);
//! - [`app`]: the Leptos single-page app (its components are wasm32 only) that renders what the
//!   engine decides.

pub mod app;
pub mod chart;
pub mod sim;
