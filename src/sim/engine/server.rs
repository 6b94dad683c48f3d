//! The server behind the limiter in the engine ([`crate::sim::server`]): a request the limiter
//! admits is handed to it when its node has decided, and each one a worker finishes is an
//! event. Its answers feed back: a 503 (the waiting room full) is a refusal the client retries
//! as its `retry` policy says (without a Retry-After, so after one backoff base), and a client
//! whose `client_timeout` passes before the answer stops waiting and retries the same way, while
//! the server, which does not know, still finishes the first attempt.
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
    let _ = INSTALLED.set((make_backend, admit, finish, give_up));
}

#[cfg(target_arch = "wasm32")]
type Ops = (
    fn(&Scenario, SimRng) -> Option<Box<dyn Any>>,
    fn(&mut Simulation, Attempt, SimTime),
    fn(&mut Simulation, SimTime, Job),
    fn(&mut Simulation, SimTime, Attempt),
);

#[cfg(target_arch = "wasm32")]
static INSTALLED: std::sync::OnceLock<Ops> = std::sync::OnceLock::new();

/// The server `sc` puts behind its limiter, if any (none in a module without it).
pub(super) fn make(sc: &Scenario, rng: SimRng) -> Option<Box<dyn Any>> {
    #[cfg(target_arch = "wasm32")]
    return INSTALLED.get().and_then(|&(make, ..)| make(sc, rng));
    #[cfg(not(target_arch = "wasm32"))]
    make_backend(sc, rng)
}

/// The limiter admitted `a`, and its node answered at `now`: the server takes it.
pub(super) fn admitted(sim: &mut Simulation, a: Attempt, now: SimTime) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(_, admit, ..)) = INSTALLED.get() {
        admit(sim, a, now);
    }
    #[cfg(not(target_arch = "wasm32"))]
    admit(sim, a, now)
}

/// A worker finished `job` at `now`.
pub(super) fn finished(sim: &mut Simulation, now: SimTime, job: Job) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(_, _, finish, _)) = INSTALLED.get() {
        finish(sim, now, job);
    }
    #[cfg(not(target_arch = "wasm32"))]
    finish(sim, now, job)
}

/// The client of attempt `a` stops waiting at `now`.
pub(super) fn gave_up(sim: &mut Simulation, now: SimTime, a: Attempt) {
    #[cfg(target_arch = "wasm32")]
    if let Some(&(.., give_up)) = INSTALLED.get() {
        give_up(sim, now, a);
    }
    #[cfg(not(target_arch = "wasm32"))]
    give_up(sim, now, a)
}

fn make_backend(sc: &Scenario, rng: SimRng) -> Option<Box<dyn Any>> {
    ServerConfig::of(&sc.product).map(|cfg| Box::new(Backend::new(cfg, rng, sc.bucket)) as Box<dyn Any>)
}

/// The run's server, if it has one.
fn backend(sim: &mut Simulation) -> Option<&mut Backend> {
    sim.server.as_mut()?.downcast_mut::<Backend>()
}

fn admit(sim: &mut Simulation, a: Attempt, now: SimTime) {
    let Some(server) = backend(sim) else { return };
    let job = Job { id: a.id, sent: a.at, queued: now };
    let timeout = server.config().client_timeout;
    match server.arrive(now, job) {
        Admitted::Started(done) => sim.push(done, Ev::Served(job)),
        Admitted::Queued => {}
        Admitted::Shed => {
            sim.retry_or_give_up(a, None, now);
            return;
        }
    }
    // The client waits up to its timeout, inclusive: an answer at exactly that instant is in
    // time (goodput), so it stops waiting one nanosecond later.
    if let Some(t) = timeout {
        sim.push((a.at + t).max(now) + crate::sim::time::Nanos(1), Ev::GaveUp(a));
    }
}

fn give_up(sim: &mut Simulation, now: SimTime, a: Attempt) {
    if backend(sim).is_some_and(|s| s.give_up(a.id)) {
        sim.retry_or_give_up(a, None, now);
    }
}

fn finish(sim: &mut Simulation, now: SimTime, job: Job) {
    let Some(server) = backend(sim) else { return };
    if let Some((next, done)) = server.finish(now, job) {
        sim.push(done, Ev::Served(next));
    }
}
