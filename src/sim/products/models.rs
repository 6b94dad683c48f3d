//! Building a product model for the engine, and whether this module can.
//!
//! Natively every product model is always here. In the browser a module has them only once it
//! has called [`install`]: the page's first module never does, so the models' code (~5 KB
//! brotli) is not in what every visitor loads. Every other module installs them as it starts
//! (the whole page, a frame, the log worker); the first module hands a product link or pick over
//! to the whole page instead of running it (`app::page::LightApp`, `app::stand_in`). The engine
//! reaches the models only through a function pointer set here, so a module that never sets it
//! carries none of them.

use super::{envoy, express, governor, nginx, redis_lua, upstash, Policy};
use crate::sim::limiter::Model;
use crate::sim::scenario::{Algorithm, Scenario};

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
type Build = fn(&Scenario) -> Box<dyn Model>;

#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::OnceLock<Build> = std::sync::OnceLock::new();

/// The model of `sc`'s product.
///
/// # Panics
/// In a browser module that has not called [`install`]: the page's first module hands a product
/// over instead of running it.
pub(crate) fn model(sc: &Scenario) -> Box<dyn Model> {
    #[cfg(target_arch = "wasm32")]
    return INSTALLED.get().expect("the product models are not in this module: the whole page runs them")(sc);
    #[cfg(not(target_arch = "wasm32"))]
    build(sc)
}

/// `sc`'s product running the configuration the production panel exports for its policy.
fn build(sc: &Scenario) -> Box<dyn Model> {
    let p = Policy::of(sc);
    let o = &sc.product;
    match sc.algo {
        Algorithm::Nginx => Box::new(nginx::Nginx::new(&nginx::NginxConfig::of(&p, o))),
        Algorithm::Envoy => Box::new(envoy::Envoy::new(&envoy::EnvoyBucket::of(&p), o.envoy_timer)),
        Algorithm::Governor => Box::new(governor::Governor::new(&governor::GovernorQuota::of(&p))),
        Algorithm::Express => Box::new(express::Express::new(&express::ExpressOptions::of(&p))),
        Algorithm::UpstashFixed | Algorithm::UpstashSliding | Algorithm::UpstashToken => {
            Box::new(upstash::Upstash::new(&upstash::UpstashLimiter::of(&p)))
        }
        Algorithm::RedisLua => Box::new(redis_lua::RedisLua::new(redis_lua::LuaArgs::of(&p))),
        textbook => unreachable!("{textbook:?} is built by Scenario::limiter"),
    }
}
