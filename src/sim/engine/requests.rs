//! One request's life in the engine: arrival at the load balancer, the store operations of its
//! node's mode, the decision, and the client's retry.

use super::events::{Attempt, Ev, Last};
use super::Simulation;
use crate::sim::decision::{DecisionRecord, Verdict};
use crate::sim::limiter::Limiter;
use crate::sim::metrics::EventKind;
use crate::sim::scenario::{RetryPolicy, StoreMode};
use crate::sim::time::{Nanos, SimTime};

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
                    // The leaky bucket's queue, nginx without nodelay: admitted now, served
                    // `delay` later (counted here, where the delay is exact: a verdict keeps ms).
                    self.count_arrival(at, retry);
                    self.metrics.totals.delayed += 1;
                    if self.server.is_some() {
                        super::server::held(self, a, at + delay);
                    }
                    self.push(at + delay, Ev::Delayed(a, v));
                }
            }
            // A shared store: only the modules that run several nodes have this code.
            _ => super::shared::arrive(self, a, at),
        }
    }

    pub(super) fn handle(&mut self, now: SimTime, ev: Ev) {
        match ev {
            Ev::Retry(a) => self.arrive(now, a.retry),
            Ev::Delayed(a, d) => self.decided(a, d, now, false),
            Ev::Served(job) => super::server::finished(self, now, job),
            Ev::GaveUp(a, held) => super::server::gave_up(self, now, a, held),
            Ev::Spike => super::server::spiked(self, now),
            ev => super::shared::handle(self, now, ev),
        }
    }

    /// Counts an arrival at `at` in its series bucket, for a request answered later.
    pub(super) fn count_arrival(&mut self, at: SimTime, retry: u32) {
        if let Some(b) = self.metrics.series.at(at) {
            b.requests += 1;
            b.retries += u64::from(retry > 0);
        }
    }

    /// The node answers the client at `now`: count it, and schedule the client's retry.
    /// `arrived_now`: the request also arrived at `now` and its arrival is counted here.
    pub(super) fn decided(&mut self, a: Attempt, d: Verdict, now: SimTime, arrived_now: bool) {
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
        if let Some(log) = &mut self.decisions {
            log.push(DecisionRecord { arrived: a.at, decided: now, node: a.node, retry: a.retry, verdict: d });
        }
        m.event(now, a.id, node, EventKind::Decided { allowed: d.allowed, latency, retry: a.retry > 0 });
        self.last = Some(Last { at: now, node, verdict: d, lazy: self.sc.store == StoreMode::Local });
        if !d.allowed {
            self.retry_or_give_up(a, d.retry_after, now);
        } else if self.server.is_some() {
            super::server::admitted(self, a, now);
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
    /// With a retry budget or breaker ([`super::server::failed`]), it may refuse the retry.
    pub(super) fn retry_or_give_up(&mut self, a: Attempt, retry_after: Option<Nanos>, now: SimTime) -> bool {
        let wait = self.retry.delay(a.retry, retry_after, &mut self.retry_rng);
        let wait = wait.filter(|&w| self.horizon.is_none_or(|h| now + w < h));
        let allowed = match self.server {
            Some(_) => super::server::failed(self, now, wait.is_some()),
            None => wait.is_some(),
        };
        match wait {
            Some(wait) if allowed => {
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
