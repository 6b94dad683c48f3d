//! Ctrl-C and `kill`: a flag the runner polls, so it can stop and delete its key before exiting.

use std::sync::atomic::{AtomicBool, Ordering};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(sig: libc::c_int) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    // A second Ctrl-C ends the process at once, should the cleanup itself hang.
    // SAFETY: signal() is async-signal-safe.
    unsafe { libc::signal(sig, libc::SIG_DFL) };
}

/// Catches the first SIGINT and SIGTERM from now on; returns the flag they set.
pub fn install() -> &'static AtomicBool {
    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGINT, handler);
        libc::signal(libc::SIGTERM, handler);
    }
    &INTERRUPTED
}
