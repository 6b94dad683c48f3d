//! The crash notice: a panic in WebAssembly stops the app for good, so the panic hook says so on
//! the page instead of leaving it frozen. Plain DOM calls only, since the reactive runtime may be
//! what panicked.

/// Installs the hook: the panic goes to the console (with its message and location) and a
/// notice is put at the top of the page, once.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        console_error_panic_hook::hook(info);
        show_crash_notice();
    }));
}

/// What the notice says.
pub const CRASH_NOTICE: &str = "Something went wrong and the simulation stopped. Reload the page to start again; \
     if it happens again, please report the address you were on (it holds the whole scenario).";

fn show_crash_notice() {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    if document.get_element_by_id("crash").is_some() {
        return;
    }
    let (Ok(notice), Some(body)) = (document.create_element("div"), document.body()) else { return };
    notice.set_id("crash");
    notice.set_class_name("crash");
    let _ = notice.set_attribute("role", "alert");
    notice.set_text_content(Some(CRASH_NOTICE));
    let _ = body.prepend_with_node_1(&notice);
}
