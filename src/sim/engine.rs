//! [`Simulation`]: the discrete-event loop that drives arrivals, nodes, the store and clients.
//!
//! Events are ordered by `(time, sequence)`, so ties resolve the same way on every run. The only
//! randomness is the run's [`SimRng`], seeded from the scenario and forked per purpose.

use super::cluster::{LoadBalancer, Node};
use super::decision::{Decision, Verdict};
use super::limiter::{AnyLimiter, Gauge, Limiter};
use super::metrics::{EventKind, Metrics};
use super::retry::Retry;
use super::rng::SimRng;
use super::scenario::{FailMode, Scenario, StoreMode};
use super::store::{Snapshot, Store};
use super::time::{Nanos, SimTime};
use super::traffic::Arrivals;
use std::cmp::Ordering;
use std::collections::BinaryHeap;

/// Series buckets kept by default: one hour of one-second buckets.
pub const DEFAULT_HISTORY: usize = 3_600;

/// One attempt of a request: a new arrival or a retry.
#[derive(Clone, Copy, Debug)]
struct Attempt {
    id: u64,
    /// When it reached the load balancer (and its node: the LB adds no delay).
    at: SimTime,
    /// 0 for a new request, k for its k-th retry.
    retry: u32,
    node: u32,
}

/// The most recent decision, kept cheaply; the full [`Decision`] is built when asked for.
#[derive(Clone, Copy, Debug)]
struct Last {
    at: SimTime,
    node: usize,
    verdict: Verdict,
}

#[derive(Debug)]
enum Ev {
    Retry(Attempt),
    Get(Attempt),
    GetReply(Attempt, Box<Snapshot>),
    Set(Attempt, Box<AnyLimiter>, u64, Verdict),
    SetAck(Attempt, Verdict),
    Script(Attempt),
    ScriptReply(Attempt, Verdict),
    Increment { node: usize, seq: u64, at: SimTime },
    IncrementReply { node: usize, seq: u64, state: Box<AnyLimiter> },
    Timeout(Attempt),
}

struct Entry {
    at: u64,
    seq: u64,
    ev: Ev,
}

impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    // Reversed: BinaryHeap is a max-heap and the earliest event must come out first.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.at, o.seq).cmp(&(self.at, self.seq))
    }
}

/// A running simulation of one scenario.
pub struct Simulation {
    sc: Scenario,
    now: SimTime,
    horizon: Option<SimTime>,
    arrivals: Arrivals,
    next_arrival: Option<u64>,
    queue: BinaryHeap<Entry>,
    seq: u64,
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
}

impl Simulation {
    /// A simulation of a (validated) scenario at t = 0, keeping [`DEFAULT_HISTORY`] buckets.
    pub fn new(sc: &Scenario) -> Self {
        Self::with_history(sc, DEFAULT_HISTORY)
    }

    /// A simulation keeping `buckets` series buckets.
    pub fn with_history(sc: &Scenario, buckets: usize) -> Self {
        let mut rng = SimRng::new(sc.seed);
        let mut arrivals = Arrivals::new(sc, &mut rng);
        let next_arrival = arrivals.next();
        let limiter = sc.limiter();
        let n = (sc.nodes.clamp(1, super::metrics::MAX_NODES as u32)) as usize;
        let up = Nanos(sc.rtt.as_nanos() / 2);
        Simulation {
            now: SimTime::ZERO,
            horizon: None,
            arrivals,
            next_arrival,
            queue: BinaryHeap::new(),
            seq: 0,
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
            sc: sc.clone(),
        }
    }

    /// Stops sending requests (new or retried) at `horizon`; those in flight still complete.
    pub fn set_horizon(&mut self, horizon: SimTime) {
        self.horizon = Some(horizon);
    }

    /// Runs every event up to and including `t`; simulated time is then `t`.
    pub fn step_until(&mut self, t: SimTime) {
        let limit = t.as_nanos();
        loop {
            let heap = self.queue.peek().map(|e| e.at);
            let arrival = self.next_arrival.filter(|&a| self.horizon.is_none_or(|h| a < h.as_nanos()));
            match (heap, arrival) {
                (Some(h), a) if h <= limit && a.is_none_or(|a| h <= a) => {
                    let Entry { at, ev, .. } = self.queue.pop().expect("peeked");
                    self.events += 1;
                    self.handle(SimTime(at), ev);
                }
                (_, Some(a)) if a <= limit => {
                    self.next_arrival = self.arrivals.next();
                    self.events += 1;
                    self.arrive(SimTime(a), 0);
                }
                _ => break,
            }
        }
        self.now = self.now.max(t);
    }

    /// Runs until nothing is left to happen before the horizon (which must be set).
    pub fn run_to_end(&mut self) {
        self.step_until(SimTime(u64::MAX));
    }

    /// Simulated time reached.
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.sc
    }

    /// Everything measured so far.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The answer to the most recent request decided, with the `remaining` and `reset` of the
    /// limiter that decided, as of that moment.
    pub fn last_decision(&self) -> Option<Decision> {
        self.last.map(|l| {
            let status = self.authority(l.node).status(l.at);
            Decision {
                allowed: l.verdict.allowed,
                remaining: status.remaining,
                reset: status.reset,
                retry_after: l.verdict.retry_after,
            }
        })
    }

    /// The limiter state that decides, at the current time: the store's, or node 0's when
    /// nothing is shared.
    pub fn gauge(&self) -> Gauge {
        self.authority(0).gauge(self.now)
    }

    /// Each node's own limiter (store = local) or view (store = async) at the current time.
    pub fn node_gauges(&self) -> Vec<Gauge> {
        self.nodes.iter().map(|n| n.limiter.gauge(self.now)).collect()
    }

    /// Events processed so far: arrivals, retries, store operations and replies.
    pub fn events_processed(&self) -> u64 {
        self.events
    }

    /// Arrivals produced so far by the traffic source (not counting retries).
    pub fn arrivals_produced(&self) -> u64 {
        self.arrivals.produced()
    }

    fn authority(&self, node: usize) -> &AnyLimiter {
        match self.sc.store {
            StoreMode::Local => &self.nodes[node].limiter,
            _ => self.store.state(),
        }
    }

    fn push(&mut self, at: SimTime, ev: Ev) {
        self.seq += 1;
        self.queue.push(Entry { at: at.as_nanos(), seq: self.seq, ev });
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

    fn arrive(&mut self, at: SimTime, retry: u32) {
        let node = self.lb.pick();
        let a = Attempt { id: self.next_id, at, retry, node: node as u32 };
        self.next_id += 1;
        let t = &mut self.metrics.totals;
        t.requests += 1;
        t.retries += u64::from(retry > 0);
        if self.reference.acquire(at) {
            t.reference_admitted += 1;
        }
        if let Some(b) = self.metrics.series.at(at) {
            b.requests += 1;
            b.retries += u64::from(retry > 0);
        }
        self.metrics.event(at, a.id, node, EventKind::Arrived { retry: retry > 0 });
        match self.sc.store {
            StoreMode::Local => {
                let v = self.nodes[node].limiter.check(at);
                self.decided(a, v, at);
            }
            StoreMode::Atomic | StoreMode::Race => {
                if self.answered(at) {
                    let ev = if self.sc.store == StoreMode::Atomic { Ev::Script(a) } else { Ev::Get(a) };
                    self.push(at + self.up, ev);
                } else {
                    self.push(at + self.sc.timeout, Ev::Timeout(a));
                }
            }
            StoreMode::Async => {
                let v = self.nodes[node].limiter.check(at);
                if v.allowed || self.sc.count_rejected {
                    let seq = self.nodes[node].sent_increment(at);
                    if !self.lost(at) {
                        self.push(at + self.up, Ev::Increment { node, seq, at });
                    }
                }
                self.decided(a, v, at);
            }
        }
    }

    fn handle(&mut self, now: SimTime, ev: Ev) {
        match ev {
            Ev::Retry(a) => self.arrive(now, a.retry),
            Ev::Script(a) => {
                let d = self.store.script(a.at);
                self.metrics.event(now, a.id, a.node as usize, EventKind::Script { allowed: d.allowed });
                self.push(now + self.down, Ev::ScriptReply(a, d));
            }
            Ev::ScriptReply(a, d) | Ev::SetAck(a, d) => self.decided(a, d, now),
            Ev::Get(a) => {
                let snap = self.store.get();
                self.metrics.event(now, a.id, a.node as usize, EventKind::Get { version: snap.version });
                self.push(now + self.down, Ev::GetReply(a, Box::new(snap)));
            }
            Ev::GetReply(a, snap) => {
                let Snapshot { mut state, version } = *snap;
                // The racy code: decide on the node from what was read, with the request's time.
                let d = state.check(a.at);
                if !(d.allowed || self.sc.count_rejected) {
                    self.decided(a, d, now);
                } else if self.answered(now) {
                    self.push(now + self.up, Ev::Set(a, Box::new(state), version, d));
                } else {
                    self.push(now + self.sc.timeout, Ev::Timeout(a));
                }
            }
            Ev::Set(a, state, version, d) => {
                let lost_update = self.store.set(*state, version);
                self.metrics.totals.lost_updates += u64::from(lost_update);
                self.metrics.event(now, a.id, a.node as usize, EventKind::Set { lost_update });
                self.push(now + self.down, Ev::SetAck(a, d));
            }
            Ev::Increment { node, seq, at } => {
                let state = self.store.increment(at);
                self.metrics.event(now, seq, node, EventKind::Increment);
                self.push(now + self.down, Ev::IncrementReply { node, seq, state: Box::new(state) });
            }
            Ev::IncrementReply { node, seq, state } => self.nodes[node].synced(seq, *state),
            Ev::Timeout(a) => {
                self.metrics.totals.timeouts += 1;
                self.metrics.event(now, a.id, a.node as usize, EventKind::TimedOut);
                let v = Verdict { allowed: self.sc.fail == FailMode::Open, retry_after: None };
                self.decided(a, v, now);
            }
        }
    }

    /// The node answers the client at `now`: count it, and schedule the client's retry.
    fn decided(&mut self, a: Attempt, d: Verdict, now: SimTime) {
        let node = a.node as usize;
        let latency = now.since(a.at);
        let m = &mut self.metrics;
        if d.allowed {
            m.totals.admitted += 1;
            m.node_admitted[node] += 1;
        } else {
            m.totals.rejected += 1;
        }
        if let Some(b) = m.series.at(now) {
            if b.admitted + b.rejected == 0 {
                // Sampled once per bucket: the gauge's float conversion is the costliest step here.
                b.level = match self.sc.store {
                    StoreMode::Local => self.nodes[node].limiter.gauge(now).level,
                    _ => self.store.state().gauge(now).level,
                };
            }
            if d.allowed {
                b.admitted += 1;
                b.node_admitted[node] += 1;
            } else {
                b.rejected += 1;
            }
        }
        m.latency.record(latency);
        m.event(now, a.id, node, EventKind::Decided { allowed: d.allowed, latency, retry: a.retry > 0 });
        self.last = Some(Last { at: now, node, verdict: d });
        if d.allowed {
            return;
        }
        match self.retry.delay(a.retry, d.retry_after, &mut self.retry_rng) {
            Some(wait) if self.horizon.is_none_or(|h| now + wait < h) => {
                self.push(now + wait, Ev::Retry(Attempt { retry: a.retry + 1, ..a }));
            }
            _ => self.metrics.totals.gave_up += 1,
        }
    }
}
