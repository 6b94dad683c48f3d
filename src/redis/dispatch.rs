//! [`Dispatcher`]: the arrivals and the clients' retries handed to the nodes in real time, the
//! nodes' answers collected, and the reference limiter that `over_admitted` counts against.
//!
//! The arrivals and the load balancer's picks come from the scenario's seeded RNG exactly as in
//! the engine (`Simulation::with_history`), so both sides see the same traffic; each request is
//! stamped with the clock when it is handed to its node, and one exact limiter fed those stamps
//! is the reference.

use super::clock::Clock;
use super::error::RunError;
use super::node::{Attempt, Msg, Report};
use super::report::{DecisionRow, Percentiles, Side};
use crate::sim::cluster::LoadBalancer;
use crate::sim::metrics::Latencies;
use crate::sim::traffic::Arrivals;
use crate::sim::{Limiter, Nanos, Retry, Scenario, SimRng, SimTime, StoreMode};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// Feeds the arrivals to the nodes in real time and collects their answers.
pub struct Dispatcher {
    clock: Clock,
    horizon: u64,
    arrivals: std::iter::Peekable<Arrivals>,
    lb: LoadBalancer,
    retry: Retry,
    retry_rng: SimRng,
    /// Retries due: `(when, attempt)`.
    due: BinaryHeap<Reverse<(u64, Attempt)>>,
    reference: crate::sim::AnyLimiter,
    next_id: u64,
    in_flight: u64,
    side: Side,
    latency: Latencies,
    lost_updates: u64,
    /// Reads of the replica that missed an acknowledged write.
    pub stale_reads: u64,
    /// When the replica is promoted (scenario ns), until it has been.
    failover: Option<u64>,
    /// With a failover: whether each attempt (by id) was admitted, to tell which lost writes
    /// counted a request.
    pub admitted_ids: Option<Vec<bool>>,
    keep: bool,
    /// Every decision, if kept.
    pub decisions: Vec<DecisionRow>,
}

impl Dispatcher {
    pub fn new(sc: &Scenario, clock: Clock, keep: bool) -> Dispatcher {
        // The same forks of the same RNG as the engine: the same arrivals and node picks.
        let mut rng = SimRng::new(sc.seed);
        let arrivals = Arrivals::new(sc, &mut rng).peekable();
        let lb = LoadBalancer::new(sc, rng.fork(3));
        Dispatcher {
            clock,
            horizon: sc.duration.as_nanos(),
            arrivals,
            lb,
            retry: Retry::new(sc),
            retry_rng: rng.fork(4),
            due: BinaryHeap::new(),
            reference: sc.limiter(),
            next_id: 0,
            in_flight: 0,
            side: Side::default(),
            latency: Latencies::default(),
            lost_updates: 0,
            stale_reads: 0,
            // One at or after the end never happens: nothing reaches the store then.
            failover: crate::sim::store_keys::failover(&sc.product)
                .map(|t| t.as_nanos())
                .filter(|&t| t < sc.duration.as_nanos()),
            admitted_ids: crate::sim::store_keys::failover(&sc.product).map(|_| Vec::new()),
            keep,
            decisions: Vec::new(),
        }
    }

    /// When the next request (new or retried) is to be sent, if any is left before the horizon.
    fn next_send(&mut self) -> Option<(u64, bool)> {
        let arrival = self.arrivals.peek().copied().filter(|&t| t < self.horizon);
        let retry = self.due.peek().map(|Reverse((t, _))| *t);
        match (arrival, retry) {
            (Some(a), Some(r)) => Some(if r <= a { (r, true) } else { (a, false) }),
            (Some(a), None) => Some((a, false)),
            (None, Some(r)) => Some((r, true)),
            (None, None) => None,
        }
    }

    /// Sends every request to its node at its time and collects the answers; at the failover
    /// (if the scenario has one), calls `promote` and tells every node to write to the replica.
    pub fn drive(
        &mut self,
        inboxes: &[Sender<Msg>],
        reports: &mpsc::Receiver<Report>,
        interrupted: &AtomicBool,
        promote: &mut dyn FnMut() -> Result<(), String>,
    ) -> Result<(), RunError> {
        let tick = Duration::from_millis(50);
        loop {
            if interrupted.load(Ordering::SeqCst) {
                return Err(RunError::Interrupted(format!("interrupted after {} requests", self.side.requests)));
            }
            if self.failover.is_some_and(|t| t <= self.clock.now()) {
                promote().map_err(RunError::Server)?;
                for inbox in inboxes {
                    let _ = inbox.send(Msg::Failover);
                }
                self.failover = None;
            }
            let next = self.next_send();
            if next.is_none() && self.in_flight == 0 {
                return Ok(());
            }
            let until = |t: u64| self.clock.instant(t).saturating_duration_since(Instant::now());
            let failover = self.failover.map_or(tick, until);
            let wait = next.map_or(tick, |(t, _)| until(t).min(tick)).min(failover);
            if !wait.is_zero() {
                match reports.recv_timeout(wait) {
                    Ok(r) => self.on_report(r)?,
                    Err(RecvTimeoutError::Timeout) => {}
                    Err(RecvTimeoutError::Disconnected) => return Err(RunError::Server("every node stopped".into())),
                }
                while let Ok(r) = reports.try_recv() {
                    self.on_report(r)?;
                }
                continue;
            }
            let (_, is_retry) = next.expect("a send is due");
            let retry = if is_retry {
                let Reverse((_, a)) = self.due.pop().expect("peeked");
                a.retry
            } else {
                self.arrivals.next();
                0
            };
            let at = self.clock.now();
            let node = self.lb.pick();
            let a = Attempt { id: self.next_id, at, retry, node: node as u32 };
            self.next_id += 1;
            self.side.requests += 1;
            self.side.retries += u64::from(retry > 0);
            self.side.reference_admitted += u64::from(self.reference.acquire(SimTime(at)));
            self.in_flight += 1;
            if inboxes[node].send(Msg::Arrive(a)).is_err() {
                return Err(RunError::Server(format!("node {node} stopped")));
            }
        }
    }

    fn on_report(&mut self, r: Report) -> Result<(), RunError> {
        match r {
            Report::Failed(e) => Err(RunError::Server(e)),
            Report::LostUpdate => {
                self.lost_updates += 1;
                Ok(())
            }
            Report::StaleRead => {
                self.stale_reads += 1;
                Ok(())
            }
            Report::Decided { a, at, verdict, timed_out } => {
                self.in_flight -= 1;
                let latency = at.saturating_sub(a.at);
                self.latency.record(Nanos(latency));
                self.side.timeouts += u64::from(timed_out);
                if let Some(ids) = &mut self.admitted_ids {
                    let i = a.id as usize;
                    if ids.len() <= i {
                        ids.resize(i + 1, false);
                    }
                    ids[i] = verdict.allowed;
                }
                if verdict.allowed {
                    self.side.admitted += 1;
                } else {
                    self.side.rejected += 1;
                    let wait = self.retry.delay(a.retry, verdict.retry_after, &mut self.retry_rng);
                    match wait {
                        Some(w) if at + w.as_nanos() < self.horizon => {
                            self.due.push(Reverse((at + w.as_nanos(), Attempt { retry: a.retry + 1, ..a })));
                        }
                        _ => self.side.gave_up += 1,
                    }
                }
                if self.keep {
                    self.decisions.push(DecisionRow {
                        at: a.at,
                        node: a.node,
                        allowed: verdict.allowed,
                        retry_after: verdict.retry_after.map(Nanos::as_nanos),
                        latency,
                        retry: a.retry,
                        timed_out,
                    });
                }
                Ok(())
            }
        }
    }

    pub fn side(&self, mode: StoreMode) -> Side {
        Side {
            over_admitted: self.side.admitted as i64 - self.side.reference_admitted as i64,
            lost_updates: (mode == StoreMode::Race).then_some(self.lost_updates),
            latency_ms: Percentiles::of(&self.latency),
            ..self.side.clone()
        }
    }
}
