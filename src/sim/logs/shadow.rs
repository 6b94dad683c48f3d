//! Shadow mode: a log's requests through one limiter per key, as a real limiter keeps one bucket
//! per client, and who would have got a 429. Memory stays bounded with millions of keys: a key's
//! limiter is dropped once it has been idle long enough to be back at rest (full, its windows
//! empty), which is exactly when a real limiter would have forgotten it too, so dropping it
//! changes no decision; only the key's counts are kept.

use std::collections::VecDeque;

use super::error::LogError;
use super::format::LogFormat;
use super::order::Arrival;
use super::reader::{read_named, KeyBy, ReadSummary, Sender};
use crate::sim::{AnyLimiter, Limiter, Nanos, Scenario, SimTime};

/// How often idle keys are looked for, in requests.
const SWEEP_EVERY: u64 = 1 << 16;
/// The most buckets of the rejections-over-time series: past it, neighbours merge and the
/// bucket doubles (1 s, 2 s, 4 s, …), so the series takes constant memory however long the log.
const MAX_BUCKETS: usize = 600;

/// One key's counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeyCounts {
    /// Requests.
    pub requests: u64,
    /// Admitted (delayed ones included).
    pub admitted: u64,
    /// Refused.
    pub rejected: u64,
    /// The most requests within any 1 s.
    pub peak_1s: u64,
    /// The most requests within any span of the policy's window.
    pub peak_window: u64,
}

/// A key whose limiter is live: its state and its recent arrivals (for the peaks).
struct Live {
    limiter: AnyLimiter,
    last: SimTime,
    /// Its arrivals within the longer of 1 s and the policy's window.
    recent: VecDeque<SimTime>,
}

/// The shadow report of one log under one policy.
#[derive(Debug)]
pub struct ShadowReport {
    /// What reading found (format, lines, keys, …).
    pub read: ReadSummary,
    /// Requests, admitted and rejected over all keys.
    pub requests: u64,
    /// Admitted.
    pub admitted: u64,
    /// Rejected.
    pub rejected: u64,
    /// Per key, in key order ([`ReadSummary::keys`]).
    pub per_key: Vec<KeyCounts>,
    /// When each key (in key order) saw its first 429, since simulated time 0.
    pub first_rejected: Vec<Option<SimTime>>,
    /// Rejections per bucket of `bucket` from the first request on.
    pub rejections: Vec<u64>,
    /// The width of a bucket of `rejections`.
    pub bucket: Nanos,
    /// When the first request came, since simulated time 0.
    pub first: SimTime,
    /// The most keys whose limiters were live at once.
    pub live_peak: usize,
    /// Limiters dropped because their keys were idle (and at rest).
    pub dropped: u64,
}

impl ShadowReport {
    /// Keys that saw at least one 429.
    pub fn keys_throttled(&self) -> usize {
        self.per_key.iter().filter(|k| k.rejected > 0).count()
    }

    /// Key indices sorted by rejections (most first), then by name.
    pub fn ranked(&self) -> Vec<u32> {
        let mut order: Vec<u32> = (0..self.per_key.len() as u32).collect();
        order.sort_by(|&a, &b| {
            self.per_key[b as usize]
                .rejected
                .cmp(&self.per_key[a as usize].rejected)
                .then_with(|| self.read.keys.name(a).cmp(self.read.keys.name(b)))
        });
        order
    }
}

/// How long a key must be idle for its limiter to be back at rest under `sc`: two of the
/// policy's windows (the sliding counter weighs the previous one) plus the time to refill from
/// empty, and a second for the millisecond clocks of the product models.
pub fn rest_after(sc: &Scenario) -> Nanos {
    let quota = sc.limiter().quota();
    let refill = Nanos::from_secs_f64(sc.capacity as f64 / sc.refill.as_per_sec().max(1e-9));
    Nanos(quota.window.as_nanos().saturating_mul(2).saturating_add(refill.as_nanos()).saturating_add(1_000_000_000))
}

/// Pushes `t` into `recent` (one key's arrivals, in order), drops what is older than both 1 s
/// and `window`, and returns how many are within 1 s and within `window` of `t`.
fn peaks(recent: &mut VecDeque<SimTime>, t: SimTime, window: Nanos) -> (u64, u64) {
    const SECOND: u64 = 1_000_000_000;
    let longest = window.as_nanos().max(SECOND);
    recent.push_back(t);
    let age = |f: &SimTime| t.as_nanos().saturating_sub(f.as_nanos());
    while recent.front().is_some_and(|f| age(f) >= longest) {
        recent.pop_front();
    }
    let within = |span: u64| (recent.len() - recent.partition_point(|f| age(f) >= span)) as u64;
    let n = recent.len() as u64;
    if window.as_nanos() >= SECOND {
        (within(SECOND), n)
    } else {
        (n, within(window.as_nanos()))
    }
}

/// Counts a rejection `since` ns after the first request in `counts` (buckets of `bucket` ns),
/// merging neighbours and doubling the bucket while it is past the last one.
fn count_rejection(counts: &mut Vec<u64>, bucket: &mut u64, since: u64) {
    while since / *bucket >= MAX_BUCKETS as u64 {
        *counts = counts.chunks(2).map(|c| c.iter().sum()).collect();
        *bucket *= 2;
    }
    let i = (since / *bucket) as usize;
    if counts.len() <= i {
        counts.resize(i + 1, 0);
    }
    counts[i] += 1;
}

/// One limiter per key under one policy, fed arrivals in time order.
pub struct Shadow<'s> {
    sc: &'s Scenario,
    rest: Nanos,
    window: Nanos,
    per_key: Vec<KeyCounts>,
    /// When each key saw its first 429 (kept with the peaks: the sweep needs neither).
    first_rejected: Vec<Option<SimTime>>,
    /// By key index (keys are numbered densely as they come).
    live: Vec<Option<Live>>,
    live_now: usize,
    /// Whether to track each key's peaks (the sweep does not need them).
    peaks: bool,
    seen: u64,
    /// When (in requests seen) idle keys are next looked for.
    next_sweep: u64,
    live_peak: usize,
    dropped: u64,
    /// Rejections per `bucket` since `first`.
    rejections: Vec<u64>,
    bucket: u64,
    first: Option<SimTime>,
}

impl<'s> Shadow<'s> {
    /// No request yet, under `sc`.
    pub fn new(sc: &'s Scenario) -> Self {
        Shadow {
            sc,
            rest: rest_after(sc),
            window: sc.limiter().quota().window.max(Nanos(1)),
            per_key: Vec::new(),
            first_rejected: Vec::new(),
            live: Vec::new(),
            live_now: 0,
            peaks: true,
            seen: 0,
            next_sweep: SWEEP_EVERY,
            live_peak: 0,
            dropped: 0,
            rejections: Vec::new(),
            bucket: 1_000_000_000,
            first: None,
        }
    }

    /// The same, without each key's peaks (faster: what the sizing sweep runs).
    pub fn without_peaks(sc: &'s Scenario) -> Self {
        Shadow { peaks: false, ..Shadow::new(sc) }
    }

    /// How long the limiter of `key` holds the request it admitted last (the leaky bucket's
    /// queue, nginx without `nodelay`): it is served that much after it arrived.
    pub fn held(&self, key: u32) -> Nanos {
        self.live.get(key as usize).and_then(Option::as_ref).map_or(Nanos::ZERO, |l| l.limiter.admitted_delay())
    }

    /// Decides the next request, from `from`: whether it is admitted.
    pub fn push(&mut self, a: Arrival, from: Sender<'_>) -> bool {
        self.first.get_or_insert(a.at);
        let k = a.key as usize;
        if self.per_key.len() <= k {
            self.per_key.resize(k + 1, KeyCounts::default());
            self.live.resize_with(k + 1, || None);
            if self.peaks {
                self.first_rejected.resize(k + 1, None);
            }
        }
        let sc = self.sc;
        let slot = &mut self.live[k];
        if slot.is_none() {
            self.live_now += 1;
            self.live_peak = self.live_peak.max(self.live_now);
        }
        let state = slot.get_or_insert_with(|| {
            let mut limiter = sc.limiter();
            limiter.for_sender(from.key, from.origin_s);
            Live { limiter, last: a.at, recent: VecDeque::new() }
        });
        state.last = a.at;
        let verdict = state.limiter.check(a.at);
        let counts = &mut self.per_key[k];
        counts.requests += 1;
        if verdict.allowed {
            counts.admitted += 1;
        } else {
            counts.rejected += 1;
            if let Some(first) = self.first_rejected.get_mut(k) {
                first.get_or_insert(a.at);
            }
            let since = a.at.as_nanos().saturating_sub(self.first.unwrap_or(a.at).as_nanos());
            count_rejection(&mut self.rejections, &mut self.bucket, since);
        }
        if self.peaks {
            let (second, window) = peaks(&mut state.recent, a.at, self.window);
            counts.peak_1s = counts.peak_1s.max(second);
            counts.peak_window = counts.peak_window.max(window);
        }
        self.seen += 1;
        // Idle keys are looked for every 2^16 requests, or once per key seen, whichever is rarer:
        // a scan of every key never costs more than the requests since the last one.
        if self.seen >= self.next_sweep {
            self.next_sweep = self.seen + SWEEP_EVERY.max(self.live.len() as u64);
            let rest = self.rest.as_nanos();
            for slot in &mut self.live {
                if slot.as_ref().is_some_and(|l| a.at.as_nanos().saturating_sub(l.last.as_nanos()) >= rest) {
                    *slot = None;
                    self.live_now -= 1;
                    self.dropped += 1;
                }
            }
        }
        verdict.allowed
    }

    /// Each key's counts so far, by key index.
    pub fn per_key(&self) -> &[KeyCounts] {
        &self.per_key
    }

    /// The report, with what reading found.
    pub fn finish(self, read: ReadSummary) -> ShadowReport {
        let first = self.first.unwrap_or(SimTime::ZERO);
        let (rejections, bucket) = (self.rejections, Nanos(self.bucket));
        let (requests, admitted, rejected) =
            self.per_key.iter().fold((0, 0, 0), |(r, a, j), k| (r + k.requests, a + k.admitted, j + k.rejected));
        ShadowReport {
            read,
            requests,
            admitted,
            rejected,
            per_key: self.per_key,
            first_rejected: self.first_rejected,
            rejections,
            bucket,
            first,
            live_peak: self.live_peak,
            dropped: self.dropped,
        }
    }
}

/// Runs the log in `input` through `sc`'s limiter, one per key.
pub fn shadow(
    input: impl std::io::BufRead,
    format: Option<LogFormat>,
    key: &KeyBy,
    sc: &Scenario,
) -> Result<ShadowReport, LogError> {
    let mut run = Shadow::new(sc);
    let summary = read_named(input, format, key, |a, from| {
        run.push(a, from);
    })?;
    Ok(run.finish(summary))
}

#[cfg(test)]
mod tests;
