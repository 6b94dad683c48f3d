//! Building a product model for the engine, reading the products' own query keys, and whether
//! this module can.
//!
//! Natively every product model and key is always here. In the browser a module has them only
//! once its entry has called [`install`] ([`install_keys`] for the keys alone). Neither first
//! module (the page's, a frame's) does, so the models' code (~5 KB brotli, and more with every
//! product) and the keys' table (names, units, ranges: ~0.5 KB, ~0.2 KB a key) are not in what
//! every visitor or embed loads. The whole page and the log worker install both, the Embed
//! panel's builder the keys. A first module hands a product link or pick over to the whole page
//! instead of running it (`app::page::LightApp`, `app::page::EmbedPage`, `app::stand_in`), and
//! reads a link with a product's key as it reads an unknown key: not clean, so handed over too.
//! The engine reaches the models, and the query format the keys, only through what is set here,
//! so a module that never sets them carries none of them.

use super::key::ProductKey;
use super::options::ProductOptions;
use super::policy::Policy;
use crate::sim::limiter::Model;

/// Makes the product models available to this module's engine. Idempotent.
pub fn install() {
    #[cfg(target_arch = "wasm32")]
    let _ = INSTALLED.set(build);
    install_keys();
}

/// Makes the products' own query keys readable in this module, without their models: for a
/// module that reads and writes any link but runs none (the Embed panel's builder). Idempotent.
pub fn install_keys() {
    #[cfg(target_arch = "wasm32")]
    let _ = KEYS.set(&super::PRODUCT_KEYS);
}

/// The products' own query keys this module reads and writes ([`super::PRODUCT_KEYS`] once
/// [`install`]ed; none before): what [`super::product_key`] and the product options look in.
pub(crate) fn keys() -> &'static [ProductKey] {
    #[cfg(target_arch = "wasm32")]
    return KEYS.get().copied().unwrap_or(&[]);
    #[cfg(not(target_arch = "wasm32"))]
    &super::PRODUCT_KEYS
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

#[cfg(target_arch = "wasm32")]
static KEYS: std::sync::OnceLock<&'static [ProductKey]> = std::sync::OnceLock::new();

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

/// The leaky bucket's queue where `size` requests may wait, drained at `drain`, if this module
/// has the models ([`install`]): it is built like theirs, so that the first modules, which hand
/// it over, carry none of its code.
pub(crate) fn queue(size: u64, drain: crate::sim::rate::Rate) -> Option<Box<dyn Model>> {
    let p = Policy { shape: super::Shape::Bucket, burst: size, rate_milli: drain.milli(), limit: size, window_ns: 0 };
    #[cfg(target_arch = "wasm32")]
    return INSTALLED.get().map(|build| build(QUEUE, &p, &ProductOptions::default()));
    #[cfg(not(target_arch = "wasm32"))]
    Some(build(QUEUE, &p, &ProductOptions::default()))
}

/// [`build`]'s index for the leaky bucket's queue: one past the registry's products.
const QUEUE: usize = super::REGISTRY.len();

/// The registry's product `index` running the configuration its tab exports for `p`, or for
/// [`QUEUE`] the leaky bucket's queue.
fn build(index: usize, p: &Policy, o: &ProductOptions) -> Box<dyn Model> {
    match index {
        QUEUE => {
            Box::new(crate::sim::limiter::LeakyQueue::new(p.burst, crate::sim::rate::Rate::from_milli(p.rate_milli)))
        }
        _ => super::MODELS[index](p, o),
    }
}
