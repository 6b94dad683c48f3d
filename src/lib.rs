//! ratelimit-playground: see rate limiters work.
//!
//! - [`sim`]: the exact, deterministic engine (pure Rust; runs natively and in WebAssembly);
//! - `app` (wasm32 only): the Leptos single-page app that renders what the engine decides.

pub mod sim;
