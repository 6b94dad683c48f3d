//! ratelimit-playground: see rate limiters work.
//!
//! - [`sim`]: the exact, deterministic engine (pure Rust; runs natively and in WebAssembly);
//! - [`chart`]: drawing from plain data, generic over plotters' backends (canvas and SVG);
//! - [`markup`]: escaping text for HTML and SVG;
//! - [`production`]: the current policy as configuration for nginx, Envoy, governor,
//!   express-rate-limit, Upstash and a Redis Lua script;
//! - `redis` (native only): the CLI's runner of a multi-node scenario against a real Redis;
//! - `worker` (wasm32 only): the page's log worker, a second wasm module (`ratelimit-logs`);
//! - [`present`]: what is shown, in plain Rust (the runner, snapshots, chart data, links, cards,
//!   stills, exports, the log report): what the app renders, the CLI prints and the log worker
//!   sends;
//! - `app` (wasm32 only): the Leptos single-page app and its browser hooks, which render
//!   [`present`].

#[cfg(target_arch = "wasm32")]
pub mod app;
pub mod chart;
#[cfg(not(target_arch = "wasm32"))]
pub mod files;
pub mod markup;
pub mod present;
pub mod production;
#[cfg(not(target_arch = "wasm32"))]
pub mod redis;
pub mod sim;
#[cfg(target_arch = "wasm32")]
pub mod worker;

/// Every wasm module's allocator: Talc instead of Rust's default dlmalloc, which is more code in
/// each module, kept for the first module's size: see docs/size.md (with realloc-in-place left
/// out: growing a buffer copies it). Talc is single-threaded here as the modules are; like
/// dlmalloc, it grows the memory and merges a freed chunk with free neighbours before binning it.
/// Measured side by side (`make bench`, `make ff-wasm`): the page's wasm memory 1.5 MB against
/// 1.4, the 10 M-line log's peak and every speed within the machine's noise.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();
