//! Batch runs: a scenario run to completion, summarised as a [`Report`] (JSON or CSV).

use super::engine::Simulation;
use super::engine::{Capabilities, Lacking};
use super::metrics::{Metrics, MAX_NODES};
use super::query::ParamError;
use super::scenario::{RetryPolicy, Scenario, TrafficShape};
pub use super::server::report::{ServerReport, ServerRow, Spread};
use super::server::GateStats;
use super::time::SimTime;
use serde::Serialize;

/// Most requests (retries included) one batch run may simulate.
pub const MAX_RUN_REQUESTS: u128 = 50_000_000;
/// Most series buckets one batch run may produce.
pub const MAX_RUN_BUCKETS: u64 = 100_000;

/// Everything a batch run measured. Field order is the JSON order; output is byte-identical for
/// the same scenario on every platform.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The normalized scenario: every key, as a query string.
    pub scenario: String,
    /// The window algorithms' effective limit (explicit or derived from capacity).
    pub effective_limit: u64,
    /// The window algorithms' effective window in seconds (explicit or capacity ÷ refill).
    pub effective_window_s: f64,
    /// Requests that reached the load balancer, retries included.
    pub requests: u64,
    /// Admitted.
    pub admitted: u64,
    /// Rejected (429).
    pub rejected: u64,
    /// Admitted minus what one exact limiter admits on the same arrivals.
    pub over_admitted: i64,
    /// What one exact limiter admits on the same arrivals.
    pub reference_admitted: u64,
    /// Of the requests, retries.
    pub retries: u64,
    /// Rejected requests whose client gave up.
    pub gave_up: u64,
    /// Decisions made on a store timeout.
    pub timeouts: u64,
    /// Admitted requests the limiter held before serving (nginx without `nodelay`); absent when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub delayed: u64,
    /// SETs that overwrote an update they had not read.
    pub lost_updates: u64,
    /// Admitted ÷ decided.
    pub pass_ratio: f64,
    /// The analytic long-run pass ratio, `min(1, allowed rate ÷ arrival rate)`, where it
    /// applies (steady traffic, clients that give up, only admitted requests counting).
    pub predicted_pass_ratio: Option<f64>,
    /// Token bucket: `C / (λ − r)` seconds, when arrivals exceed the refill rate.
    pub predicted_first_rejection_s: Option<f64>,
    /// Decision latency percentiles, nanoseconds.
    pub latency_ns: LatencyReport,
    /// Admitted per node.
    pub node_admitted: Vec<u64>,
    /// What the server behind the limiter did, if the scenario has one (`workers`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<ServerReport>,
    /// What the store's replica cost, if it has one (`failover`, `store=replica_read`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replica: Option<ReplicaReport>,
    /// The sharded limiter's keys (`shards`), if it has more than one: what each allows, served
    /// and admitted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shards: Option<Vec<ShardReport>>,
    /// What the clients' retry budget and breaker refused, if they have one (`retry_budget`,
    /// `retry_breaker`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retry_gate: Option<GateStats>,
    /// Series bucket width in seconds.
    pub bucket_s: f64,
    /// The time series.
    pub series: Vec<Row>,
}

/// What the shared store's replica cost.
#[derive(Clone, Debug, Serialize)]
pub struct ReplicaReport {
    /// How far it lagged behind the primary, ms.
    pub lag_ms: f64,
    /// When it was promoted, seconds (`failover`), if it was.
    pub failover_s: Option<f64>,
    /// Admitted requests whose count the failover lost (the primary had acknowledged them, the
    /// replica never got them).
    pub lost_increments: u64,
    /// Reads from the replica that missed an increment the primary had made (`store =
    /// replica_read`).
    pub stale_reads: u64,
}

/// One key of a sharded limiter.
#[derive(Clone, Debug, Serialize)]
pub struct ShardReport {
    /// What the key allows: its share of the limit (of the capacity, for a bucket).
    pub limit: u64,
    /// Store operations it served (GET and SET, or the script).
    pub ops: u64,
    /// The same per second of the run.
    pub ops_per_s: f64,
    /// Requests it admitted.
    pub admitted: u64,
}

/// Latency percentiles in nanoseconds.
#[derive(Clone, Debug, Serialize)]
pub struct LatencyReport {
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Largest.
    pub max: u64,
}

/// One series bucket.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Bucket start, seconds.
    pub t: f64,
    /// Arrivals (retries included).
    pub requests: u64,
    /// Admitted.
    pub admitted: u64,
    /// Rejected.
    pub rejected: u64,
    /// Retries among the arrivals.
    pub retries: u64,
    /// Limiter level at the bucket's first decision.
    pub level: f64,
    /// Admitted per node (one entry per node).
    pub node_admitted: Vec<u32>,
    /// What the server behind the limiter did in it, if there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server: Option<ServerRow>,
}

/// Refuses scenarios too large to finish quickly, naming what to lower.
pub fn check_run_size(sc: &Scenario) -> Result<(), ParamError> {
    let total = run_requests(sc);
    if total > MAX_RUN_REQUESTS {
        return Err(ParamError {
            param: "duration".into(),
            message: format!(
                "this run could simulate {total} requests (arrivals × (1 + retries)); at most {MAX_RUN_REQUESTS} \
                 finish quickly: lower rate, duration or retries"
            ),
        });
    }
    let buckets = sc.duration.as_nanos() / sc.bucket.as_nanos().max(1);
    if buckets > MAX_RUN_BUCKETS {
        return Err(ParamError {
            param: "bucket".into(),
            message: format!("duration ÷ bucket = {buckets} buckets; at most {MAX_RUN_BUCKETS}: use a wider bucket"),
        });
    }
    Ok(())
}

/// At most how many requests (retries included) a run of `sc` for its duration can make.
pub fn run_requests(sc: &Scenario) -> u128 {
    let secs = u128::from(sc.duration.as_nanos());
    let arrivals = match sc.traffic {
        TrafficShape::Trace => sc.trace.as_ref().map_or(0, |t| t.len() as u128),
        TrafficShape::Seam => {
            let w = u128::from(sc.effective_window().as_nanos().max(1));
            secs / w * u128::from(sc.effective_limit()) + 2 * u128::from(sc.effective_limit())
        }
        _ => u128::from(sc.rate.milli()) * secs / 1_000_000_000_000,
    };
    // A spike's, within the run (`spike_rate` × its length, twice for its Poisson spread).
    let spike =
        crate::sim::products::key::span(sc.product.get(&crate::sim::server::keys::SPIKE)).map_or(0, |(a, b)| {
            let ms = u128::from(b.min(sc.duration.as_nanos() / 1_000_000).saturating_sub(a));
            2 * u128::from(sc.product.get(&crate::sim::server::keys::SPIKE_RATE)) * ms / 1_000_000
        });
    // Clients that give up never send a retry, whatever `retries` says.
    let retries = if sc.retry == RetryPolicy::GiveUp { 0 } else { u128::from(sc.max_retries) };
    (arrivals + spike) * (1 + retries)
}

/// Most lines `--format decisions` prints: every decision is kept in memory until the run ends.
pub const MAX_DECISION_ROWS: u128 = 5_000_000;

/// Runs `sc` for its duration and lists every decision as CSV, one line per request (retries
/// included) in arrival order: `t_ms,key,node,status,retry_after_ms`. `t_ms` is the arrival at the
/// load balancer, `key` the limiter's key (`global`: one limiter for every client), `status` 200
/// or 429 (503 for `algo=nginx&nginx_status=503`), `retry_after_ms` the rejection's Retry-After (empty when admitted, or on a timeout).
/// A limiter that holds admitted requests (nginx without `nodelay`, Traefik) adds `delay_ms`:
/// how long each admitted one was held.
///
/// ```
/// use ratelimit_playground::sim::{report, Scenario};
/// let csv = report::decisions_csv(&Scenario::from_query("capacity=1&refill=1&rate=2&duration=1").unwrap()).unwrap();
/// assert_eq!(csv, "t_ms,key,node,status,retry_after_ms\n0,global,0,200,\n500,global,0,429,500\n");
/// ```
pub fn decisions_csv(sc: &Scenario) -> Result<String, ParamError> {
    let rows = run_requests(sc);
    if rows > MAX_DECISION_ROWS {
        return Err(ParamError {
            param: "duration".into(),
            message: format!(
                "--format decisions: this run could make {rows} decisions; at most {MAX_DECISION_ROWS} lines are \
                 printed: lower rate, duration or retries"
            ),
        });
    }
    let sim = simulate(sc, Simulation::record_decisions)?;
    let mut log = sim.decisions().to_vec();
    // Decisions come in the order they are made; a stable sort keeps that order among equal arrivals.
    log.sort_by_key(|d| d.arrived);
    let ms = |ns: u64| crate::sim::support::decimal::format_fixed(ns, 6);
    let mut out = String::with_capacity(32 * log.len() + 40);
    let held = crate::sim::Limiter::may_delay(&sc.limiter());
    out.push_str(if held {
        "t_ms,key,node,status,retry_after_ms,delay_ms\n"
    } else {
        "t_ms,key,node,status,retry_after_ms\n"
    });
    let rejected = sc.reject_status();
    for d in &log {
        let (status, retry) = match d.verdict {
            v if v.allowed => (200, String::new()),
            v => (rejected, v.retry_after.map(|r| ms(r.as_nanos())).unwrap_or_default()),
        };
        out.push_str(&format!("{},global,{},{status},{retry}", ms(d.arrived.as_nanos()), d.node));
        if held {
            // Held from arrival to answer, exactly (a verdict keeps whole ms); with a store no
            // mode holds a request, and a late answer is the round trip.
            let alone = sc.nodes == 1 && sc.store == crate::sim::scenario::StoreMode::Local;
            let held = if alone { d.decided.as_nanos() - d.arrived.as_nanos() } else { 0 };
            let delay = if d.verdict.allowed { ms(held) } else { String::new() };
            out.push_str(&format!(",{delay}"));
        }
        out.push('\n');
    }
    Ok(out)
}

/// Runs a validated scenario for its duration (requests in flight at the end still complete).
pub fn run(sc: &Scenario) -> Result<Report, ParamError> {
    run_checked(sc, Capabilities::ALL)
}

/// [`run`] by an engine with `caps`: refused with [`Lacking`] when the scenario needs a part of
/// the engine `caps` lack, else exactly what [`run`] gives.
pub fn run_in(sc: &Scenario, caps: Capabilities) -> Result<Result<Report, ParamError>, Lacking> {
    caps.check(sc)?;
    Ok(run_checked(sc, caps))
}

/// [`run`] by an engine with `caps`, which have every part `sc` needs.
fn run_checked(sc: &Scenario, caps: Capabilities) -> Result<Report, ParamError> {
    crate::sim::shards::check(sc)?;
    simulate_in(sc, caps, |_| ()).map(|sim| {
        let mut report = Report::new(sc, sim.metrics());
        report.retry_gate = sim.behind().and_then(|b| Some(b.gate.as_ref()?.stats));
        report.replica = sim.replica().map(|r| ReplicaReport {
            lag_ms: sc.product.get(&crate::sim::store_keys::REPLICA_LAG) as f64 / 1e3,
            failover_s: crate::sim::store_keys::failover(&sc.product).map(|t| t.as_nanos() as f64 / 1e9),
            lost_increments: r.lost_increments,
            stale_reads: r.stale_reads,
        });
        report.shards = sim.shards().map(|s| {
            let secs = sc.duration.as_nanos() as f64 / 1e9;
            (0..s.ops.len())
                .map(|k| ShardReport {
                    limit: s.limits[k],
                    ops: s.ops[k],
                    ops_per_s: (s.ops[k] as f64 / secs * 1000.0).round() / 1000.0,
                    admitted: s.admitted[k],
                })
                .collect()
        });
        if let Some(s) = sim.server_stats() {
            let untouched = report.rejected == 0 && report.retries == 0;
            report.server = Some(ServerReport::new(sc, s, untouched));
            let width = sim.metrics().bucket_width.as_nanos();
            for row in &mut report.series {
                let index = (row.t * 1e9).round() as u64 / width;
                row.server = Some(ServerRow::of(s, index));
            }
        }
        report
    })
}

/// Checks `sc`, runs it for its duration with the whole series kept, and returns the finished
/// simulation; `prepare` may configure it first (e.g. to sample its state for a chart).
pub fn simulate(sc: &Scenario, prepare: impl FnOnce(&mut Simulation)) -> Result<Simulation, ParamError> {
    simulate_in(sc, Capabilities::ALL, prepare)
}

/// [`simulate`] by an engine with `caps`, which have every part `sc` needs.
fn simulate_in(
    sc: &Scenario,
    caps: Capabilities,
    prepare: impl FnOnce(&mut Simulation),
) -> Result<Simulation, ParamError> {
    sc.validate()?;
    check_run_size(sc)?;
    let buckets = (sc.duration.as_nanos() / sc.bucket.as_nanos().max(1) + 2) as usize;
    let mut sim = Simulation::try_new(sc, caps, buckets).expect("checked against the capabilities");
    prepare(&mut sim);
    sim.set_horizon(SimTime(sc.duration.as_nanos()));
    sim.run_to_end();
    // Requests in flight at the horizon finish after it; the run's clock ends at its duration.
    sim.step_until(SimTime(sc.duration.as_nanos()));
    Ok(sim)
}

impl Report {
    /// Summarises a finished run.
    pub fn new(sc: &Scenario, m: &Metrics) -> Self {
        let t = &m.totals;
        let p = |q| m.latency.percentile(q).as_nanos();
        let nodes = sc.nodes.clamp(1, MAX_NODES as u32) as usize;
        Report {
            scenario: sc.to_query_full(),
            effective_limit: sc.effective_limit(),
            effective_window_s: sc.effective_window().as_secs_f64(),
            requests: t.requests,
            admitted: t.admitted,
            rejected: t.rejected,
            over_admitted: t.over_admitted(),
            reference_admitted: t.reference_admitted,
            retries: t.retries,
            gave_up: t.gave_up,
            timeouts: t.timeouts,
            delayed: t.delayed,
            lost_updates: t.lost_updates,
            pass_ratio: t.pass_ratio(),
            predicted_pass_ratio: sc.predicted_pass_ratio(),
            predicted_first_rejection_s: sc.predicted_first_rejection(),
            latency_ns: LatencyReport { p50: p(50.0), p90: p(90.0), p99: p(99.0), max: p(100.0) },
            node_admitted: m.node_admitted[..nodes].to_vec(),
            server: None,
            replica: None,
            shards: None,
            retry_gate: None,
            bucket_s: m.bucket_width.as_secs_f64(),
            series: m
                .buckets()
                .map(|b| Row {
                    t: b.start.as_secs_f64(),
                    requests: b.requests,
                    admitted: b.admitted,
                    rejected: b.rejected,
                    retries: b.retries,
                    level: b.level,
                    node_admitted: b.node_admitted[..nodes].to_vec(),
                    server: None,
                })
                .collect(),
        }
    }

    /// Pretty JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a report always serializes") + "\n"
    }

    /// The series as CSV with a header row.
    pub fn to_csv(&self) -> String {
        let mut out = String::from("t_s,requests,admitted,rejected,retries,level");
        for n in 0..self.node_admitted.len() {
            out.push_str(&format!(",node{n}_admitted"));
        }
        out.push('\n');
        for r in &self.series {
            out.push_str(&format!("{},{},{},{},{},{}", r.t, r.requests, r.admitted, r.rejected, r.retries, r.level));
            for n in &r.node_admitted {
                out.push_str(&format!(",{n}"));
            }
            out.push('\n');
        }
        out
    }
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}
