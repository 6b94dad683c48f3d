//! What a run measured: totals, a bounded time-bucketed series, decision latencies and a ring of
//! recent events. Memory stays bounded however long the run.

use super::time::{Nanos, SimTime};
use std::collections::{BTreeMap, VecDeque};

/// Most nodes a cluster may have; per-node series are fixed arrays of this size.
pub const MAX_NODES: usize = 16;
/// Events kept for the UI to animate.
pub const EVENT_RING: usize = 512;

/// Cumulative counts since t = 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Requests that reached the load balancer, retries included.
    pub requests: u64,
    /// Of those, retries of a rejected request.
    pub retries: u64,
    /// Admitted requests.
    pub admitted: u64,
    /// Rejected requests (429).
    pub rejected: u64,
    /// Rejected requests whose client gave up (no retry left, or policy "give up").
    pub gave_up: u64,
    /// Decisions made after the store did not answer in time (fail open or closed).
    pub timeouts: u64,
    /// Updates overwritten by a racing SET (store = race).
    pub lost_updates: u64,
    /// What one exact limiter of the same algorithm admits on the same arrivals.
    pub reference_admitted: u64,
    /// When the first request was rejected.
    pub first_rejection: Option<SimTime>,
    /// Admitted requests the limiter held before serving them (nginx without `nodelay`).
    pub delayed: u64,
}

impl Totals {
    /// Admitted beyond what one exact limiter would have admitted (negative: fewer).
    pub fn over_admitted(&self) -> i64 {
        self.admitted as i64 - self.reference_admitted as i64
    }

    /// Admitted ÷ decided, or 1 before any decision.
    pub fn pass_ratio(&self) -> f64 {
        let decided = self.admitted + self.rejected;
        if decided == 0 {
            1.0
        } else {
            self.admitted as f64 / decided as f64
        }
    }
}

/// One time bucket of the series, `[start, start + width)` of decision times.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Bucket {
    /// Start of the bucket.
    pub start: SimTime,
    /// Requests that arrived (retries included).
    pub requests: u64,
    /// Admitted.
    pub admitted: u64,
    /// Rejected.
    pub rejected: u64,
    /// Arrivals that were retries.
    pub retries: u64,
    /// The limiter's headline level at the bucket's first decision (tokens, count, estimate).
    pub level: f64,
    /// Admitted per node.
    pub node_admitted: [u32; MAX_NODES],
}

/// A bounded ring of buckets of equal width.
#[derive(Clone, Debug)]
pub struct Series {
    width: u64,
    capacity: usize,
    first: u64,
    buckets: VecDeque<Bucket>,
}

impl Series {
    /// An empty series of `capacity` buckets of `width` each (both at least 1).
    pub fn new(width: Nanos, capacity: usize) -> Self {
        Series { width: width.as_nanos().max(1), capacity: capacity.max(1), first: 0, buckets: VecDeque::new() }
    }

    /// The bucket holding `t`, created if needed; `None` if it already left the ring.
    #[inline(always)]
    pub fn at(&mut self, t: SimTime) -> Option<&mut Bucket> {
        // Fast path: the newest bucket, where nearly every event lands.
        if self.buckets.back().is_some_and(|b| t.as_nanos().wrapping_sub(b.start.as_nanos()) < self.width) {
            return self.buckets.back_mut();
        }
        self.slow_at(t)
    }

    fn slow_at(&mut self, t: SimTime) -> Option<&mut Bucket> {
        let index = t.as_nanos() / self.width;
        if index < self.first {
            return None;
        }
        let end = self.first + self.buckets.len() as u64;
        if index >= end + self.capacity as u64 {
            // A jump past the whole ring: start afresh.
            self.buckets.clear();
            self.first = index + 1 - self.capacity as u64;
        }
        while self.first + (self.buckets.len() as u64) <= index {
            let start = SimTime((self.first + self.buckets.len() as u64) * self.width);
            self.buckets.push_back(Bucket { start, ..Bucket::default() });
        }
        while self.buckets.len() > self.capacity {
            self.buckets.pop_front();
            self.first += 1;
        }
        let i = (index - self.first) as usize;
        self.buckets.get_mut(i)
    }

    /// The buckets, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Bucket> {
        self.buckets.iter()
    }

    /// Bucket width.
    pub fn width(&self) -> Nanos {
        Nanos(self.width)
    }
}

/// Decision latencies (arrival at the node to answer), exact, in a histogram keyed by value:
/// a run has few distinct latencies (0, one or two round trips, a timeout), so memory is tiny.
#[derive(Clone, Debug, Default)]
pub struct Latencies {
    counts: BTreeMap<u64, u64>,
    /// The most recent latency and its count not yet folded into `counts`: runs of equal
    /// latencies (the common case) cost one comparison each.
    run: (u64, u64),
    total: u64,
}

impl Latencies {
    /// Records one decision's latency.
    #[inline(always)]
    pub fn record(&mut self, latency: Nanos) {
        // Quantise to 1 µs beyond 1 ms so pathological inputs cannot grow the map without bound.
        let ns = latency.as_nanos();
        let key = if ns > 1_000_000 { ns - ns % 1_000 } else { ns };
        self.total += 1;
        if self.run.0 == key || self.run.1 == 0 {
            self.run = (key, self.run.1 + 1);
        } else {
            *self.counts.entry(self.run.0).or_insert(0) += self.run.1;
            self.run = (key, 1);
        }
    }

    /// Records `n` decisions of the same latency: the same as `n` calls of [`record`](Self::record).
    pub fn record_many(&mut self, latency: Nanos, n: u64) {
        if n > 0 {
            self.record(latency);
            self.run.1 += n - 1;
            self.total += n - 1;
        }
    }

    /// The `p`-th percentile (0–100, nearest rank), or zero with no samples.
    pub fn percentile(&self, p: f64) -> Nanos {
        if self.total == 0 {
            return Nanos::ZERO;
        }
        let rank = ((p / 100.0 * self.total as f64).ceil() as u64).clamp(1, self.total);
        let mut counts = self.counts.clone();
        if self.run.1 > 0 {
            *counts.entry(self.run.0).or_insert(0) += self.run.1;
        }
        let mut seen = 0;
        for (&ns, &n) in &counts {
            seen += n;
            if seen >= rank {
                return Nanos(ns);
            }
        }
        Nanos(*counts.keys().next_back().unwrap_or(&0))
    }

    /// Number of decisions recorded.
    pub fn count(&self) -> u64 {
        self.total
    }
}

/// What happened, for the UI's request strip, topology and swimlane.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A request reached the load balancer and was sent to `node`.
    Arrived {
        /// Whether it is a retry of a rejected request.
        retry: bool,
    },
    /// A GET reached the store (store = race); `version` is what it read.
    Get {
        /// The store's write counter at the read.
        version: u64,
    },
    /// A SET reached the store (store = race).
    Set {
        /// It overwrote a write it had not read: a lost update.
        lost_update: bool,
    },
    /// The atomic script ran at the store (store = atomic).
    Script {
        /// What it decided.
        allowed: bool,
    },
    /// An increment reached the store (store = async).
    Increment,
    /// A store operation got no answer in time (outage or timeout shorter than the round trip).
    TimedOut,
    /// The node answered the client.
    Decided {
        /// 200 or 429.
        allowed: bool,
        /// Arrival at the node to answer.
        latency: Nanos,
        /// Whether this was a retry.
        retry: bool,
    },
}

/// One recorded event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Event {
    /// When it happened.
    pub at: SimTime,
    /// The request (attempt) it belongs to.
    pub request: u64,
    /// The node involved.
    pub node: u8,
    /// What happened.
    pub kind: EventKind,
}

/// All measurements of a run.
#[derive(Clone, Debug)]
pub struct Metrics {
    /// Cumulative counts.
    pub totals: Totals,
    /// Width of one series bucket.
    pub bucket_width: Nanos,
    /// The time series.
    pub series: Series,
    /// Decision latencies.
    pub latency: Latencies,
    /// Admitted per node, cumulative.
    pub node_admitted: [u64; MAX_NODES],
    events: EventRing,
}

/// A fixed ring of the newest [`EVENT_RING`] events: recording one is a single store.
#[derive(Clone, Debug)]
struct EventRing {
    slots: Box<[Event; EVENT_RING]>,
    /// Events recorded so far (the newest is at `(written - 1) % EVENT_RING`).
    written: u64,
}

impl EventRing {
    fn new() -> Self {
        let empty = Event { at: SimTime::ZERO, request: 0, node: 0, kind: EventKind::TimedOut };
        EventRing { slots: Box::new([empty; EVENT_RING]), written: 0 }
    }

    #[inline]
    fn push(&mut self, e: Event) {
        self.slots[(self.written % EVENT_RING as u64) as usize] = e;
        self.written += 1;
    }

    fn iter(&self) -> impl Iterator<Item = &Event> {
        let len = self.written.min(EVENT_RING as u64);
        (self.written - len..self.written).map(|i| &self.slots[(i % EVENT_RING as u64) as usize])
    }
}

impl Metrics {
    /// Empty metrics with `capacity` buckets of `width`.
    pub fn new(width: Nanos, capacity: usize) -> Self {
        Metrics {
            totals: Totals::default(),
            bucket_width: Nanos(width.as_nanos().max(1)),
            series: Series::new(width, capacity),
            latency: Latencies::default(),
            node_admitted: [0; MAX_NODES],
            events: EventRing::new(),
        }
    }

    /// The series buckets, oldest first.
    pub fn buckets(&self) -> impl Iterator<Item = &Bucket> {
        self.series.iter()
    }

    /// The most recent events, oldest first (at most [`EVENT_RING`]).
    pub fn events(&self) -> impl Iterator<Item = &Event> {
        self.events.iter()
    }

    #[inline]
    pub(crate) fn event(&mut self, at: SimTime, request: u64, node: usize, kind: EventKind) {
        self.events.push(Event { at, request, node: node as u8, kind });
    }
}
