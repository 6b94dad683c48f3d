//! One key of a log as a trace the live playground replays: the log's heaviest keys, each with
//! its own requests' times, so a user who applied a policy can watch what it does to a real
//! client, request by request, on the same engine the report ran.
//!
//! The times keep their place within the policy's window: [`replay`] moves them earlier by a
//! whole number of the playground's windows (never by a part of one), so fixed windows cut the
//! key's requests where they cut them in the shadow run and the live decisions are the report's;
//! a bucket, which has no clock of its own, starts less than a window before the key's first
//! request. (The worker hands the times over from the hour of the first, since the policy
//! applied later may have another window: a window that divides an hour — a second, a minute,
//! ten — keeps its place exactly; a longer one starts at that hour instead of its own start.)

use super::order::Arrival;
use super::shadow::ShadowReport;
use crate::sim::trace::{Trace, MAX_TRACE_MILLIS};
use crate::sim::Scenario;

/// How many of the heaviest keys are offered.
pub const WATCHED_KEYS: usize = 6;
/// The most requests of one key replayed (a key's later requests are left out, which the page says).
pub const MAX_WATCHED: usize = 50_000;

/// One key's requests, ready to replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Watched {
    /// The key's index in the report's keys.
    pub key: u32,
    /// Its requests in the whole log.
    pub requests: u64,
    /// Its times, ns from `base`.
    pub trace: Trace,
    /// The whole hour of its first request, ns since simulated time 0 (the log's first midnight).
    pub base: u64,
}

/// The heaviest keys of `report` (most requests first, then by name), each with its times from
/// `arrivals` (the log's, in order) as [`Watched`]: at most [`MAX_WATCHED`] requests and one day
/// each.
pub fn watched(report: &ShadowReport, arrivals: &[Arrival]) -> Vec<Watched> {
    let keys = &report.read.keys;
    let mut heaviest: Vec<u32> = (0..report.per_key.len() as u32).collect();
    heaviest.sort_by(|&a, &b| {
        let requests = |k: u32| report.per_key[k as usize].requests;
        requests(b).cmp(&requests(a)).then_with(|| keys.name(a).cmp(keys.name(b)))
    });
    heaviest.truncate(WATCHED_KEYS);
    let mut times: Vec<Vec<u64>> = vec![Vec::new(); heaviest.len()];
    for a in arrivals {
        if let Some(slot) = heaviest.iter().position(|&k| k == a.key) {
            if times[slot].len() < MAX_WATCHED {
                times[slot].push(a.at.as_nanos());
            }
        }
    }
    let day = MAX_TRACE_MILLIS * 1_000_000;
    heaviest
        .iter()
        .zip(times)
        .filter_map(|(&key, mut t)| {
            let first = *t.first()?;
            let base = first - first % HOUR;
            t.retain(|&at| at - base <= day);
            t.iter_mut().for_each(|at| *at -= base);
            let trace = Trace::from_times(t)?;
            Some(Watched { key, requests: report.per_key[key as usize].requests, trace, base })
        })
        .collect()
}

const HOUR: u64 = 3_600_000_000_000;

/// A watched key's `trace` (from `base`) as the playground replays it under `sc`: from the start
/// of the window of `sc`'s policy that its first request falls in.
///
/// ```
/// use ratelimit_playground::sim::logs::watch::replay;
/// use ratelimit_playground::sim::{Scenario, Trace};
/// let sc = Scenario::from_query("algo=fixed_window&limit=5&window=60").unwrap();
/// let t = Trace::from_times(vec![130_000_000_000, 200_000_000_000]).unwrap();
/// // 3 600 s + 130 s is 10 s into the window from 3 720 s.
/// assert_eq!(replay(&t, 3_600_000_000_000, &sc).times(), &[10_000_000_000, 80_000_000_000]);
/// ```
pub fn replay(trace: &Trace, base: u64, sc: &Scenario) -> Trace {
    let window = sc.effective_window().as_nanos().max(1);
    let first = base + trace.times().first().copied().unwrap_or(0);
    let skip = (first - first % window).saturating_sub(base);
    let times = trace.times().iter().map(|&t| t - skip.min(t)).collect();
    Trace::from_times(times).unwrap_or_else(|| trace.clone())
}

/// How far a replay is jumped at once when it starts: to a second before its first request, so
/// the playground shows something happen at once instead of waiting out the start of the window
/// the replay keeps ([`replay`]). Zero for a first request in the first second.
///
/// ```
/// use ratelimit_playground::sim::logs::watch::lead_in;
/// use ratelimit_playground::sim::{Nanos, Trace};
/// let t = Trace::from_times(vec![18_500_000_000, 19_000_000_000]).unwrap();
/// assert_eq!(lead_in(&t), Nanos::from_millis(17_500));
/// ```
pub fn lead_in(trace: &Trace) -> crate::sim::Nanos {
    let first = trace.times().first().copied().unwrap_or(0);
    crate::sim::Nanos(first.saturating_sub(crate::sim::time::NANOS_PER_SEC))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::reader::{read_log, KeyBy};
    use crate::sim::logs::samples::sample_log;
    use crate::sim::logs::shadow;
    use crate::sim::{Limiter, SimTime};

    fn replayed(query: &str) -> (ShadowReport, Vec<Watched>) {
        let log = sample_log("api", 7, 4).unwrap();
        let sc = Scenario::from_query(query).unwrap();
        let report = shadow(log.as_bytes(), None, &KeyBy::Ip, &sc).unwrap();
        let mut arrivals = Vec::new();
        read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let w = watched(&report, &arrivals);
        (report, w)
    }

    #[test]
    fn the_heaviest_keys_come_first_with_all_their_requests() {
        let (report, w) = replayed("capacity=20&refill=2");
        assert_eq!(w.len(), WATCHED_KEYS.min(report.per_key.len()));
        let requests: Vec<u64> = w.iter().map(|k| k.requests).collect();
        assert!(requests.windows(2).all(|p| p[0] >= p[1]), "{requests:?}");
        assert_eq!(requests[0], report.per_key.iter().map(|k| k.requests).max().unwrap());
        for k in &w {
            assert_eq!(k.trace.len() as u64, k.requests, "a short log is replayed whole");
        }
    }

    #[test]
    fn replayed_alone_each_key_gets_the_reports_decisions() {
        for query in ["capacity=20&refill=2", "algo=fixed_window&limit=30&window=60"] {
            let (report, w) = replayed(query);
            let sc = Scenario::from_query(query).unwrap();
            for k in &w {
                let live = replay(&k.trace, k.base, &sc);
                let moved = k.base + k.trace.times()[0] - live.times()[0];
                assert_eq!(moved % sc.effective_window().as_nanos(), 0, "moved by whole windows");
                let mut limiter = sc.limiter();
                let admitted = live.times().iter().filter(|&&t| limiter.acquire(SimTime(t))).count() as u64;
                assert_eq!(admitted, report.per_key[k.key as usize].admitted, "{query}: key {}", k.key);
            }
        }
    }
}
