//! [`Backend`]: the server the limiter protects, as a queue in front of `workers` identical
//! workers. A request the limiter admits starts at once on a free worker, else waits (first in,
//! first out, or newest first), else — the waiting room full — is answered 503. A worker that
//! finishes takes the next waiting request. Clients may give up (`client_timeout`); the server
//! does not know, so it finishes their requests anyway: wasted work.
//!
//! Pure and exact like the rest of the engine: integer nanoseconds, service times drawn from
//! the run's seeded generator ([`super::service`]), so a run is the same natively and in the
//! browser.

use super::histogram::LogHistogram;
use super::service::ServiceDist;
use crate::sim::rng::SimRng;
use crate::sim::time::{Nanos, SimTime};
use std::collections::{BTreeMap, VecDeque};

/// Series buckets kept: a live run keeps the newest (a batch run's series is shorter).
const MAX_BUCKETS: usize = 100_000;

/// The server as the query keys set it ([`super::ServerConfig::of`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ServerConfig {
    /// Requests worked on at once.
    pub workers: u32,
    /// Mean service time.
    pub service: Nanos,
    /// Their spread.
    pub dist: ServiceDist,
    /// Requests that may wait.
    pub queue: u64,
    /// A freed worker takes the newest waiting request, not the oldest.
    pub lifo: bool,
    /// When clients give up, if they do.
    pub client_timeout: Option<Nanos>,
}

/// One admitted request at the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Job {
    /// The request's id in the run.
    pub id: u64,
    /// When its client sent it (it reached the load balancer).
    pub sent: SimTime,
    /// When it reached the server.
    pub queued: SimTime,
}

/// What the server does with a request it is handed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admitted {
    /// A worker took it; it is done then.
    Started(SimTime),
    /// It waits for a worker.
    Queued,
    /// The waiting room is full: 503.
    Shed,
}

/// What the server did over a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServerStats {
    /// Workers.
    pub workers: u32,
    /// Requests handed to it (the limiter admitted them).
    pub arrived: u64,
    /// Answered 503, the waiting room full.
    pub shed: u64,
    /// Finished.
    pub served: u64,
    /// Finished within the client's timeout (all finished ones, without one).
    pub goodput: u64,
    /// Finished after their client had given up.
    pub wasted: u64,
    /// Time from reaching the server to a worker taking it, of every request a worker took.
    pub wait: LogHistogram,
    /// Time from the client sending it to the server finishing it, of every finished request.
    pub latency: LogHistogram,
    /// Requests waiting, integrated over time (ns): ÷ the elapsed time, the mean queue.
    pub queue_area: u128,
    /// Busy workers, integrated over time (ns).
    pub busy_area: u128,
    /// The most requests waiting at once.
    pub max_queue: u64,
    /// The last instant the server's state changed.
    pub end: SimTime,
    /// Clients that gave up waiting (their requests still in the server or the limiter's queue).
    pub timed_out: u64,
    /// Per series bucket, what happened in it: bucket `series_first + i` (its start ÷ width)
    /// at `i`, the newest [`MAX_BUCKETS`] of them.
    pub series: VecDeque<ServerBucket>,
    /// The index of `series`' first bucket.
    pub series_first: u64,
    /// The latencies of those finished in the newest bucket so far.
    pub open: LogHistogram,
}

/// What the server did in one series bucket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ServerBucket {
    /// Finished in it.
    pub served: u64,
    /// Of those, within their client's timeout.
    pub goodput: u64,
    /// Of those, after their client gave up.
    pub wasted: u64,
    /// Answered 503 in it.
    pub shed: u64,
    /// The latencies of those finished in it, summed (ns).
    pub latency_sum: u128,
    /// Their median and 99th percentile (ns, as [`LogHistogram::percentile`]), once the bucket
    /// is over; the newest bucket's are [`ServerStats::latency_quantiles`]'.
    pub latency_p50: u64,
    /// See `latency_p50`.
    pub latency_p99: u64,
    /// The most requests waiting at once in it.
    pub queue_max: u64,
}

impl ServerStats {
    /// What happened in series bucket `index` (its start ÷ the width), if it is kept.
    pub fn bucket(&self, index: u64) -> Option<&ServerBucket> {
        self.series.get(usize::try_from(index.checked_sub(self.series_first)?).ok()?)
    }

    /// The median and 99th percentile latency of the requests finished in bucket `index`, if it
    /// is kept: (0, 0) with none.
    pub fn latency_quantiles(&self, index: u64) -> Option<(Nanos, Nanos)> {
        let b = self.bucket(index)?;
        if index + 1 == self.series_first + self.series.len() as u64 {
            return Some((self.open.percentile(50.0), self.open.percentile(99.0)));
        }
        Some((Nanos(b.latency_p50), Nanos(b.latency_p99)))
    }

    /// The mean number of requests waiting over `elapsed`.
    pub fn queue_mean(&self, elapsed: Nanos) -> f64 {
        self.queue_area as f64 / elapsed.as_nanos().max(1) as f64
    }

    /// The share of the workers' time spent working over `elapsed`.
    pub fn utilization(&self, elapsed: Nanos) -> f64 {
        self.busy_area as f64 / (u128::from(self.workers.max(1)) * u128::from(elapsed.as_nanos().max(1))) as f64
    }
}

/// The server's state.
#[derive(Clone, Debug)]
pub struct Backend {
    cfg: ServerConfig,
    busy: u32,
    waiting: VecDeque<Job>,
    /// The requests in the server (waiting or in service), by id: a client's timeout only
    /// matters for these. (A map to nothing, of the type `Latencies` uses: one BTreeMap's code.)
    inside: BTreeMap<u64, u64>,
    rng: SimRng,
    stats: ServerStats,
    /// The series bucket width, ns.
    width: u64,
}

impl Backend {
    /// An idle server drawing its service times from `rng`, counting per series bucket of
    /// `width`.
    pub fn new(cfg: ServerConfig, rng: SimRng, width: Nanos) -> Self {
        let stats = ServerStats { workers: cfg.workers, ..ServerStats::default() };
        let width = width.as_nanos().max(1);
        Backend { cfg, busy: 0, waiting: VecDeque::new(), inside: BTreeMap::new(), rng, stats, width }
    }

    /// The configuration it runs.
    pub fn config(&self) -> &ServerConfig {
        &self.cfg
    }

    /// The series bucket of `now` (events come in time order), the oldest dropped past
    /// [`MAX_BUCKETS`].
    fn bucket(&mut self, now: SimTime) -> &mut ServerBucket {
        let (index, s) = (now.as_nanos() / self.width, &mut self.stats);
        if s.series.is_empty() {
            s.series_first = index;
        }
        // A bucket is over: its latencies' quantiles are kept. Until now nothing happened, so
        // each new bucket starts with the requests waiting as they are.
        if s.series_first + (s.series.len() as u64) <= index {
            if let Some(last) = s.series.back_mut() {
                (last.latency_p50, last.latency_p99) = (s.open.percentile(50.0).0, s.open.percentile(99.0).0);
                s.open = LogHistogram::default();
            }
        }
        while s.series_first + (s.series.len() as u64) <= index {
            s.series.push_back(ServerBucket { queue_max: self.waiting.len() as u64, ..ServerBucket::default() });
        }
        while s.series.len() > MAX_BUCKETS {
            s.series.pop_front();
            s.series_first += 1;
        }
        let i = index.saturating_sub(s.series_first) as usize;
        &mut s.series[i]
    }

    /// The client of request `id` gives up: whether the request was still in the server or,
    /// `held`, in the limiter's queue on its way here (then its client will want it again; the
    /// server still finishes it).
    pub fn give_up(&mut self, id: u64, held: bool) -> bool {
        let inside = held || self.inside.contains_key(&id);
        self.stats.timed_out += u64::from(inside);
        inside
    }

    /// What it did so far.
    pub fn stats(&self) -> &ServerStats {
        &self.stats
    }

    /// Requests waiting and workers busy now.
    pub fn load(&self) -> (usize, u32) {
        (self.waiting.len(), self.busy)
    }

    /// Adds the time since the last change to the integrals.
    fn advance(&mut self, now: SimTime) {
        let dt = u128::from(now.since(self.stats.end).as_nanos());
        self.stats.queue_area += self.waiting.len() as u128 * dt;
        self.stats.busy_area += u128::from(self.busy) * dt;
        self.stats.end = self.stats.end.max(now);
    }

    /// The server is handed `job` at `now`.
    pub fn arrive(&mut self, now: SimTime, job: Job) -> Admitted {
        self.advance(now);
        self.stats.arrived += 1;
        if self.busy < self.cfg.workers {
            self.busy += 1;
            self.inside.insert(job.id, 0);
            self.stats.wait.record(Nanos::ZERO);
            return Admitted::Started(now + self.service_time());
        }
        if (self.waiting.len() as u64) < self.cfg.queue {
            self.inside.insert(job.id, 0);
            // The bucket first: buckets it opens start with the queue as it was until now.
            self.bucket(now);
            self.waiting.push_back(job);
            let waiting = self.waiting.len() as u64;
            self.stats.max_queue = self.stats.max_queue.max(waiting);
            let b = self.bucket(now);
            b.queue_max = b.queue_max.max(waiting);
            return Admitted::Queued;
        }
        self.stats.shed += 1;
        self.bucket(now).shed += 1;
        Admitted::Shed
    }

    /// Whether `job`, finished at `now`, is answered within its client's timeout (every one
    /// is, without a timeout).
    pub fn in_time(&self, now: SimTime, job: &Job) -> bool {
        self.cfg.client_timeout.is_none_or(|t| now.since(job.sent) <= t)
    }

    /// A worker finished `job` at `now`: it is counted, and the worker takes the next waiting
    /// request, if any: that one and when it will be done.
    pub fn finish(&mut self, now: SimTime, job: Job) -> Option<(Job, SimTime)> {
        self.advance(now);
        let latency = now.since(job.sent);
        self.inside.remove(&job.id);
        self.stats.served += 1;
        self.stats.latency.record(latency);
        let late = !self.in_time(now, &job);
        self.stats.wasted += u64::from(late);
        self.stats.goodput += u64::from(!late);
        let b = self.bucket(now);
        b.served += 1;
        b.wasted += u64::from(late);
        b.goodput += u64::from(!late);
        b.latency_sum += u128::from(latency.as_nanos());
        self.stats.open.record(latency);
        let next = if self.cfg.lifo { self.waiting.pop_back() } else { self.waiting.pop_front() };
        match next {
            Some(j) => {
                self.stats.wait.record(now.since(j.queued));
                Some((j, now + self.service_time()))
            }
            None => {
                self.busy -= 1;
                None
            }
        }
    }

    /// One request's service time.
    fn service_time(&mut self) -> Nanos {
        self.cfg.dist.draw(&mut self.rng, self.cfg.service)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(workers: u32, queue: u64, lifo: bool) -> Backend {
        let cfg = ServerConfig {
            workers,
            service: Nanos::from_millis(10),
            dist: ServiceDist::Const,
            queue,
            lifo,
            client_timeout: Some(Nanos::from_millis(25)),
        };
        Backend::new(cfg, SimRng::new(1), Nanos::from_secs(1))
    }

    fn job(id: u64, ms: u64) -> Job {
        Job { id, sent: SimTime(ms * 1_000_000), queued: SimTime(ms * 1_000_000) }
    }

    #[test]
    fn a_full_waiting_room_sheds_and_a_freed_worker_takes_the_oldest_or_the_newest() {
        for (lifo, next) in [(false, 1), (true, 2)] {
            let mut s = server(1, 2, lifo);
            assert_eq!(s.arrive(SimTime(0), job(0, 0)), Admitted::Started(SimTime(10_000_000)));
            assert_eq!(s.arrive(SimTime(1_000_000), job(1, 1)), Admitted::Queued);
            assert_eq!(s.arrive(SimTime(2_000_000), job(2, 2)), Admitted::Queued);
            assert_eq!(s.arrive(SimTime(3_000_000), job(3, 3)), Admitted::Shed);
            let (taken, done) = s.finish(SimTime(10_000_000), job(0, 0)).unwrap();
            assert_eq!((taken.id, done), (next, SimTime(20_000_000)));
        }
    }

    #[test]
    fn a_request_finished_after_its_client_gave_up_is_wasted_and_little_s_law_holds() {
        let mut s = server(1, 10, false);
        let mut pending = vec![];
        for id in 0..4 {
            if let Admitted::Started(done) = s.arrive(SimTime(0), job(id, 0)) {
                pending.push((done, job(id, 0)));
            }
        }
        while let Some((done, j)) = pending.pop() {
            if let Some((next, at)) = s.finish(done, j) {
                pending.push((at, next));
            }
        }
        let st = s.stats();
        // Done at 10, 20, 30 and 40 ms; the client waits 25 ms.
        assert_eq!((st.served, st.goodput, st.wasted), (4, 2, 2));
        // Waits of 0, 10, 20 and 30 ms: the queue's area is their sum.
        assert_eq!(st.wait.sum(), 60_000_000);
        assert_eq!(st.queue_area, st.wait.sum());
        assert_eq!(st.utilization(Nanos::from_millis(40)), 1.0);
    }
}
