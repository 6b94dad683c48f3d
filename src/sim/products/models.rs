//! Building a product model for the engine, and whether this module can.
//!
//! Natively every product model is always here. In the browser a module has them only once its
//! entry has called [`install`]: neither first module (the page's, a frame's) does, so the
//! models' code (~5 KB brotli, and more with every product) is not in what every visitor or
//! embed loads. The whole page and the log worker install them; a first module hands a product
//! link or pick over to the whole page instead of running it (`app::page::LightApp`,
//! `app::page::EmbedPage`, `app::stand_in`). The engine
//! reaches the models only through a function pointer set here, so a module that never sets it
//! carries none of them.

use super::options::ProductOptions;
use super::policy::Policy;
use crate::sim::limiter::Model;

/// Makes the product models available to this module's engine. Idempotent.
pub fn install() {
    #[cfg(target_arch = "wasm32")]
    let _ = INSTALLED.set(build);
}

/// Whether this module's engine can run a product model (see [`install`]).
pub fn installed() -> bool {
    #[cfg(target_arch = "wasm32")]
    return INSTALLED.get().is_some();
    #[cfg(not(target_arch = "wasm32"))]
    true
}

/// How a model is built: [`build`], once installed.
#[cfg(target_arch = "wasm32")]
type Build = fn(usize, &Policy, &ProductOptions) -> Box<dyn Model>;

#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::OnceLock<Build> = std::sync::OnceLock::new();

/// The model of the registry's product `index`.
///
/// # Panics
/// In a browser module that has not called [`install`]: a first module hands a product over
/// instead of running it.
pub(crate) fn model(index: usize, p: &Policy, o: &ProductOptions) -> Box<dyn Model> {
    #[cfg(target_arch = "wasm32")]
    return INSTALLED.get().expect("the product models are not in this module: the whole page runs them")(index, p, o);
    #[cfg(not(target_arch = "wasm32"))]
    build(index, p, o)
}

/// The registry's product `index` running the configuration its tab exports for `p`.
fn build(index: usize, p: &Policy, o: &ProductOptions) -> Box<dyn Model> {
    super::MODELS[index](p, o)
}
