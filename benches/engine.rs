//! `make bench`: the engine's speed, natively, next to its targets, with the `governor` crate's
//! `check()` measured in the same run as a baseline.
//!
//! Each figure is the best of several timed rounds (the least disturbed by the other core's load).

#[cfg(not(target_arch = "wasm32"))]
#[path = "native/engine.rs"]
mod native;

fn main() {
    // Lints also run for wasm32, where there is nothing to measure here.
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}
