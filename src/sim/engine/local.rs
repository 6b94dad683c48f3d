//! The fast path for nodes that decide on their own (store = local), which is what a
//! fast-forward of the single-node playground runs: a stretch of arrivals with nothing else
//! scheduled between them is decided in one loop that keeps the current series bucket's counts,
//! the zero latencies and the last answer in locals and writes them once per bucket or stretch.
//!
//! It makes exactly the decisions, counts, events, retries and samples that
//! [`Simulation::arrive`] and `decided` make one event at a time: `tests/fast_path.rs` compares
//! the two on every algorithm, retry policy, balancer and traffic shape.

use super::events::{Attempt, Last};
use super::Simulation;
use crate::sim::decision::Verdict;
use crate::sim::limiter::Limiter;
use crate::sim::metrics::{EventKind, Series, MAX_NODES};
use crate::sim::scenario::{RetryPolicy, StoreMode};
use crate::sim::time::{Nanos, SimTime};

/// Counts for one series bucket not yet added to it.
#[derive(Default)]
struct Pending {
    /// Start of the bucket they belong to, if it is in the ring.
    bucket: Option<u64>,
    requests: u64,
    admitted: u64,
    rejected: u64,
    node_admitted: [u32; MAX_NODES],
}

impl Simulation {
    /// Whether arrivals may take [`run_local_arrivals`](Self::run_local_arrivals).
    pub(super) fn decides_locally(&self) -> bool {
        self.sc.store == StoreMode::Local && self.decisions.is_none() && !self.delays && self.server.is_none()
    }

    /// Runs the next arrival, which must be the next event, at or before `limit`, with the state
    /// samples due up to it taken; then every following arrival that is also the next event, is
    /// at or before `limit`, needs no state sample first and comes before the horizon. Returns
    /// the time of the last arrival run.
    pub(super) fn run_local_arrivals(&mut self, limit: u64) -> u64 {
        let width = self.metrics.bucket_width.as_nanos();
        let gives_up = self.sc.retry == RetryPolicy::GiveUp;
        let mut stop = self.arrival_stop(limit);
        let mut pending = Pending::default();
        let mut decided = 0u64;
        let mut last = None;
        let mut first = true;
        let mut ran = 0;
        while let Some(at) = self.next_arrival.filter(|&a| first || stop.is_some_and(|s| a <= s)) {
            first = false;
            ran = at;
            self.next_arrival = self.arrivals.next();
            self.events += 1;
            let now = SimTime(at);
            let node = self.lb.pick();
            let id = self.next_id;
            self.next_id += 1;
            let t = &mut self.metrics.totals;
            t.requests += 1;
            if !self.alone && self.reference.acquire(now) {
                t.reference_admitted += 1;
            }
            self.metrics.event(now, id, node, EventKind::Arrived { retry: false });

            let limiter = &mut self.nodes[node].limiter;
            let allowed = limiter.acquire(now);
            let retry_after = (!allowed && !gives_up).then(|| limiter.wait(now));
            if pending.bucket.is_none_or(|start| at - start >= width) {
                pending.add_to(&mut self.metrics.series);
                pending = Pending::default();
                if let Some(b) = self.metrics.series.at(now) {
                    if b.admitted + b.rejected == 0 {
                        b.level = self.nodes[node].limiter.gauge(now).level;
                    }
                    pending.bucket = Some(b.start.as_nanos());
                }
            }
            // (Counts of a bucket no longer in the ring go nowhere: `add_to` drops them.)
            pending.requests += 1;
            if allowed {
                pending.admitted += 1;
                pending.node_admitted[node] += 1;
            } else {
                pending.rejected += 1;
            }
            self.count_decision(node, allowed, now);
            decided += 1;
            self.metrics.event(now, id, node, EventKind::Decided { allowed, latency: Nanos::ZERO, retry: false });
            last = Some(Last { at: now, node, verdict: Verdict::new(allowed, retry_after), lazy: true });
            if allowed {
                continue;
            }
            if gives_up {
                // `Retry::delay` is `None` for this policy whatever else it is told.
                self.metrics.totals.gave_up += 1;
            } else if self.retry_or_give_up(Attempt { id, at: now, retry: 0, node: node as u32 }, retry_after, now) {
                // The retry may now be the next event.
                stop = self.arrival_stop(limit);
            }
        }
        pending.add_to(&mut self.metrics.series);
        self.metrics.latency.record_many(Nanos::ZERO, decided);
        if last.is_some() {
            self.last = last;
        }
        ran
    }

    /// The last instant an arrival may have and still be the next event with nothing to do
    /// before it: before the next scheduled event (which wins a tie), the next state sample and
    /// the horizon, and at or before `limit`. `None` if no instant qualifies.
    fn arrival_stop(&self, limit: u64) -> Option<u64> {
        let before = [
            self.queue.next_time(),
            (self.samples.is_some()).then_some(self.sample_due),
            self.horizon.map(SimTime::as_nanos),
        ];
        before.into_iter().flatten().try_fold(limit, |stop, end| end.checked_sub(1).map(|e| stop.min(e)))
    }
}

impl Pending {
    /// Adds the counts to their bucket.
    fn add_to(&self, series: &mut Series) {
        let Some(b) = self.bucket.and_then(|start| series.at(SimTime(start))) else { return };
        b.requests += self.requests;
        b.admitted += self.admitted;
        b.rejected += self.rejected;
        for (total, &n) in b.node_admitted.iter_mut().zip(&self.node_admitted) {
            *total += n;
        }
    }
}
