//! The leaky bucket as a queue: admitted requests wait in line and leave at the drain rate; a
//! full queue refuses. (The leaky bucket as a *meter*, which refuses what would overflow and
//! holds nothing, is GCRA: [`super::Gcra`].)

use super::{Gauge, Gcra, Limiter};
use crate::sim::decision::{Quota, Status};
use crate::sim::rate::{Rate, TOKEN};
use crate::sim::time::{Nanos, SimTime};

/// A queue of at most `queue` waiting requests drained at `drain` per second, first in first
/// out: request i leaves at `dᵢ = max(aᵢ, dᵢ₋₁ + T)` with `T = 1 ÷ drain`, and is refused if
/// `queue` requests are already waiting when it arrives.
///
/// It is GCRA with a capacity of `queue + 1` kept as the next free departure time (the TAT): a
/// request arriving `x·T` before it has ⌈x⌉ − 1 requests ahead of it, is admitted iff `x ≤
/// queue`, and waits `x·T` (nothing if the line is empty). So it admits exactly the requests
/// a token bucket of capacity `queue + 1` admits, and nginx's `limit_req` without `nodelay` is
/// this queue with `burst = queue` (the requests it holds are the ones waiting here). Each
/// admitted request's wait is [`Limiter::admitted_delay`], exact to the nanosecond (rounded up).
///
/// ```
/// use ratelimit_playground::sim::{LeakyQueue, Limiter, Rate, SimTime};
/// let mut q = LeakyQueue::new(2, Rate::per_sec(4)); // two may wait; one leaves every 250 ms
/// let delays: Vec<_> = (0..4).map(|_| q.acquire(SimTime::ZERO).then(|| q.admitted_delay().as_nanos() / 1_000_000)).collect();
/// assert_eq!(delays, [Some(0), Some(250), Some(500), None]);
/// assert!(q.acquire(SimTime::from_nanos(250_000_000))); // one has left: room again, at the back
/// assert_eq!(q.admitted_delay().as_nanos(), 500_000_000);
/// ```
#[derive(Clone, Debug)]
pub struct LeakyQueue {
    meter: Gcra,
    held: Nanos,
}

impl LeakyQueue {
    /// An empty queue where `queue` requests may wait, drained at `drain` per second.
    pub fn new(queue: u64, drain: Rate) -> Self {
        LeakyQueue { meter: Gcra::new(queue.saturating_add(1), drain), held: Nanos::ZERO }
    }
}

crate::sim::limiter::model!(LeakyQueue);

impl Limiter for LeakyQueue {
    fn acquire(&mut self, now: SimTime) -> bool {
        let ahead = self.meter.ahead(now);
        let admitted = self.meter.acquire(now);
        if admitted {
            self.held = self.meter.nanos(ahead);
        }
        admitted
    }

    fn consume(&mut self, now: SimTime) {
        self.meter.consume(now);
    }

    /// `remaining`: the requests that would be admitted now (the places left in the line, and
    /// the one that would leave at once if it is empty).
    fn status(&self, now: SimTime) -> Status {
        self.meter.status(now)
    }

    /// The queue's fill: the requests waiting (admitted, not yet left). At the queue's size, a
    /// request arriving is refused.
    fn gauge(&self, now: SimTime) -> Gauge {
        let intervals = (self.meter.ahead(now) as u128).div_ceil(TOKEN);
        Gauge { level: intervals.saturating_sub(1) as f64, ..Gauge::default() }
    }

    fn quota(&self) -> Quota {
        self.meter.quota()
    }

    fn admitted_delay(&self) -> Nanos {
        self.held
    }

    fn may_delay(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at_ms(ms: u64) -> SimTime {
        SimTime::from_nanos(ms * 1_000_000)
    }

    #[test]
    fn requests_leave_one_drain_interval_apart_in_arrival_order() {
        let mut q = LeakyQueue::new(10, Rate::per_sec(10));
        let mut departures = Vec::new();
        for ms in [0, 10, 20, 30, 250, 260] {
            assert!(q.acquire(at_ms(ms)));
            departures.push(ms + q.admitted_delay().as_nanos() / 1_000_000);
        }
        assert_eq!(departures, [0, 100, 200, 300, 400, 500]);
    }

    #[test]
    fn a_full_queue_refuses_and_keeps_its_line() {
        let mut q = LeakyQueue::new(3, Rate::per_sec(1));
        let admitted = (0..6).filter(|_| q.acquire(SimTime::ZERO)).count();
        assert_eq!(admitted, 4, "one leaves at once, three wait");
        assert_eq!(q.gauge(SimTime::ZERO).level, 3.0);
        assert_eq!(q.gauge(at_ms(1)).level, 3.0, "the one leaving at once is gone; 3 s of queue left");
        assert_eq!(q.gauge(at_ms(1_000)).level, 2.0);
        assert_eq!(q.gauge(at_ms(2_500)).level, 1.0);
        assert!(!q.acquire(at_ms(999)), "still three waiting");
        assert!(q.acquire(at_ms(1_000)));
        assert_eq!(q.admitted_delay(), Nanos::from_millis(3_000));
    }

    #[test]
    fn an_idle_queue_serves_at_once() {
        let mut q = LeakyQueue::new(5, Rate::per_sec(2));
        for ms in [0, 500, 1_000, 5_000] {
            assert!(q.acquire(at_ms(ms)));
            assert_eq!(q.admitted_delay(), Nanos::ZERO, "at {ms} ms");
        }
    }

    #[test]
    fn it_admits_what_a_bucket_one_larger_admits() {
        let mut q = LeakyQueue::new(4, Rate::from_milli(3_500));
        let mut b = super::super::TokenBucket::new(5, Rate::from_milli(3_500));
        let mut t = 0u64;
        for i in 0..2_000u64 {
            t += (i * 7_919) % 400_000_000;
            assert_eq!(q.acquire(SimTime::from_nanos(t)), b.acquire(SimTime::from_nanos(t)), "request {i}");
        }
    }

    #[test]
    fn a_delay_is_rounded_up_to_the_nanosecond() {
        let mut q = LeakyQueue::new(1, Rate::per_sec(3)); // T = 333 333 333.3 ns
        assert!(q.acquire(SimTime::ZERO));
        assert!(q.acquire(SimTime::ZERO));
        assert_eq!(q.admitted_delay(), Nanos(333_333_334));
    }
}
