//! `make bench`, in the browser: what users feel, measured on the release build in headless
//! Chromium and printed next to the targets of the performance issue.
//!
//! Needs `dist/` (the Makefile builds it first) and Chromium + ChromeDriver.

#[cfg(not(target_arch = "wasm32"))]
#[path = "native/browser.rs"]
mod native;

fn main() {
    // Lints also run for wasm32, where there is nothing to measure here.
    #[cfg(not(target_arch = "wasm32"))]
    native::main();
}
