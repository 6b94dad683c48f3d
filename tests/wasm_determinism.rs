//! The engine in WebAssembly, in headless Chromium, gives the same bytes as natively: every
//! golden scenario matches the fingerprint committed from the native run.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::*;

#[path = "golden/scenarios.rs"]
mod scenarios;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn golden_scenarios_match_the_native_fingerprints() {
    // Every part of the engine (`Capabilities::ALL`), as the whole page has.
    assert_eq!(scenarios::fingerprints(), include_str!("golden/fingerprints.txt"));
}
