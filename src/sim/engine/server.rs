//! The server behind the limiter in the engine ([`crate::sim::server`]), the clients' retry
//! budget and breaker, and a spike of traffic: what the scenario puts behind and around its
//! limiter ([`Behind`]). A request the limiter admits is handed to the server when its node has
//! decided, and each one a worker finishes is an event. Its answers feed back: a 503 (the
//! waiting room full) is a refusal the client retries as its `retry` policy says (without a
//! Retry-After, so after one backoff base), and a client whose `client_timeout` passes before
//! the answer (even while the limiter still holds its request in its queue) stops waiting and
//! retries the same way, while the server, which does not know, still finishes the first attempt. Every refusal goes through the clients' [`RetryGate`]
//! first, every answer in time tells it so; a spike's requests arrive as events of their own.
//!
//! The engine reaches this code only through [`OPS`], which [`Capabilities::with_server`] hands
//! in: a module whose capabilities leave it out (the first modules run one limiter with nothing
//! behind it) links none of it, and refuses a scenario that sets `workers` or another of these
//! keys instead of running it.
//!
//! [`Capabilities::with_server`]: crate::sim::engine::capabilities::Capabilities::with_server

use super::events::{Attempt, Ev};
use super::Simulation;
use crate::sim::rng::SimRng;
use crate::sim::scenario::{Scenario, StoreMode};
use crate::sim::server::{Admitted, Backend, Job, RetryGate, ServerConfig, Spike};
use crate::sim::time::{Nanos, SimTime};
use std::any::Any;

/// The sub-stream of the server's generator a spike draws its arrivals from.
const SPIKE_STREAM: u64 = 0x5914E;

/// What a scenario puts behind and around its limiter: each part only if its keys ask for it.
pub struct Behind {
    /// The server the limiter protects.
    pub backend: Option<Backend>,
    /// The clients' retry budget and breaker.
    pub gate: Option<RetryGate>,
    spike: Option<Spike>,
}

/// The operations of what stands behind and around a limiter: what
/// [`Capabilities::with_server`] gives an engine.
///
/// [`Capabilities::with_server`]: crate::sim::engine::capabilities::Capabilities::with_server
pub struct Ops {
    make: fn(&Scenario, SimRng) -> Option<Box<dyn Any>>,
    start: fn(&mut Simulation),
    hold: fn(&mut Simulation, Attempt, SimTime),
    admit: fn(&mut Simulation, Attempt, SimTime),
    finish: fn(&mut Simulation, SimTime, Job),
    give_up: fn(&mut Simulation, SimTime, Attempt, bool),
    failed: fn(&mut Simulation, SimTime, bool) -> bool,
    spike: fn(&mut Simulation, SimTime),
}

/// The operations of what stands behind and around a limiter.
pub static OPS: Ops = Ops { make: make_behind, start, hold, admit, finish, give_up, failed: gate_failed, spike };

/// Runs `op` of the simulation's server operations, or gives `or` where its capabilities have
/// none: a run whose scenario needs none ([`Capabilities::check`] refused any other), whose
/// operations would all find nothing behind the limiter and do just that.
///
/// [`Capabilities::check`]: crate::sim::engine::capabilities::Capabilities::check
macro_rules! call {
    ($sim:expr, $op:ident, $or:expr, $($arg:expr),*) => {
        match $sim.caps.behind() {
            Some(ops) => (ops.$op)($($arg),*),
            None => $or,
        }
    };
}

/// What `sc` puts behind and around its limiter, if anything (nothing in a module without it).
pub(super) fn make(sc: &Scenario, ops: Option<&Ops>, rng: SimRng) -> Option<Box<dyn Any>> {
    match ops {
        Some(ops) => (ops.make)(sc, rng),
        None => None,
    }
}

/// The run has just been made: a spike's first request is scheduled.
pub(super) fn started(sim: &mut Simulation) {
    call!(sim, start, (), sim)
}

/// The limiter admitted `a` and holds it in its queue until `until` (the leaky bucket, nginx
/// without `nodelay`): if its client's timeout passes first, the client gives up then.
pub(super) fn held(sim: &mut Simulation, a: Attempt, until: SimTime) {
    call!(sim, hold, (), sim, a, until)
}

/// The limiter admitted `a`, and its node answered at `now`: the server takes it (without a
/// server, that is the client's success).
pub(super) fn admitted(sim: &mut Simulation, a: Attempt, now: SimTime) {
    call!(sim, admit, (), sim, a, now)
}

/// A worker finished `job` at `now`.
pub(super) fn finished(sim: &mut Simulation, now: SimTime, job: Job) {
    call!(sim, finish, (), sim, now, job)
}

/// The client of attempt `a` stops waiting at `now`; `held`: its request is still in the
/// limiter's queue.
pub(super) fn gave_up(sim: &mut Simulation, now: SimTime, a: Attempt, held: bool) {
    call!(sim, give_up, (), sim, now, a, held)
}

/// An attempt failed at `now` (a 429, a 503, a timeout): whether the clients' gate lets the
/// retry their policy `wants` through.
pub(super) fn failed(sim: &mut Simulation, now: SimTime, wants: bool) -> bool {
    call!(sim, failed, wants, sim, now, wants)
}

/// A spike's request arrives at `now`.
pub(super) fn spiked(sim: &mut Simulation, now: SimTime) {
    call!(sim, spike, (), sim, now)
}

fn make_behind(sc: &Scenario, rng: SimRng) -> Option<Box<dyn Any>> {
    let backend = ServerConfig::of(&sc.product).map(|cfg| Backend::new(cfg, rng.clone(), sc.bucket));
    let spike = Spike::of(&sc.product, rng.clone().fork(SPIKE_STREAM));
    let gate = RetryGate::of(&sc.product);
    (backend.is_some() || gate.is_some() || spike.is_some())
        .then(|| Box::new(Behind { backend, gate, spike }) as Box<dyn Any>)
}

/// What the run puts behind and around its limiter, if anything.
fn behind(sim: &mut Simulation) -> Option<&mut Behind> {
    sim.server.as_mut()?.downcast_mut::<Behind>()
}

/// The run's server, if it has one.
fn backend(sim: &mut Simulation) -> Option<&mut Backend> {
    behind(sim)?.backend.as_mut()
}

fn start(sim: &mut Simulation) {
    schedule_spike(sim);
}

/// A spike's request arrives at `now`: it is sent, and the next one scheduled; none at or past
/// the horizon (the first was scheduled before the run had one).
fn spike(sim: &mut Simulation, now: SimTime) {
    if sim.horizon.is_none_or(|h| now < h) {
        sim.arrive(now, 0);
        schedule_spike(sim);
    }
}

/// Schedules the spike's next request, if one is left before its end and the horizon.
fn schedule_spike(sim: &mut Simulation) {
    let next = behind(sim).and_then(|b| b.spike.as_mut()?.next_arrival());
    if let Some(at) = next.filter(|&at| sim.horizon.is_none_or(|h| at < h)) {
        sim.push(at, Ev::Spike);
    }
}

fn succeeded(sim: &mut Simulation, now: SimTime) {
    if let Some(gate) = behind(sim).and_then(|b| b.gate.as_mut()) {
        gate.succeeded(now);
    }
}

fn gate_failed(sim: &mut Simulation, now: SimTime, wants: bool) -> bool {
    let t = &sim.metrics.totals;
    let new_requests = t.requests - t.retries;
    behind(sim).and_then(|b| b.gate.as_mut()).map_or(wants, |g| g.failed(now, new_requests, wants))
}

fn hold(sim: &mut Simulation, a: Attempt, until: SimTime) {
    // The client waits up to its timeout, inclusive (as in `admit`): past it, it leaves the queue.
    let timeout = backend(sim).and_then(|s| s.config().client_timeout);
    if let Some(t) = timeout.filter(|&t| until > a.at + t) {
        sim.push(a.at + t + Nanos(1), Ev::GaveUp(a, true));
    }
}

fn admit(sim: &mut Simulation, a: Attempt, now: SimTime) {
    let local = sim.sc.store == StoreMode::Local;
    let Some(server) = backend(sim) else { return succeeded(sim, now) };
    let job = Job { id: a.id, sent: a.at, queued: now };
    // Answered on its own node past its client's timeout, it was held in the limiter's queue,
    // and its client gave up there (and has retried): the server still takes it, for nobody,
    // and no client waits for its answer.
    let timeout = server.config().client_timeout;
    let abandoned = local && timeout.is_some_and(|t| now > a.at + t);
    match server.arrive(now, job) {
        Admitted::Started(done) => sim.push(done, Ev::Served(job)),
        Admitted::Queued => {}
        Admitted::Shed => {
            if !abandoned {
                sim.retry_or_give_up(a, None, now);
            }
            return;
        }
    }
    // The client waits up to its timeout, inclusive: an answer at exactly that instant is in
    // time (goodput), so it stops waiting one nanosecond later.
    if let Some(t) = timeout.filter(|_| !abandoned) {
        sim.push((a.at + t).max(now) + Nanos(1), Ev::GaveUp(a, false));
    }
}

fn give_up(sim: &mut Simulation, now: SimTime, a: Attempt, held: bool) {
    if backend(sim).is_some_and(|s| s.give_up(a.id, held)) {
        sim.retry_or_give_up(a, None, now);
    }
}

fn finish(sim: &mut Simulation, now: SimTime, job: Job) {
    let Some(server) = backend(sim) else { return };
    let in_time = server.in_time(now, &job);
    if let Some((next, done)) = server.finish(now, job) {
        sim.push(done, Ev::Served(next));
    }
    if in_time {
        succeeded(sim, now);
    }
}
