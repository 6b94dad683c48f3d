//! What every module of the fixture exports, for the tests to call after each step: functions
//! that call the glue (imports named `__wbg_<name>_<hash>`), take and return strings and numbers. The page's and the
//! whole page's modules add `rich.rs` and wasm-streams. Nothing here runs a browser API on start,
//! so the tests can instantiate the modules in Node.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// console.log
    #[wasm_bindgen(js_namespace = console)]
    pub fn log(message: &str);

    /// Math.max
    #[wasm_bindgen(js_namespace = Math)]
    fn max(a: f64, b: f64) -> f64;
}

/// The larger of `a` and `b`, as JavaScript's Math.max says: a call into the glue.
#[wasm_bindgen]
pub fn larger(a: f64, b: f64) -> f64 {
    max(a, b)
}

/// `a + b`: an export the tests call after every step, to see the glue still drives the module.
#[wasm_bindgen]
pub fn add(a: u32, b: u32) -> u32 {
    a + b
}

/// A string in and a string out (the glue's encoder, decoder and allocator).
#[wasm_bindgen]
pub fn greet(name: &str) -> String {
    let mut out = String::from("hello, ");
    out.push_str(name);
    out
}
