//! Kong's `rate-limiting` plugin with `policy: redis`, the multi-node case (`store=sync`): read
//! from Kong's source (master, kong/plugins/rate-limiting/policies/init.lua and handler.lua).
//! Not run here, as the rest of `algo=kong`.
//!
//! Redis keeps one counter per calendar window (`ratelimit:…:<window start>:<period>`). A node:
//! - with `sync_rate = -1` (Kong's default; `sync_rate=0` here, as the link cannot hold −1):
//!   every request runs `INCR` and is decided on the count before it, so refused requests count;
//! - with `sync_rate` seconds: a request whose window the node has no cached usage for runs the
//!   same `INCR` and caches `usage = reply − 1` with `delta = −1` (the script's increment, to be
//!   taken back). Later requests decide on `usage + delta` alone, without Redis; an admitted one
//!   adds 1 to `delta` and, unless a sync is pending, starts one `sync_rate` seconds later. The
//!   sync sends every window's delta by `INCRBY` (waiting half the Redis timeout while an
//!   earlier sync runs) and, once Redis answers — or fails to —, empties the node's usage and
//!   deltas: increments admitted while the sync was on the wire are lost, and the next request
//!   reads Redis again.
//!
//! Two consequences the model keeps: after that first `INCR` the node's count leaves out the
//! request it admitted (`usage + delta` is the count *before* it), so each node admits one more
//! per sync round; and when that first request is refused, the `−1` lets the next one through.

use crate::sim::products::second_window::{PeriodLimit, SecondWindow};

/// Windows a node or Redis keeps counts for: the current one and the two before (a count for an
/// older window decides nothing any more).
const KEPT: usize = 3;

/// One window's counter, by the window's start in whole seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Count {
    start: u64,
    value: i64,
}

/// Counters by window, newest last, at most [`KEPT`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Counts(Vec<Count>);

impl Counts {
    fn get(&self, start: u64) -> Option<i64> {
        self.0.iter().find(|c| c.start == start).map(|c| c.value)
    }

    /// The counter of window `start`, made at `value` if absent, dropping the oldest beyond
    /// [`KEPT`]; `None` for a window older than every one kept (it decides nothing any more).
    fn entry(&mut self, start: u64, value: i64) -> Option<&mut i64> {
        if self.get(start).is_none() {
            if self.0.len() == KEPT && self.0.iter().all(|c| c.start > start) {
                return None;
            }
            self.0.push(Count { start, value });
            self.0.sort_unstable_by_key(|c| c.start);
            if self.0.len() > KEPT {
                self.0.remove(0);
            }
        }
        self.0.iter_mut().find(|c| c.start == start).map(|c| &mut c.value)
    }
}

/// The start (whole seconds) of the calendar window holding `t` (ns), on Kong's whole-second
/// clock: Redis's key for a request at `t`.
pub fn window_of(limit: &PeriodLimit, t: u64) -> u64 {
    SecondWindow::new(limit.period_s).count_at(t).1
}

/// Kong's `Retry-After` for a refusal at `t` (ns): whole seconds to the window's end, at least 1.
pub fn retry_after_s(limit: &PeriodLimit, t: u64) -> u64 {
    SecondWindow::new(limit.period_s).reset_s(t)
}

/// Redis's side: the counters the nodes `INCR` and `INCRBY`.
#[derive(Clone, Debug, Default)]
pub struct KongRedis {
    counts: Counts,
}

impl KongRedis {
    /// The usage script (`INCR`, `EXPIRE` on the first): the count before this increment.
    pub fn incr(&mut self, window: u64) -> i64 {
        self.counts.entry(window, 0).map_or(0, |c| {
            *c += 1;
            *c - 1
        })
    }

    /// The sync's pipeline: `INCRBY` each window's delta.
    pub fn incr_by(&mut self, deltas: &[(u64, i64)]) {
        for &(window, delta) in deltas {
            if let Some(c) = self.counts.entry(window, 0) {
                *c += delta;
            }
        }
    }

    /// The count of window `window` (0 if Redis has none).
    pub fn count(&self, window: u64) -> i64 {
        self.counts.get(window).unwrap_or(0)
    }

    /// The newest window's start and count, if Redis has any: what the state chart shows.
    pub fn newest(&self) -> Option<(u64, i64)> {
        self.counts.0.last().map(|c| (c.start, c.value))
    }
}

/// One Kong node's state (one nginx worker's: each keeps its own tables and timers).
#[derive(Clone, Debug, Default)]
pub struct KongNode {
    /// `cur_usage`: Redis's count as read, by window.
    usage: Counts,
    /// `cur_delta`: what the node has added since, by window.
    delta: Counts,
    /// A sync timer is pending (`plugin_sync_pending`).
    pub pending: bool,
    /// A sync is on the wire (`plugin_sync_running`).
    pub running: bool,
}

impl KongNode {
    /// The usage the node decides on for window `window`, if it has Redis's count cached.
    pub fn cached(&self, window: u64) -> Option<i64> {
        Some(self.usage.get(window)? + self.delta.get(window).unwrap_or(0))
    }

    /// Caches the reply to this node's `INCR`: the count before it, with the increment to be
    /// taken back.
    pub fn read(&mut self, window: u64, before: i64) {
        if let (Some(u), Some(d)) = (self.usage.entry(window, before), self.delta.entry(window, -1)) {
            (*u, *d) = (before, -1);
        }
    }

    /// Counts one admitted request in window `window` (`update_local_counters`). Returns whether
    /// a sync must be started (none is pending).
    pub fn admitted(&mut self, window: u64) -> bool {
        if let Some(d) = self.delta.entry(window, 0) {
            *d += 1;
        }
        !std::mem::replace(&mut self.pending, true)
    }

    /// The newest window the node has read Redis for, with the count it decides on there:
    /// what its bar shows.
    pub fn newest(&self) -> Option<(u64, i64)> {
        let start = self.usage.0.last()?.start;
        Some((start, self.cached(start)?))
    }

    /// The sync starts: the deltas it sends.
    pub fn start_sync(&mut self) -> Vec<(u64, i64)> {
        self.pending = false;
        self.running = true;
        self.delta.0.iter().map(|c| (c.start, c.value)).collect()
    }

    /// The sync ended, answered or not: the node forgets its usage and deltas
    /// (`clear_local_counter`).
    pub fn end_sync(&mut self) {
        self.running = false;
        self.usage.0.clear();
        self.delta.0.clear();
    }
}

/// Whether Kong admits at `usage` under `limit` (`remaining = limit − usage`, refused at ≤ 0).
pub fn admits(limit: &PeriodLimit, usage: i64) -> bool {
    usage < limit.limit as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: PeriodLimit = PeriodLimit { period_s: 60, limit: 3 };
    const SEC: u64 = 1_000_000_000;

    #[test]
    fn incr_answers_the_count_before_it() {
        let mut r = KongRedis::default();
        assert_eq!((r.incr(0), r.incr(0), r.incr(60)), (0, 1, 0));
        r.incr_by(&[(0, 2), (60, -1)]);
        assert_eq!((r.count(0), r.count(60)), (4, 0));
    }

    #[test]
    fn after_its_first_incr_a_node_counts_one_short() {
        let mut n = KongNode::default();
        n.read(0, 1);
        assert!(admits(&LIMIT, 1));
        assert!(n.admitted(0), "the first admission starts a sync");
        // Redis holds 2 (the INCR), the node decides on 1: the admitted request is not in it.
        assert_eq!(n.cached(0), Some(1));
        assert!(!n.admitted(0), "a sync is pending already");
        assert_eq!(n.cached(0), Some(2));
        assert_eq!(n.start_sync(), vec![(0, 1)]);
    }

    #[test]
    fn a_refused_first_request_lets_the_next_through() {
        let mut n = KongNode::default();
        n.read(0, 3);
        assert!(!admits(&LIMIT, 3));
        assert_eq!(n.cached(0), Some(2));
        assert!(admits(&LIMIT, n.cached(0).unwrap()));
    }

    #[test]
    fn a_sync_forgets_everything_the_node_knew() {
        let mut n = KongNode::default();
        n.read(0, 0);
        n.admitted(0);
        let sent = n.start_sync();
        n.admitted(0); // on the wire meanwhile: lost
        n.end_sync();
        assert_eq!((sent, n.cached(0), n.running), (vec![(0, 0)], None, false));
    }

    #[test]
    fn only_the_current_window_and_two_before_are_kept() {
        let mut r = KongRedis::default();
        for w in [60, 0, 120, 180, 60] {
            r.incr(w);
        }
        assert_eq!((r.count(0), r.count(60), r.count(120), r.count(180)), (0, 2, 1, 1));
        // A sync for a window older than all three is dropped, not added to another.
        r.incr_by(&[(0, 5), (120, 1)]);
        assert_eq!((r.count(0), r.count(60), r.count(120), r.count(180)), (0, 2, 2, 1));
        assert_eq!(window_of(&LIMIT, 119 * SEC + 999_999_999), 60);
    }
}
