//! The server behind the limiter in the engine ([`crate::sim::server`]): a request the limiter
//! admits is handed to it when its client is answered, and each one a worker finishes is an
//! event.
//!
//! Natively this is always here. In the browser a module has it only once its entry has called
//! [`install`], as with the shared store ([`super::shared`]): a first module runs one limiter
//! with nothing behind it (it hands a link that sets `workers` over to the whole page, which
//! installs it), so its wasm carries none of this code.

use super::events::{Attempt, Ev};
use super::Simulation;
use crate::sim::rng::SimRng;
use crate::sim::scenario::Scenario;
use crate::sim::server::{Admitted, Backend, Job, ServerConfig};
use crate::sim::time::SimTime;
use std::any::Any;

/// Makes the server available to this module's engine. Idempotent.
pub fn install() {
    #[cfg(target_arch = "wasm32")]
    let _ = INSTALLED.set((make_backend, admit, finish));
}

#[cfg(target_arch = "wasm32")]
type Ops = (
    fn(&Scenario, SimRng) -> Option<Box<dyn Any>>,
    fn(&mut Simulation, Attempt, SimTime),
    fn(&mut Simulation, SimTime, Job),
);

#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::OnceLock<Ops> = std::sync::OnceLock::new();

/// The server `sc` puts behind its limiter, if any (none in a module without it).
pub(super) fn make(sc: &Scenario, rng: SimRng) -> Option<Box<dyn Any>> {
    #[cfg(target_arch = "wasm32")]
    return INSTALLED.get().and_then(|&(make, _, _)| make(sc, rng));
    #[cfg(not(target_arch = "wasm32"))]
    make_backend(sc, rng)
}

/// The limiter admitted `a`, and its node answered at `now`: the server takes it.
pub(super) fn admitted(sim: &mut Simulation, a: Attempt, now: SimTime) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(_, admit, _)) = INSTALLED.get() {
        admit(sim, a, now);
    }
    #[cfg(not(target_arch = "wasm32"))]
    admit(sim, a, now)
}

/// A worker finished `job` at `now`.
pub(super) fn finished(sim: &mut Simulation, now: SimTime, job: Job) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(_, _, finish)) = INSTALLED.get() {
        finish(sim, now, job);
    }
    #[cfg(not(target_arch = "wasm32"))]
    finish(sim, now, job)
}

fn make_backend(sc: &Scenario, rng: SimRng) -> Option<Box<dyn Any>> {
    ServerConfig::of(&sc.product).map(|cfg| Box::new(Backend::new(cfg, rng)) as Box<dyn Any>)
}

/// The run's server, if it has one.
fn backend(sim: &mut Simulation) -> Option<&mut Backend> {
    sim.server.as_mut()?.downcast_mut::<Backend>()
}

fn admit(sim: &mut Simulation, a: Attempt, now: SimTime) {
    let Some(server) = backend(sim) else { return };
    let job = Job { id: a.id, sent: a.at, queued: now };
    if let Admitted::Started(done) = server.arrive(now, job) {
        sim.push(done, Ev::Served(job));
    }
}

fn finish(sim: &mut Simulation, now: SimTime, job: Job) {
    let Some(server) = backend(sim) else { return };
    if let Some((next, done)) = server.finish(now, job) {
        sim.push(done, Ev::Served(next));
    }
}
