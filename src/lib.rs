//! ratelimit-playground: see rate limiters work.
//!
//! - [`sim`]: the exact, deterministic engine (pure Rust; runs natively and in WebAssembly);
//! - [`chart`]: drawing from plain data, generic over plotters' backends (canvas and SVG);
//! - [`production`]: the current policy as configuration for nginx, Envoy, governor,
//!   express-rate-limit, Upstash and a Redis Lua script;
//! - [`app`]: the Leptos single-page app (its components are wasm32 only) that renders what the
//!   engine decides.

pub mod app;
pub mod chart;
pub mod production;
pub mod sim;
