//! Charts drawn from plain data. Everything here that only needs plotters is generic over
//! plotters' `DrawingBackend` and compiles natively, so the CLI can render the same charts to SVG;
//! `canvas` (wasm32 only) is the thin browser-only layer that sizes a `<canvas>` and reads the page theme.

pub mod axis;
#[cfg(target_arch = "wasm32")]
pub mod canvas;
pub mod theme;
pub mod throughput;
