//! The fixture's `ratelimit-frame` module: the library's exports only (no closures, no wasm-streams: a
//! module a step must also handle).

// Links the library, whose #[wasm_bindgen] exports the module then carries.
use build_steps_fixture as _;

fn main() {}
