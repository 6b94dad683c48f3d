//! The event queue: pending events ordered by `(time, sequence)`, so that events scheduled for
//! the same instant run in the order they were scheduled, identically on every run.
//!
//! Most events are scheduled a fixed delay after the one being handled (each half of a store
//! round trip, a timeout), so events of one delay are pushed already in order. Such runs go
//! into a few FIFO lanes, at O(1) a push or pop; only events that fit no lane go into a binary
//! heap. A pop takes the earliest of the lanes' heads and the heap's top, so the order is exactly
//! a single heap's. With 16 nodes on an atomic store, a heap alone spent about 45 % of the run
//! moving entries.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};

/// FIFO lanes: enough for the delays one run mixes (there, back, a timeout, a retry's backoff).
const LANES: usize = 4;

struct Entry<E> {
    at: u64,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    fn key(&self) -> (u64, u64) {
        (self.at, self.seq)
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.key() == o.key()
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    // Reversed: BinaryHeap is a max-heap and the earliest event must come out first.
    fn cmp(&self, o: &Self) -> Ordering {
        o.key().cmp(&self.key())
    }
}

/// A deterministic priority queue of events keyed by time in nanoseconds.
pub struct EventQueue<E> {
    /// Each lane is in `(time, sequence)` order: a push goes to a lane only after its last entry.
    lanes: [VecDeque<Entry<E>>; LANES],
    heap: BinaryHeap<Entry<E>>,
    seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { lanes: Default::default(), heap: BinaryHeap::new(), seq: 0 }
    }
}

impl<E> EventQueue<E> {
    /// Schedules `event` at `at`, after every event already scheduled for that instant.
    pub fn push(&mut self, at: u64, event: E) {
        self.seq += 1;
        let entry = Entry { at, seq: self.seq, event };
        // The lane whose last entry is the latest not after `at` (keeping each delay's run in a
        // lane of its own), else an empty lane, else the heap. Sequences only grow, so `at` alone
        // decides whether the entry may follow a lane's last.
        let mut fit: Option<(usize, u64)> = None;
        let mut empty = None;
        for (i, lane) in self.lanes.iter().enumerate() {
            match lane.back() {
                Some(last) if last.at <= at && fit.is_none_or(|(_, best)| last.at >= best) => fit = Some((i, last.at)),
                None if empty.is_none() => empty = Some(i),
                _ => {}
            }
        }
        match fit.map(|(i, _)| i).or(empty) {
            Some(i) => self.lanes[i].push_back(entry),
            None => self.heap.push(entry),
        }
    }

    /// Where the earliest pending event is: a lane's index, or [`LANES`] for the heap.
    fn earliest(&self) -> Option<(usize, u64)> {
        let mut best = self.heap.peek().map(|e| (LANES, e.key()));
        for (i, lane) in self.lanes.iter().enumerate() {
            if let Some(head) = lane.front() {
                if best.is_none_or(|(_, key)| head.key() < key) {
                    best = Some((i, head.key()));
                }
            }
        }
        best.map(|(i, (at, _))| (i, at))
    }

    /// When the earliest pending event happens.
    pub fn next_time(&self) -> Option<u64> {
        self.earliest().map(|(_, at)| at)
    }

    /// Removes the earliest pending event.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        let (i, _) = self.earliest()?;
        let entry = if i == LANES { self.heap.pop() } else { self.lanes[i].pop_front() }?;
        Some((entry.at, entry.event))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len() + self.lanes.iter().map(VecDeque::len).sum::<usize>()
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty() && self.lanes.iter().all(VecDeque::is_empty)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn ties_come_out_in_the_order_they_were_scheduled() {
        let mut q = EventQueue::default();
        for (at, name) in [(5, "a"), (1, "b"), (5, "c"), (1, "d"), (3, "e")] {
            q.push(at, name);
        }
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["b", "d", "e", "a", "c"]);
    }

    #[test]
    fn more_delays_than_lanes_spill_into_the_heap_in_order() {
        let mut q = EventQueue::default();
        // Six interleaved runs, each in order on its own: two of them cannot have a lane.
        for step in 0..50u64 {
            for delay in [60, 10, 50, 20, 40, 30] {
                q.push(step * 7 + delay, (step, delay));
            }
        }
        assert!(!q.heap.is_empty(), "the test must reach the heap");
        let mut last = (0, 0);
        while let Some((at, (step, delay))) = q.pop() {
            assert_eq!(at, step * 7 + delay);
            assert!(at >= last.0, "{at} after {}", last.0);
            last = (at, step);
        }
        assert!(q.is_empty());
    }

    proptest! {
        /// The same order as one binary heap of `(time, sequence)`, pushes and pops interleaved
        /// as a run does: events scheduled at or after the last one popped.
        #[test]
        fn pops_in_the_order_of_a_single_heap(ops in proptest::collection::vec((0u64..6, 0u64..400, any::<bool>()), 0..600)) {
            let mut q = EventQueue::default();
            let mut reference = BinaryHeap::new();
            let (mut now, mut seq) = (0u64, 0u64);
            for (delay_class, jitter, pop) in ops {
                if pop {
                    let got = q.pop();
                    let want = reference.pop().map(|std::cmp::Reverse((at, s))| (at, (at, s)));
                    prop_assert_eq!(got, want);
                    if let Some((at, _)) = want {
                        now = at;
                    }
                } else {
                    // Mostly fixed delays (in order per class), some arbitrary ones.
                    let at = now + if delay_class < 4 { delay_class * 100 } else { jitter };
                    seq += 1;
                    q.push(at, (at, seq));
                    reference.push(std::cmp::Reverse((at, seq)));
                }
                prop_assert_eq!(q.len(), reference.len());
                prop_assert_eq!(q.next_time(), reference.peek().map(|r| r.0 .0));
            }
        }
    }
}
