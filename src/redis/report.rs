//! What a run against Redis prints: the measured run and the engine's simulation of the same
//! scenario side by side, and their difference (JSON), or the measured decisions (CSV).

use crate::sim::metrics::Latencies;
use crate::sim::{Report, StoreMode};
use serde::Serialize;

/// Decision latency percentiles in milliseconds.
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq)]
pub struct Percentiles {
    /// Median.
    pub p50: f64,
    /// 99th percentile.
    pub p99: f64,
}

impl Percentiles {
    /// From a latency histogram (nanoseconds).
    pub fn of(l: &Latencies) -> Self {
        Percentiles { p50: ms(l.percentile(50.0).as_nanos()), p99: ms(l.percentile(99.0).as_nanos()) }
    }
}

/// Nanoseconds as milliseconds rounded to the microsecond.
pub fn ms(ns: u64) -> f64 {
    (ns as f64 / 1_000.0).round() / 1_000.0
}

/// One side of the comparison.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Side {
    /// Requests that reached a node, retries included.
    pub requests: u64,
    /// Admitted.
    pub admitted: u64,
    /// Rejected (429).
    pub rejected: u64,
    /// Admitted minus what one exact limiter admits on the same arrival times.
    pub over_admitted: i64,
    /// What one exact limiter admits on the same arrival times.
    pub reference_admitted: u64,
    /// SETs that overwrote a write their GET had not seen (store = race only).
    pub lost_updates: Option<u64>,
    /// Decided by the fail mode after `timeout` without a reply.
    pub timeouts: u64,
    /// Retries among the requests.
    pub retries: u64,
    /// Rejected requests whose client gave up.
    pub gave_up: u64,
    /// From arrival at the node to its answer.
    pub latency_ms: Percentiles,
}

impl Side {
    /// The simulated side, from the engine's report.
    pub fn simulated(r: &Report, mode: StoreMode) -> Side {
        Side {
            requests: r.requests,
            admitted: r.admitted,
            rejected: r.rejected,
            over_admitted: r.over_admitted,
            reference_admitted: r.reference_admitted,
            lost_updates: (mode == StoreMode::Race).then_some(r.lost_updates),
            timeouts: r.timeouts,
            retries: r.retries,
            gave_up: r.gave_up,
            latency_ms: Percentiles { p50: ms(r.latency_ns.p50), p99: ms(r.latency_ns.p99) },
        }
    }
}

/// Measured minus simulated.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Difference {
    /// Requests.
    pub requests: i64,
    /// Admitted.
    pub admitted: i64,
    /// Rejected.
    pub rejected: i64,
    /// Over-admitted.
    pub over_admitted: i64,
    /// Lost updates (store = race).
    pub lost_updates: Option<i64>,
    /// Latency percentiles, ms.
    pub latency_ms: Percentiles,
}

impl Difference {
    /// `m − s`, field by field.
    pub fn between(m: &Side, s: &Side) -> Difference {
        let d = |a: u64, b: u64| a as i64 - b as i64;
        Difference {
            requests: d(m.requests, s.requests),
            admitted: d(m.admitted, s.admitted),
            rejected: d(m.rejected, s.rejected),
            over_admitted: m.over_admitted - s.over_admitted,
            lost_updates: m.lost_updates.zip(s.lost_updates).map(|(a, b)| d(a, b)),
            latency_ms: Percentiles {
                p50: ((m.latency_ms.p50 - s.latency_ms.p50) * 1000.0).round() / 1000.0,
                p99: ((m.latency_ms.p99 - s.latency_ms.p99) * 1000.0).round() / 1000.0,
            },
        }
    }
}

/// The server the run used.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Server {
    /// The URL, password hidden.
    pub url: String,
    /// `redis_version` from `INFO server`.
    pub version: String,
}

/// The round trip between nodes and Redis.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RoundTrip {
    /// The scenario's `rtt`, ms.
    pub configured_ms: f64,
    /// `PING` through the delay proxy before the run, after calibration: median and 99th
    /// percentile, in scenario ms (wall ms × `--speed`).
    pub measured_ms: Percentiles,
}

/// What the replica cost, measured and simulated (`--replica`).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReplicaSide {
    /// Admitted requests whose write the promoted replica never got (0 with no failover).
    pub lost_increments: u64,
    /// Reads of the replica that missed a write (store = replica_read). Measured: a write the
    /// primary had acknowledged before the read was sent, a lower bound of the simulated
    /// definition (any write the primary had made), apart by the writes of the last one-way
    /// trip.
    pub stale_reads: u64,
}

/// The run's replica.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ReplicaRun {
    /// The replica, password hidden.
    pub url: String,
    /// The scenario's `replica_lag`, ms.
    pub lag_configured_ms: f64,
    /// A write at the primary until it is readable at the replica, five probes before the run
    /// after calibrating the delay proxy it replicates through: median and 99th percentile in
    /// scenario ms.
    pub lag_measured_ms: Percentiles,
    /// When it was promoted, seconds, if the scenario fails over.
    pub failover_s: Option<f64>,
    /// On the real servers.
    pub measured: ReplicaSide,
    /// In the engine.
    pub simulated: ReplicaSide,
}

/// What one key, or one server, served.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Load {
    /// Store operations: a read, a write (GET then SET: two per admitted request), a script.
    pub ops: u64,
    /// The same per second of the scenario.
    pub ops_per_s: f64,
    /// Requests admitted on it.
    pub admitted: u64,
}

impl Load {
    /// `ops` and `admitted` over a run of `secs` scenario seconds.
    pub fn new(ops: u64, admitted: u64, secs: f64) -> Load {
        Load { ops, ops_per_s: Load::per_second(ops, secs), admitted }
    }

    /// `n` over `secs` seconds, per second to the thousandth.
    pub fn per_second(n: u64, secs: f64) -> f64 {
        (n as f64 / secs * 1000.0).round() / 1000.0
    }
}

/// One key of the run's limiter.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct KeyRow {
    /// Its name.
    pub key: String,
    /// The server it lives on (a cluster's primary).
    pub server: String,
    /// What it allows: its share of the limit (of the capacity, for a bucket).
    pub limit: u64,
    /// On the real servers.
    pub measured: Load,
    /// In the engine.
    pub simulated: Load,
}

/// The run's keys (`shards`, `--cluster`) and each server's share of the load.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct KeysRun {
    /// Each key.
    pub keys: Vec<KeyRow>,
    /// Each server, measured: the operations of the keys it holds.
    pub servers: Vec<ServerRow>,
}

/// One server's share of the load, measured.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct ServerRow {
    /// The server (a cluster's primary), password hidden.
    pub url: String,
    /// Store operations it answered (a redirect, and the operation where it went, count for
    /// both servers).
    pub ops: u64,
    /// The same per second of the scenario.
    pub ops_per_s: f64,
}

/// The whole output of `ratelimit-sim redis`.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct Comparison {
    /// The scenario, as a query.
    pub scenario: String,
    /// The server.
    pub redis: Server,
    /// Scenario seconds per wall second.
    pub speed: f64,
    /// The round trip.
    pub rtt: RoundTrip,
    /// The run on the real server.
    pub measured: Side,
    /// The engine's run of the same scenario.
    pub simulated: Side,
    /// Measured minus simulated.
    pub difference: Difference,
    /// The run's key, deleted at the end.
    pub key: String,
    /// The replica and what it cost, if the run had one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica: Option<ReplicaRun>,
    /// The limiter's keys and the servers' load, with `shards` or `--cluster`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keys: Option<KeysRun>,
}

impl Comparison {
    /// Pretty JSON with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).expect("plain data serializes");
        s.push('\n');
        s
    }
}

/// One measured decision, for `--format decisions`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DecisionRow {
    /// Arrival at the node, scenario ns.
    pub at: u64,
    /// The node.
    pub node: u32,
    /// Admitted.
    pub allowed: bool,
    /// Retry-After, if the store gave one.
    pub retry_after: Option<u64>,
    /// Arrival to answer, scenario ns.
    pub latency: u64,
    /// 0 for a new request, k for its k-th retry.
    pub retry: u32,
    /// Decided by the fail mode after a timeout.
    pub timed_out: bool,
}

/// The decisions as CSV: `t_ms,key,node,status,retry_after_ms,latency_ms,retry,timed_out`, one
/// line per request in arrival order: the columns of the simulator's `--format decisions`, then
/// three of the measured run's own. `key` is the one Redis key every node shares.
pub fn decisions_csv(rows: &[DecisionRow], key: &str) -> String {
    let mut out = String::from("t_ms,key,node,status,retry_after_ms,latency_ms,retry,timed_out\n");
    for r in rows {
        let ms = |ns: u64| crate::sim::support::decimal::format_fixed(ns, 6);
        let retry_after = r.retry_after.map(ms).unwrap_or_default();
        out.push_str(&format!(
            "{},{key},{},{},{retry_after},{},{},{}\n",
            ms(r.at),
            r.node,
            if r.allowed { 200 } else { 429 },
            ms(r.latency),
            r.retry,
            u8::from(r.timed_out)
        ));
    }
    out
}
