//! One request's life in the engine: arrival at the load balancer, the store operations of its
//! node's mode, the decision, and the client's retry.

use super::Simulation;
use crate::sim::decision::{DecisionRecord, Verdict};
use crate::sim::limiter::{AnyLimiter, Limiter};
use crate::sim::metrics::EventKind;
use crate::sim::scenario::{FailMode, RetryPolicy, StoreMode};
use crate::sim::store::Snapshot;
use crate::sim::time::{Nanos, SimTime};

/// One attempt of a request: a new arrival or a retry.
#[derive(Clone, Copy, Debug)]
pub(super) struct Attempt {
    pub(super) id: u64,
    /// When it reached the load balancer (and its node: the LB adds no delay).
    pub(super) at: SimTime,
    /// 0 for a new request, k for its k-th retry.
    pub(super) retry: u32,
    pub(super) node: u32,
}

/// The most recent decision, kept cheaply; the full [`Decision`] is built when asked for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Last {
    pub(super) at: SimTime,
    pub(super) node: usize,
    pub(super) verdict: Verdict,
    /// A local decision whose Retry-After was skipped (no client retries): it can be computed
    /// later from the node's limiter, which nothing has changed since.
    pub(super) lazy: bool,
}

#[derive(Debug)]
pub(super) enum Ev {
    Retry(Attempt),
    Get(Attempt),
    GetReply(Attempt, Box<Snapshot>),
    Set(Attempt, Box<AnyLimiter>, u64, Verdict),
    SetAck(Attempt, Verdict),
    Script(Attempt),
    ScriptReply(Attempt, Verdict),
    Increment {
        node: usize,
        seq: u64,
        at: SimTime,
    },
    IncrementReply {
        node: usize,
        seq: u64,
        state: Box<AnyLimiter>,
    },
    Timeout(Attempt),
    /// An admitted request the limiter holds until now (nginx without `nodelay`).
    Delayed(Attempt, Verdict),
}

impl Simulation {
    pub(super) fn arrive(&mut self, at: SimTime, retry: u32) {
        let node = self.lb.pick();
        let a = Attempt { id: self.next_id, at, retry, node: node as u32 };
        self.next_id += 1;
        let t = &mut self.metrics.totals;
        t.requests += 1;
        t.retries += u64::from(retry > 0);
        // One node deciding alone *is* the exact reference: count it once, at its decision.
        if !self.alone && self.reference.acquire(at) {
            t.reference_admitted += 1;
        }
        // Local and edge nodes decide at arrival: `decided` counts the arrival in the same bucket.
        let decides_now = matches!(self.sc.store, StoreMode::Local | StoreMode::Async);
        if !decides_now {
            self.count_arrival(at, retry);
        }
        self.metrics.event(at, a.id, node, EventKind::Arrived { retry: retry > 0 });
        match self.sc.store {
            StoreMode::Local => {
                // Retry-After costs a division; compute it only if a client will use it now.
                let limiter = &mut self.nodes[node].limiter;
                let allowed = limiter.acquire(at);
                let wanted = self.sc.retry != RetryPolicy::GiveUp || self.decisions.is_some();
                let retry_after = (!allowed && wanted).then(|| limiter.wait(at));
                let delay = if allowed { limiter.admitted_delay() } else { Nanos::ZERO };
                let v = Verdict::held(allowed, retry_after, delay);
                if delay == Nanos::ZERO {
                    self.decided(a, v, at, true);
                } else {
                    // nginx without nodelay: admitted now, served `delay` later.
                    self.count_arrival(at, retry);
                    self.push(at + delay, Ev::Delayed(a, v));
                }
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
                self.decided(a, v, at, true);
            }
        }
    }

    pub(super) fn handle(&mut self, now: SimTime, ev: Ev) {
        match ev {
            Ev::Retry(a) => self.arrive(now, a.retry),
            Ev::Script(a) => {
                let d = self.store.script(a.at);
                self.metrics.event(now, a.id, a.node as usize, EventKind::Script { allowed: d.allowed });
                self.push(now + self.down, Ev::ScriptReply(a, d));
            }
            Ev::ScriptReply(a, d) | Ev::SetAck(a, d) | Ev::Delayed(a, d) => self.decided(a, d, now, false),
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
                    self.decided(a, d, now, false);
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
                let v = Verdict::new(self.sc.fail == FailMode::Open, None);
                self.decided(a, v, now, false);
            }
        }
    }

    /// Counts an arrival at `at` in its series bucket, for a request answered later.
    fn count_arrival(&mut self, at: SimTime, retry: u32) {
        if let Some(b) = self.metrics.series.at(at) {
            b.requests += 1;
            b.retries += u64::from(retry > 0);
        }
    }

    /// The node answers the client at `now`: count it, and schedule the client's retry.
    /// `arrived_now`: the request also arrived at `now` and its arrival is counted here.
    fn decided(&mut self, a: Attempt, d: Verdict, now: SimTime, arrived_now: bool) {
        let node = a.node as usize;
        let latency = now.since(a.at);
        self.count_decision(node, d.allowed, now);
        let m = &mut self.metrics;
        if let Some(b) = m.series.at(now) {
            if arrived_now {
                b.requests += 1;
                b.retries += u64::from(a.retry > 0);
            }
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
        m.totals.delayed += u64::from(d.delay_ms > 0);
        if let Some(log) = &mut self.decisions {
            log.push(DecisionRecord { arrived: a.at, decided: now, node: a.node, retry: a.retry, verdict: d });
        }
        m.event(now, a.id, node, EventKind::Decided { allowed: d.allowed, latency, retry: a.retry > 0 });
        self.last = Some(Last { at: now, node, verdict: d, lazy: self.sc.store == StoreMode::Local });
        if !d.allowed {
            self.retry_or_give_up(a, d.retry_after, now);
        }
    }

    /// Counts a decision at `now` by `node` in the run's totals and the window peak.
    #[inline(always)]
    pub(super) fn count_decision(&mut self, node: usize, allowed: bool, now: SimTime) {
        let m = &mut self.metrics;
        if allowed {
            m.totals.admitted += 1;
            m.totals.reference_admitted += u64::from(self.alone);
            m.node_admitted[node] += 1;
            self.peak.admitted(now);
        } else {
            m.totals.rejected += 1;
            m.totals.first_rejection.get_or_insert(now);
        }
    }

    /// The client of attempt `a`, refused at `now`, retries when its policy says (if that is
    /// before the horizon) or gives up. Returns whether a retry was scheduled.
    pub(super) fn retry_or_give_up(&mut self, a: Attempt, retry_after: Option<Nanos>, now: SimTime) -> bool {
        match self.retry.delay(a.retry, retry_after, &mut self.retry_rng) {
            Some(wait) if self.horizon.is_none_or(|h| now + wait < h) => {
                self.push(now + wait, Ev::Retry(Attempt { retry: a.retry + 1, ..a }));
                true
            }
            _ => {
                self.metrics.totals.gave_up += 1;
                false
            }
        }
    }
}
