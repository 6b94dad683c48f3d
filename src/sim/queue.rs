//! The event queue: pending events ordered by `(time, sequence)`, so that events scheduled for
//! the same instant run in the order they were scheduled, identically on every run.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

struct Entry<E> {
    at: u64,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        (self.at, self.seq) == (o.at, o.seq)
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
        (o.at, o.seq).cmp(&(self.at, self.seq))
    }
}

/// A deterministic priority queue of events keyed by time in nanoseconds.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    seq: u64,
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        EventQueue { heap: BinaryHeap::new(), seq: 0 }
    }
}

impl<E> EventQueue<E> {
    /// Schedules `event` at `at`, after every event already scheduled for that instant.
    pub fn push(&mut self, at: u64, event: E) {
        self.seq += 1;
        self.heap.push(Entry { at, seq: self.seq, event });
    }

    /// When the earliest pending event happens.
    pub fn next_time(&self) -> Option<u64> {
        self.heap.peek().map(|e| e.at)
    }

    /// Removes the earliest pending event.
    pub fn pop(&mut self) -> Option<(u64, E)> {
        self.heap.pop().map(|e| (e.at, e.event))
    }

    /// Number of pending events.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// Whether nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_come_out_in_the_order_they_were_scheduled() {
        let mut q = EventQueue::default();
        for (at, name) in [(5, "a"), (1, "b"), (5, "c"), (1, "d"), (3, "e")] {
            q.push(at, name);
        }
        let order: Vec<&str> = std::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ["b", "d", "e", "a", "c"]);
    }
}
