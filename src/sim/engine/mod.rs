//! [`Simulation`]: the discrete-event loop that drives arrivals, nodes, the store and clients.
//!
//! Events are ordered by `(time, sequence)`, so ties resolve the same way on every run. The only
//! randomness is the run's [`SimRng`], seeded from the scenario and forked per purpose.

use crate::sim::cluster::{LoadBalancer, Node};
use crate::sim::decision::DecisionRecord;
use crate::sim::limiter::{AnyLimiter, Limiter};
use crate::sim::metrics::Metrics;
use crate::sim::peak::WindowPeak;
use crate::sim::queue::EventQueue;
use crate::sim::retry::Retry;
use crate::sim::rng::SimRng;
use crate::sim::samples::StateSamples;
use crate::sim::scenario::{Scenario, StoreMode};
use crate::sim::store::Store;
use crate::sim::time::{Nanos, SimTime};
use crate::sim::traffic::Arrivals;

mod build;
pub mod capabilities;
mod events;
mod kong_sync;
mod local;
mod readouts;
mod requests;
pub mod server;
pub mod shared;

pub use capabilities::{Capabilities, Lacking};
use events::{Ev, Last};

/// Series buckets kept by default: one hour of one-second buckets.
pub const DEFAULT_HISTORY: usize = 3_600;

/// A running simulation of one scenario.
pub struct Simulation {
    sc: Scenario,
    now: SimTime,
    horizon: Option<SimTime>,
    arrivals: Arrivals,
    next_arrival: Option<u64>,
    queue: EventQueue<Ev>,
    next_id: u64,
    lb: LoadBalancer,
    nodes: Vec<Node>,
    store: Store,
    reference: AnyLimiter,
    retry: Retry,
    retry_rng: SimRng,
    up: Nanos,
    down: Nanos,
    metrics: Metrics,
    last: Option<Last>,
    events: u64,
    peak: WindowPeak,
    samples: Option<StateSamples>,
    /// When the next state sample is due (`u64::MAX` without samples): one comparison per event.
    sample_due: u64,
    /// One node with its own limiter: it decides exactly as the reference would.
    alone: bool,
    /// Every decision, when asked for ([`record_decisions`](Self::record_decisions)).
    decisions: Option<Vec<DecisionRecord>>,
    /// The limiter may hold admitted requests (nginx without `nodelay`): no fast path.
    delays: bool,
    /// What a shared-store mode keeps beside the store, made at the first request: Kong's Redis
    /// and its nodes' tables with store = sync ([`kong_sync::KongSync`]; the store's and the
    /// nodes' limiters picture its counts), else the store's replica if it has one
    /// ([`crate::sim::replica::Replica`]). Behind `Any` so that a module without the shared
    /// store, which never makes one, carries none of its code.
    extra: Option<Box<dyn std::any::Any>>,
    /// What the scenario puts behind and around its limiter, if anything ([`server`]): a
    /// [`server::Behind`] behind `Any`, as Kong's, so a module without it carries none of its
    /// code (not even the code that drops it).
    server: Option<Box<dyn std::any::Any>>,
    /// The parts of the engine this run may use; checked against the scenario when made.
    caps: Capabilities,
}

impl Simulation {
    /// A simulation of a (validated) scenario at t = 0 with every part of the engine
    /// ([`Capabilities::ALL`]), keeping [`DEFAULT_HISTORY`] buckets.
    pub fn new(sc: &Scenario) -> Self {
        Self::with_history(sc, DEFAULT_HISTORY)
    }

    /// A simulation with every part of the engine ([`Capabilities::ALL`]), keeping `buckets`.
    pub fn with_history(sc: &Scenario, buckets: usize) -> Self {
        Self::try_new(sc, Capabilities::ALL, buckets).expect("every capability")
    }

    /// A simulation of a (validated) scenario at t = 0 keeping `buckets` series buckets, run with
    /// `caps`; refused when the scenario needs a part of the engine `caps` lack.
    pub fn try_new(sc: &Scenario, caps: Capabilities, buckets: usize) -> Result<Self, Lacking> {
        caps.check(sc)?;
        let mut rng = SimRng::new(sc.seed);
        let mut arrivals = Arrivals::new(sc, &mut rng);
        let next_arrival = arrivals.next();
        let limiter = build::limiter(sc, &caps)?;
        let delays = limiter.may_delay();
        let n = (sc.nodes.clamp(1, super::metrics::MAX_NODES as u32)) as usize;
        let up = Nanos(sc.rtt.as_nanos() / 2);
        let mut sim = Simulation {
            now: SimTime::ZERO,
            horizon: None,
            arrivals,
            next_arrival,
            queue: EventQueue::default(),
            next_id: 0,
            lb: LoadBalancer::new(sc, rng.fork(3)),
            nodes: (0..n).map(|_| Node::new(limiter.clone())).collect(),
            store: Store::new(limiter.clone()),
            reference: limiter,
            retry: Retry::new(sc),
            retry_rng: rng.fork(4),
            up,
            down: Nanos(sc.rtt.as_nanos() - up.as_nanos()),
            metrics: Metrics::new(sc.bucket, buckets),
            last: None,
            events: 0,
            peak: WindowPeak::new(sc.effective_window()),
            samples: None,
            sample_due: u64::MAX,
            alone: n == 1 && sc.store == StoreMode::Local,
            decisions: None,
            delays,
            extra: None,
            server: server::make(sc, caps.behind(), rng.fork(5)),
            caps,
            sc: sc.clone(),
        };
        if sim.server.is_some() {
            server::started(&mut sim);
        }
        Ok(sim)
    }

    /// The parts of the engine this simulation was given.
    pub fn capabilities(&self) -> Capabilities {
        self.caps
    }

    /// Stops sending requests (new or retried) at `horizon`; those in flight still complete.
    pub fn set_horizon(&mut self, horizon: SimTime) {
        self.horizon = Some(horizon);
    }

    /// Samples the limiter's inner state every `every` of simulated time from now on, keeping
    /// the newest `capacity` samples (see [`StateSamples`]).
    pub fn sample_state(&mut self, every: Nanos, capacity: usize) {
        let mut samples = StateSamples::new(every, capacity);
        samples.skip_to(self.now.as_nanos());
        self.sample_due = samples.due();
        self.samples = Some(samples);
    }

    /// Keeps every decision from now on, in the order they are made ([`decisions`](Self::decisions)).
    /// Memory grows with the run: for batch runs of bounded size. The runs are unchanged: arrivals
    /// then take the one-event-at-a-time path, which `tests/fast_path.rs` pins to the fast one.
    pub fn record_decisions(&mut self) {
        self.decisions.get_or_insert_with(Vec::new);
    }

    /// The decisions kept since [`record_decisions`](Self::record_decisions), in decision order.
    pub fn decisions(&self) -> &[DecisionRecord] {
        self.decisions.as_deref().unwrap_or_default()
    }

    /// The inner-state samples, if [`sample_state`](Self::sample_state) was called.
    pub fn state_samples(&self) -> Option<&StateSamples> {
        self.samples.as_ref()
    }

    /// When the next event happens, if any is left before the horizon.
    fn next_event(&self) -> Option<(u64, bool)> {
        let heap = self.queue.next_time();
        let arrival = self.next_arrival.filter(|&a| self.horizon.is_none_or(|h| a < h.as_nanos()));
        match (heap, arrival) {
            // On a tie the scheduled event goes first: it was decided earlier.
            (Some(h), Some(a)) => Some(if h <= a { (h, true) } else { (a, false) }),
            (Some(h), None) => Some((h, true)),
            (None, Some(a)) => Some((a, false)),
            (None, None) => None,
        }
    }

    /// Takes the state samples due at or before `t`, while the state still reflects only the
    /// events before them.
    #[inline]
    fn sample_until(&mut self, t: u64) {
        if t >= self.sample_due {
            self.take_samples(t);
        }
    }

    #[inline(never)]
    fn take_samples(&mut self, t: u64) {
        let Some(mut samples) = self.samples.take() else { return };
        let span = samples.every().as_nanos().saturating_mul(samples.capacity() as u64);
        if t.saturating_sub(samples.due()) > span {
            samples.skip_to(t - span);
        }
        let authority = self.authority(0);
        while samples.due() <= t {
            samples.record(authority.gauge(SimTime(samples.due())));
        }
        self.sample_due = samples.due();
        self.samples = Some(samples);
    }

    /// When the next event (an arrival, a store operation, a reply, a retry) happens, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.next_event().map(|(at, _)| SimTime(at))
    }

    /// Runs the event `next_event` found at `at`.
    #[inline]
    fn run(&mut self, at: u64, scheduled: bool) {
        self.events += 1;
        if scheduled {
            let (at, ev) = self.queue.pop().expect("next_event saw it");
            self.handle(SimTime(at), ev);
        } else {
            self.next_arrival = self.arrivals.next();
            self.arrive(SimTime(at), 0);
        }
    }

    /// Runs the single next event, if any; returns its time. Simulated time moves to it.
    pub fn step_event(&mut self) -> Option<SimTime> {
        let (at, scheduled) = self.next_event()?;
        self.sample_until(at);
        self.run(at, scheduled);
        self.now = self.now.max(SimTime(at));
        Some(SimTime(at))
    }

    /// Runs every event up to and including `t`; simulated time is then `t`.
    pub fn step_until(&mut self, t: SimTime) {
        let limit = t.as_nanos();
        self.run_events(limit);
        if limit != u64::MAX {
            self.sample_until(limit);
        }
        self.now = self.now.max(t);
    }

    /// Runs until nothing is left to happen before the horizon (which must be set); simulated
    /// time is then that of the last event, as after as many [`step_event`](Self::step_event)s.
    pub fn run_to_end(&mut self) {
        if let Some(last) = self.run_events(u64::MAX) {
            self.now = self.now.max(SimTime(last));
        }
    }

    /// Runs every event at or before `limit`, with the state samples due before each; returns
    /// the time of the last one run.
    fn run_events(&mut self, limit: u64) -> Option<u64> {
        let mut last = None;
        while let Some((at, scheduled)) = self.next_event() {
            if at > limit {
                break;
            }
            self.sample_until(at);
            last = Some(if !scheduled && self.decides_locally() {
                self.run_local_arrivals(limit)
            } else {
                self.run(at, scheduled);
                at
            });
        }
        last
    }

    fn push(&mut self, at: SimTime, ev: Ev) {
        self.queue.push(at.as_nanos(), ev);
    }

    /// Whether an operation sent at `sent` reaches the store while it is down.
    fn lost(&self, sent: SimTime) -> bool {
        let at_store = sent + self.up;
        self.sc.outage.is_some_and(|o| o.start <= at_store && at_store < o.end)
    }

    /// Whether a store operation sent at `sent` is answered before the node's timeout.
    fn answered(&self, sent: SimTime) -> bool {
        self.sc.rtt <= self.sc.timeout && !self.lost(sent)
    }
}
