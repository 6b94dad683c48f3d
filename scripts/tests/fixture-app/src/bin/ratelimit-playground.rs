//! The fixture's `ratelimit-playground` module: the library's exports, closures and a future (`rich.rs`), and
//! wasm-streams' classes, as the app's modules have them.

// Linked as leptos → server_fn links it into the app: its classes are exported, used or not.
extern crate wasm_streams as _;

#[path = "../rich.rs"]
mod rich;

fn main() {}
