//! The crash notice, in headless Chromium: a panic anywhere in the app's wasm puts a notice at
//! the top of the page instead of leaving a frozen picture. Its own test binary (its own wasm
//! instance), since a panic ends the instance's usefulness for anything else.
//!
//! `cargo test --target wasm32-unknown-unknown --test wasm_crash` (the Makefile's wasm-test).
#![cfg(target_arch = "wasm32")]

use gloo_timers::future::TimeoutFuture;
use ratelimit_playground::app::crash::{install_panic_hook, CRASH_NOTICE};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Panics in a timer callback, as a bug in a frame or an event handler would: the trap ends
/// that callback, not the test.
fn panic_soon(message: &'static str) {
    let callback = Closure::once_into_js(move || -> () { panic!("{message}") });
    web_sys::window()
        .unwrap()
        .set_timeout_with_callback_and_timeout_and_arguments_0(callback.unchecked_ref(), 0)
        .unwrap();
}

fn notices() -> u32 {
    web_sys::window().unwrap().document().unwrap().query_selector_all("#crash").unwrap().length()
}

#[wasm_bindgen_test]
async fn a_panic_puts_one_crash_notice_at_the_top_of_the_page() {
    install_panic_hook();
    assert_eq!(notices(), 0);
    panic_soon("deliberate panic from the crash-notice test");
    TimeoutFuture::new(100).await;
    let document = web_sys::window().unwrap().document().unwrap();
    let notice = document.get_element_by_id("crash").expect("the crash notice is shown");
    assert_eq!(notice.text_content().as_deref(), Some(CRASH_NOTICE));
    assert_eq!(notice.get_attribute("role").as_deref(), Some("alert"));
    let first = document.body().unwrap().first_element_child().unwrap();
    assert_eq!(first.id(), "crash", "the notice is not at the top of the page");

    // Whatever panics next does not stack more notices.
    panic_soon("a second deliberate panic");
    TimeoutFuture::new(100).await;
    assert_eq!(notices(), 1);
}
