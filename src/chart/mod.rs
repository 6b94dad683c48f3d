//! Charts drawn from plain data. Everything here that only needs plotters is generic over
//! plotters' `DrawingBackend` and compiles natively, so the CLI can render the same charts to SVG;
//! `canvas` (wasm32 only) is the thin browser-only layer that sizes `<canvas>` elements, reads the
//! page theme and keeps each chart's axis layer until its layout changes.

pub mod axis;
#[cfg(target_arch = "wasm32")]
pub mod batched;
#[cfg(target_arch = "wasm32")]
pub mod canvas;
#[cfg(target_arch = "wasm32")]
pub mod canvas_text;
pub mod cluster;
pub mod compact_js;
pub mod convergence;
pub mod history;
#[cfg(target_arch = "wasm32")]
mod ink;
mod mesh;
#[cfg(target_arch = "wasm32")]
pub mod paint_worker;
#[cfg(target_arch = "wasm32")]
pub(crate) mod pen;
pub mod plot;
pub mod server;
pub mod server_window;
#[cfg(target_arch = "wasm32")]
pub mod sprites;
pub mod state;
pub mod strip;
pub mod style;
#[cfg(not(target_arch = "wasm32"))]
pub mod svg;
pub mod text_layer;
pub mod theme;
pub mod throughput;
