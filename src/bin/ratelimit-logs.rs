//! The page's log worker (see `ratelimit_playground::worker`): Trunk builds it as a second wasm
//! module, loaded only when the page analyses a log.

#[cfg(target_arch = "wasm32")]
fn main() {
    ratelimit_playground::worker::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("this binary is the web page's log worker; natively, run `ratelimit-sim --log FILE`");
}
