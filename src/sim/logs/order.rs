//! Putting a log's entries in time order: whole-second stamps are held until their second is
//! complete and spread over it key by key ([`spread`]: the k-th of that key's n at second +
//! (k + h)/n, h the key's phase),
//! finer ones wait in a heap for up to [`REORDER_MS`], and each goes out as an [`Arrival`] in
//! simulated time. Spreading per key keeps a key's times a function of its own requests alone, so
//! a cluster that hands each key's rows to a different worker, in any order, gets the same times.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};

use crate::sim::time::EPOCH_S;
use crate::sim::SimTime;

/// How far out of order lines may be, ms.
pub const REORDER_MS: i64 = 5_000;

/// One request of the log, in time order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// Since the log's first second.
    pub at: SimTime,
    /// Index into the reader's [`Keys`](super::keys::Keys).
    pub key: u32,
    /// Index into the reader's values of the field the counter is kept per
    /// ([`super::scope::Scope::Field`]); 0 without one.
    pub part: u32,
}

/// When the `k`-th (from 0) of a key's `n` requests stamped with the whole second `second` (since
/// the epoch) arrives, ns since the epoch: evenly spaced over that second, 1/n apart, the first
/// at `phase` ÷ n ([`super::keys::phase_ns`]: where that key's requests start).
pub fn spread(second: i64, k: u64, n: u64, phase: u64) -> i64 {
    second * 1_000_000_000 + ((k * 1_000_000_000 + phase) / n.max(1)) as i64
}

/// A day in ns: simulated time 0 is the UTC midnight before a log's first request, so fixed
/// windows fall on the clock's minutes and hours as real limiters' do (`times` logs start at 0).
const DAY_NS: i64 = 86_400_000_000_000;

/// The stage that puts entries in order and spreads whole seconds.
pub(super) struct Orderer {
    /// Whole-second stamps not yet spread: second → (key, part) in log order.
    pub(super) seconds: BTreeMap<i64, Vec<(u32, u32)>>,
    /// Times ready to emit: (absolute ns, sequence, key, part).
    pub(super) ready: BinaryHeap<Reverse<(i64, u64, u32, u32)>>,
    pub(super) seq: u64,
    /// The latest stamp seen, ms.
    pub(super) latest: i64,
    pub(super) origin_ms: Option<i64>,
    /// Each key's phase, by key index ([`super::keys::phase_ns`]).
    pub(super) phases: Vec<u64>,
    /// Scratch for spreading one second, by key index: (that key's requests in it, spread so far).
    tally: Vec<(u32, u32)>,
}

impl Orderer {
    pub(super) fn new() -> Self {
        Orderer {
            seconds: BTreeMap::new(),
            ready: BinaryHeap::new(),
            seq: 0,
            latest: i64::MIN,
            origin_ms: None,
            phases: Vec::new(),
            tally: Vec::new(),
        }
    }

    /// Emits what is at least `REORDER_MS` older than the latest stamp (everything, at the end).
    /// Each goes to `out` with the Unix second of simulated 0 ([`origin_s`]).
    pub(super) fn flush(&mut self, all: bool, out: &mut impl FnMut(Arrival, u64)) {
        let horizon = if all { i64::MAX } else { self.latest.saturating_sub(REORDER_MS) };
        while let Some((&second, _)) = self.seconds.first_key_value() {
            if !all && (second + 1) * 1000 > horizon {
                break;
            }
            let keys = self.seconds.remove(&second).expect("the first second");
            let times = self.spread_second(second, keys);
            // Nothing else is waiting: this second's requests come before anything still to be
            // read (a later line may be at most REORDER_MS older than the latest), so they go
            // out in order without the heap, which is all a whole-second log ever needs.
            let direct = self.ready.is_empty();
            for (ns, (key, part)) in times {
                if direct {
                    self.emit(ns, key, part, out);
                } else {
                    self.seq += 1;
                    self.ready.push(Reverse((ns, self.seq, key, part)));
                }
            }
        }
        // A whole second not yet spread holds times from its start: nothing later goes out first.
        let pending = self.seconds.first_key_value().map_or(i64::MAX, |(&s, _)| s.saturating_mul(1_000_000_000));
        let horizon_ns = horizon.saturating_mul(1_000_000).min(pending);
        while let Some(&Reverse((ns, _, key, part))) = self.ready.peek() {
            if ns >= horizon_ns && !all {
                break;
            }
            self.ready.pop();
            self.emit(ns, key, part, out);
        }
    }

    /// The requests of one whole `second` (their keys in log order) at their times ([`spread`]
    /// per key), in time order; ties keep log order.
    fn spread_second(&mut self, second: i64, keys: Vec<(u32, u32)>) -> Vec<(i64, (u32, u32))> {
        let (tally, phases) = (&mut self.tally, &self.phases);
        for &(key, _) in &keys {
            if tally.len() <= key as usize {
                tally.resize(key as usize + 1, (0, 0));
            }
            tally[key as usize].0 += 1;
        }
        let mut times: Vec<(i64, (u32, u32))> = keys
            .into_iter()
            .map(|(key, part)| {
                let (n, k) = &mut tally[key as usize];
                let ns = spread(second, u64::from(*k), u64::from(*n), phases[key as usize]);
                *k += 1;
                if *k == *n {
                    (*n, *k) = (0, 0);
                }
                (ns, (key, part))
            })
            .collect();
        times.sort_by_key(|&(ns, _)| ns);
        times
    }

    /// Emits the arrival at `ns` (since the epoch) of `key` (in `part`).
    fn emit(&mut self, ns: i64, key: u32, part: u32, out: &mut impl FnMut(Arrival, u64)) {
        let origin = *self.origin_ms.get_or_insert(ns.div_euclid(DAY_NS) * (DAY_NS / 1_000_000));
        out(Arrival { at: SimTime((ns - origin * 1_000_000).max(0) as u64), key, part }, origin_s(origin));
    }
}

/// The Unix second simulated 0 stands for, given the log's origin (ms since the epoch): its
/// first UTC midnight, or [`EPOCH_S`] for a `times` log (no clock: origin 0) and a stamp before
/// 1970, as in the playground.
pub fn origin_s(origin_ms: i64) -> u64 {
    match origin_ms {
        1.. => (origin_ms / 1000) as u64,
        _ => EPOCH_S,
    }
}
