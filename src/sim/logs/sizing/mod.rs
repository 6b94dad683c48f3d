//! The sizing assistant: the policy in the query rated on a log first ([`Sizing::current`]: the
//! keys it throttles and spares, with their peaks), then swept (capacity × refill for buckets,
//! limit × window for windows, up to 10 × 10 policies drawn from the log's own peaks), each run in
//! shadow mode on the same arrivals, and one recommended by an [`Objective`]: by default the
//! tightest policy that spares the keys whose peaks look like the bulk and throttles the
//! outliers ([`objective`]), the current one when it already does. What a recommendation changes
//! against the current policy is [`change`]. "Tightest" is what a policy lets one key through in
//! a minute, [`SizingRow::per_minute`] (burst + 60 s × rate): a huge burst with a tiny rate is
//! not small.
//!
//! With a server behind the limiter (`workers`), each policy's admitted requests are also
//! replayed through it ([`crate::sim::server::replay`]), so the other side of the question has
//! an answer too: the largest policy under which the server's p99 latency keeps an objective
//! ([`Sizing::largest_within`]).

pub mod change;
pub mod objective;

use super::order::Arrival;
use super::policy::PolicyKeys;
use super::reader::ReadSummary;
use super::shadow::{KeyCounts, Shadow};
use crate::sim::rng::SimRng;
use crate::sim::server::{replay, ServerConfig};
use crate::sim::{Nanos, Rate, Scenario, SimTime};
pub use objective::{Objective, Reason, Split};

/// Values per axis of the grid.
const PER_AXIS: usize = 10;
/// How many of the heaviest keys each row reports.
const HEAVIEST: usize = 3;
/// Window lengths swept for window algorithms, s.
const WINDOWS: [u64; 10] = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600];

/// One policy's outcome on the log.
#[derive(Clone, Debug, PartialEq)]
pub struct SizingRow {
    /// The policy: the capacity and refill, or the limit and window, it was run with.
    pub policy: PolicyKeys,
    /// What it lets through on average, requests/s (refill, or limit ÷ window).
    pub rate: f64,
    /// Its burst: capacity or limit.
    pub burst: u64,
    /// What it lets one key through in a minute from rest: burst + 60 s × rate.
    pub per_minute: f64,
    /// Keys that saw at least one 429.
    pub keys_throttled: usize,
    /// Requests refused.
    pub rejected: u64,
    /// The keys with the most requests: (key, requests, admitted).
    pub heaviest: Vec<(u32, u64, u64)>,
    /// With a server behind the limiter: what it did with the requests this policy admits.
    pub server: Option<RowServer>,
    /// Every key's counts, by key index (with their peaks for the current policy only).
    counts: Vec<KeyCounts>,
}

impl SizingRow {
    /// Whether this policy refused key `k` at least once.
    pub fn throttles(&self, k: u32) -> bool {
        self.counts.get(k as usize).is_some_and(|c| c.rejected > 0)
    }
}

/// What the server behind the limiter did with one policy's admitted requests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RowServer {
    /// Answered.
    pub served: u64,
    /// Refused with a 503, its waiting room full.
    pub shed: u64,
    /// The 99th percentile latency, ms (from the limiter admitting a request to the answer).
    pub p99_ms: f64,
    /// How busy the workers were, 0–1, over the log's span.
    pub utilization: f64,
}

/// The sweep's result.
#[derive(Debug)]
pub struct Sizing {
    /// Each policy, from the smallest ([`SizingRow::per_minute`], then rate) to the largest; the
    /// current one among them.
    pub rows: Vec<SizingRow>,
    /// The index in `rows` of the policy in the query, the one the log is rated under first.
    pub current: usize,
    /// Keys in the log.
    pub keys: usize,
    /// Requests in the log.
    pub requests: u64,
    /// What the recommendation must do.
    pub objective: Objective,
    /// The keys split into the bulk and the outliers by their peaks in 1 s.
    pub split: Split,
    /// The index in `rows` of the recommended policy (`current` to keep it), if one qualifies.
    pub recommended: Option<usize>,
    /// Why the recommended policy is the one it is.
    pub reason: Option<Reason>,
    /// The p99 latency the server behind the limiter must keep, if there is one: its clients'
    /// timeout, by default (the largest policy under which 99 % are answered before the client
    /// gives up); the CLI's `--latency-objective` sets it.
    pub latency_objective: Option<Nanos>,
}

impl Sizing {
    /// The largest policy within [`Sizing::latency_objective`], if there is one ([`Self::largest_within`]).
    pub fn largest_within_objective(&self) -> Option<usize> {
        self.largest_within(self.latency_objective?)
    }

    /// The largest policy ([`SizingRow::per_minute`]) under which the server behind the limiter
    /// answers within `objective` at the 99th percentile and sheds nothing; `None` without a
    /// server or when even the smallest does not.
    pub fn largest_within(&self, objective: Nanos) -> Option<usize> {
        let ms = objective.as_nanos() as f64 / 1e6;
        self.rows.iter().rposition(|r| r.server.is_some_and(|s| s.p99_ms <= ms && s.shed == 0))
    }

    /// Whether `row` does what [`Sizing::objective`] asks.
    pub fn meets(&self, row: &SizingRow) -> bool {
        objective::meets(self.objective, row, self.keys, &self.split)
    }

    /// The share of keys the objective throttles, 0–1: the target, or the outliers' share.
    pub fn throttled_share(&self) -> f64 {
        match self.objective {
            Objective::Target(share) => share,
            Objective::Outliers => self.split.outliers.len() as f64 / self.keys.max(1) as f64,
        }
    }

    /// The keys the recommended policy still throttles, most rejected first.
    pub fn still_throttled(&self) -> Vec<u32> {
        let Some(row) = self.recommended.map(|i| &self.rows[i]) else { return Vec::new() };
        let mut keys: Vec<u32> =
            (0..row.counts.len() as u32).filter(|&k| row.counts[k as usize].rejected > 0).collect();
        keys.sort_by_key(|&k| (std::cmp::Reverse(row.counts[k as usize].rejected), k));
        keys
    }
}

/// `{1, 2, 5} × 10^k` from `lo` to `hi` (at least one value), at most [`PER_AXIS`] of them,
/// evenly thinned.
fn nice(lo: f64, hi: f64) -> Vec<f64> {
    let mut all = Vec::new();
    let mut k = lo.max(1e-3).log10().floor() as i32;
    while all.len() < 200 {
        for m in [1.0, 2.0, 5.0] {
            let v = m * 10f64.powi(k);
            if v >= lo * 0.999 && v <= hi * 1.001 {
                all.push(v);
            }
        }
        if 10f64.powi(k) > hi {
            break;
        }
        k += 1;
    }
    if all.is_empty() {
        all.push(hi.max(lo));
    }
    if all.len() <= PER_AXIS {
        return all;
    }
    (0..PER_AXIS).map(|i| all[i * (all.len() - 1) / (PER_AXIS - 1)]).collect()
}

/// The policies to try for `sc`'s algorithm, from the peaks in `counts` (one run of the log).
pub fn grid(sc: &Scenario, counts: &[KeyCounts]) -> Vec<Scenario> {
    let peak = counts.iter().map(|k| k.peak_1s).max().unwrap_or(1).max(1) as f64;
    let mut out = Vec::new();
    if sc.algo.is_window(&sc.product) {
        for w in WINDOWS {
            for limit in nice(1.0, (peak * w as f64).min(1e6)) {
                out.push(Scenario {
                    limit: Some(limit.round().max(1.0) as u64),
                    window: Some(Nanos::from_secs(w)),
                    ..sc.clone()
                });
            }
        }
    } else {
        for refill in nice(0.1, peak) {
            for capacity in nice(1.0, (peak * 10.0).min(1e6)) {
                out.push(Scenario {
                    capacity: capacity.round().max(1.0) as u64,
                    refill: Rate::from_per_sec(refill),
                    ..sc.clone()
                });
            }
        }
    }
    out.retain(|s| s.validate().is_ok());
    out.dedup();
    if out.len() > PER_AXIS * PER_AXIS {
        let n = out.len();
        out = (0..PER_AXIS * PER_AXIS).map(|i| out[i * (n - 1) / (PER_AXIS * PER_AXIS - 1)].clone()).collect();
    }
    out
}

/// Rates `sc` on `arrivals` (`read.keys` distinct), sweeps `grid(sc, …)` over them and
/// recommends a policy under `objective`.
pub fn sweep(arrivals: &[Arrival], read: &ReadSummary, sc: &Scenario, objective: Objective) -> Sizing {
    sweep_with(arrivals, read, sc, objective, |_, _| {})
}

/// `p` run on `arrivals` (with each key's peaks if `peaks`): its row, without its heaviest keys.
fn run(p: &Scenario, arrivals: &[Arrival], read: &ReadSummary, peaks: bool) -> SizingRow {
    let mut run = if peaks { Shadow::new(p) } else { Shadow::without_peaks(p) };
    let server = ServerConfig::of(&p.product);
    let mut admitted: Vec<SimTime> = Vec::new();
    // Held requests (the leaky bucket's queue) reach the server as they leave, after later
    // arrivals of other keys: merged in by time as the arrivals pass them.
    let mut held = std::collections::BinaryHeap::new();
    for &a in arrivals {
        while held.peek().is_some_and(|&std::cmp::Reverse(t)| t <= a.at) {
            admitted.extend(held.pop().map(|std::cmp::Reverse(t)| t));
        }
        if run.push(a, read.sender(a)) && server.is_some() {
            match run.held(a.key) {
                Nanos::ZERO => admitted.push(a.at),
                wait => held.push(std::cmp::Reverse(a.at + wait)),
            }
        }
    }
    admitted.extend(std::iter::from_fn(|| held.pop().map(|std::cmp::Reverse(t)| t)));
    let counts = run.per_key().to_vec();
    let server = server.map(|cfg| {
        let s = replay(cfg, SimRng::new(p.seed), &admitted);
        let span = Nanos(s.end.as_nanos().saturating_sub(admitted.first().map_or(0, |t| t.as_nanos())));
        RowServer {
            served: s.served,
            shed: s.shed,
            p99_ms: s.latency.percentile(99.0).as_nanos() as f64 / 1e6,
            utilization: s.busy_area as f64 / (span.as_nanos().max(1) as f64 * f64::from(cfg.workers)),
        }
    });
    let policy = PolicyKeys::of(p);
    let (rate, burst) = match policy {
        PolicyKeys::Window { limit, window } => (limit as f64 / window.as_secs_f64(), limit),
        PolicyKeys::Bucket { capacity, refill } => (refill.as_per_sec(), capacity),
    };
    SizingRow {
        policy,
        rate,
        burst,
        per_minute: burst as f64 + 60.0 * rate,
        keys_throttled: counts.iter().filter(|k| k.rejected > 0).count(),
        rejected: counts.iter().map(|k| k.rejected).sum(),
        heaviest: Vec::new(),
        server,
        counts,
    }
}

/// [`sweep`], calling `on_policy(done, of)` after each policy, the current one first (the
/// page's progress bar).
pub fn sweep_with(
    arrivals: &[Arrival],
    read: &ReadSummary,
    sc: &Scenario,
    objective: Objective,
    mut on_policy: impl FnMut(usize, usize),
) -> Sizing {
    let current = run(sc, arrivals, read, true);
    let counts = &current.counts;
    let requests: u64 = counts.iter().map(|k| k.requests).sum();
    let mut heavy: Vec<u32> = (0..counts.len() as u32).collect();
    heavy.sort_by_key(|&k| (std::cmp::Reverse(counts[k as usize].requests), k));
    heavy.truncate(HEAVIEST);
    let split = Split::of(&counts.iter().map(|k| k.peak_1s).collect::<Vec<_>>());
    let mut policies = grid(sc, counts);
    policies.retain(|p| PolicyKeys::of(p) != current.policy);
    let of = policies.len() + 1;
    on_policy(1, of);
    let mut rows = vec![current];
    rows.extend(policies.iter().enumerate().map(|(i, p)| {
        let row = run(p, arrivals, read, false);
        on_policy(i + 2, of);
        row
    }));
    for row in &mut rows {
        row.heaviest =
            heavy.iter().map(|&k| (k, row.counts[k as usize].requests, row.counts[k as usize].admitted)).collect();
    }
    let current_policy = rows[0].policy;
    rows.sort_by(|a, b| {
        a.per_minute.total_cmp(&b.per_minute).then(a.rate.total_cmp(&b.rate)).then(a.burst.cmp(&b.burst))
    });
    let current = rows.iter().position(|r| r.policy == current_policy).expect("the current policy is a row");
    let keys = read.keys.len();
    let picked = objective::pick(objective, &rows, current, keys, &split);
    let latency_objective = ServerConfig::of(&sc.product).and_then(|c| c.client_timeout);
    Sizing {
        rows,
        current,
        keys,
        requests,
        objective,
        split,
        recommended: picked.map(|p| p.0),
        reason: picked.map(|p| p.1),
        latency_objective,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::logs::reader::{read_log, KeyBy};
    use crate::sim::logs::samples::sample_log;

    #[test]
    fn nice_numbers_span_the_range() {
        assert_eq!(nice(1.0, 100.0), [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]);
        let many = nice(0.1, 1e5);
        assert_eq!((many.len(), many[0], many[9]), (10, 0.1, 1e5));
    }

    #[test]
    fn every_swept_policy_reads_back_as_written_and_is_what_ran() {
        let counts = [KeyCounts { peak_1s: 40, ..KeyCounts::default() }];
        for query in ["capacity=10&refill=1", "algo=gcra", "algo=sliding_log&limit=5&window=2", "algo=nginx"] {
            let sc = Scenario::from_query(query).unwrap();
            for p in grid(&sc, &counts) {
                let policy = PolicyKeys::of(&p);
                assert_eq!(PolicyKeys::parse(&policy.to_string()), Some(policy), "{policy}");
                let mut applied = sc.clone();
                policy.apply(&mut applied);
                assert_eq!(applied, p, "applying {policy} runs the policy swept");
            }
        }
    }

    #[test]
    fn with_a_server_the_largest_policy_within_a_latency_objective_is_the_last_that_keeps_it() {
        let log = sample_log("api", 2, 5).unwrap();
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let sc = Scenario::from_query("capacity=10&refill=1&workers=2&service=20").unwrap();
        let sizing = sweep(&arrivals, &read, &sc, Objective::Target(0.02));
        assert!(sizing.rows.iter().all(|r| r.server.is_some_and(|s| s.served + s.shed == admitted(r))));
        let objective = Nanos::from_millis(100);
        let largest = sizing.largest_within(objective).expect("a policy keeps 100 ms");
        let keeps = |r: &SizingRow| r.server.is_some_and(|s| s.p99_ms <= 100.0 && s.shed == 0);
        assert!(keeps(&sizing.rows[largest]));
        assert!(sizing.rows[largest + 1..].iter().all(|r| !keeps(r)), "nothing larger keeps it");
        // Letting everything through, the log's bursts take the server past it.
        assert!(!keeps(sizing.rows.last().unwrap()), "{:?}", sizing.rows.last().unwrap().server);
        assert_eq!(
            sweep(&arrivals, &read, &Scenario::from_query("capacity=10&refill=1").unwrap(), Objective::Target(0.02))
                .largest_within(objective),
            None
        );
    }

    /// Requests `r`'s policy admitted.
    fn admitted(r: &SizingRow) -> u64 {
        r.counts.iter().map(|k| k.admitted).sum()
    }

    #[test]
    fn the_recommendation_leaves_the_clients_alone_and_names_the_scrapers() {
        let log = sample_log("api", 2, 5).unwrap();
        let mut arrivals = Vec::new();
        let read = read_log(log.as_bytes(), None, &KeyBy::Ip, |a| arrivals.push(a)).unwrap();
        let sc = Scenario::from_query("capacity=10&refill=1").unwrap();
        let sizing = sweep(&arrivals, &read, &sc, Objective::Target(0.02));
        assert!(sizing.rows.len() >= 50, "{} policies", sizing.rows.len());
        let rec = &sizing.rows[sizing.recommended.expect("a policy within 2 %")];
        assert!(rec.keys_throttled <= 6, "{rec:?}");
        let smaller = &sizing.rows[..sizing.recommended.unwrap()];
        assert!(smaller.iter().all(|r| r.keys_throttled > 6), "nothing smaller qualifies");
        let names: Vec<&str> = sizing.still_throttled().iter().map(|&k| read.keys.name(k)).collect();
        assert!(names.iter().all(|n| n.starts_with("203.0.113.") || *n == "198.51.100.7"), "{names:?}");
        assert!(
            rec.heaviest.iter().all(|h| read.keys.name(h.0).starts_with("203.0.113.")),
            "the scrapers are the heaviest"
        );
    }
}
