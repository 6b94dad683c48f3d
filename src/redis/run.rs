//! [`run`]: a scenario against a real Redis, in real time — what can run ([`check`]), the
//! server's setup (and its replica's), the delay proxies, one thread per node with a connection to
//! each server, the [`Dispatcher`] feeding them, and cleanup of the run's keys on every way out.

use super::check::check;
use super::clock::Clock;
use super::conn::Conn;
use super::dispatch::Dispatcher;
use super::error::RunError;
use super::link::Link;
use super::node::{self, Key, Msg, Shared};
use super::placement::{with_extra, Placement};
use super::proxy::DelayProxy;
use super::replica::ReplicaLink;
use super::report::{
    Comparison, DecisionRow, Difference, Percentiles, ReplicaRun, ReplicaSide, RoundTrip, Server, Side,
};
use super::resp::Reply;
use super::round_trip::{proxied, scaled, wall_rtt, SETUP_TIMEOUT};
use super::url::RedisUrl;
use crate::sim::store_keys::{failover, REPLICA_LAG};
use crate::sim::{FailMode, Scenario, StoreMode};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The server.
    pub url: RedisUrl,
    /// Scenario seconds per wall second (1: real time).
    pub speed: f64,
    /// Keep every decision (for `--format decisions`).
    pub keep_decisions: bool,
    /// A replica of the server (`--replica`), for `failover=…` and `store=replica_read`.
    pub replica: Option<RedisUrl>,
    /// The server is a node of a Redis Cluster whose primaries the keys spread over (`--cluster`).
    pub cluster: bool,
}

/// What `run` returns.
pub struct Outcome {
    /// The measured and simulated runs.
    pub comparison: Comparison,
    /// Every measured decision, if asked for.
    pub decisions: Vec<DecisionRow>,
}

/// A key prefix no other run shares: the process id and the wall clock's nanoseconds.
fn run_id() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("run-{:x}-{:x}", std::process::id(), nanos & 0xffff_ffff_ffff)
}

fn server_version(conn: &mut Conn) -> String {
    let info = conn.call(&["INFO", "server"]).ok().and_then(|r| r.text()).unwrap_or_default();
    info.lines().find_map(|l| l.strip_prefix("redis_version:")).unwrap_or("unknown").trim().to_string()
}

/// Cleans up after a run with a replica: the keys at the promoted replica too, then the replica
/// back under its primary, and checks that none of the keys is left there.
fn cleanup_replica(link: ReplicaLink, primary: &RedisUrl, keys: &[String], ttl_s: u64) -> Result<(), String> {
    let replica = link.url.clone();
    // The promoted replica's copy of the keys goes; whatever happens, it replicates its primary
    // again (whose full resync would drop them anyway).
    let deleted = if link.promoted {
        Conn::open(&replica, None, SETUP_TIMEOUT)
            .and_then(|mut c| c.call(&[&["DEL".to_string()], keys].concat()))
            .map(drop)
            .map_err(|e| format!("{e}; the keys expire by themselves within {ttl_s} s"))
    } else {
        Ok(())
    };
    link.restore(primary)?;
    deleted?;
    match Conn::open(&replica, None, SETUP_TIMEOUT)?.call(&[&["EXISTS".to_string()], keys].concat())? {
        Reply::Int(0) => Ok(()),
        r => Err(format!("the run's keys are still on the replica {replica} after it resynced ({r:?})")),
    }
}

struct Nodes {
    inboxes: Vec<Sender<Msg>>,
    sockets: Vec<std::net::TcpStream>,
    threads: Vec<JoinHandle<()>>,
    _proxies: Vec<DelayProxy>,
}

/// Runs `sc` against the server in `opts`, then the engine on the same scenario.
pub fn run(sc: &Scenario, opts: &Options, interrupted: &AtomicBool) -> Result<Outcome, RunError> {
    check(sc, opts.speed, opts.replica.is_some())?;
    if opts.cluster && opts.replica.is_some() {
        return Err(RunError::Invalid(
            "--replica: a cluster's primaries have replicas of their own; measure a failover on one primary and \
             its replica, without --cluster"
                .into(),
        ));
    }
    let simulated = crate::sim::report::run(sc).map_err(|e| RunError::Invalid(e.to_string()))?;
    // The keys outlive the run by a minute, so no state expires mid-run (the engine's never
    // does), and go away by themselves should the runner be unable to delete them.
    let ttl = Clock::start(opts.speed).wall(sc.duration.as_nanos()) + Duration::from_secs(60);
    let placement =
        Placement::new(&run_id(), sc, ttl.as_millis() as u64, &opts.url, opts.cluster).map_err(RunError::Server)?;
    let extra: &[&str] = if opts.replica.is_some() { &["ledger", "probe"] } else { &[] };
    placement.check_absent(extra).map_err(RunError::Server)?;
    let key = placement.keys[0].0.key().to_string();
    let url = placement.servers[0].clone();
    let version = server_version(&mut Conn::open(&url, None, SETUP_TIMEOUT).map_err(RunError::Server)?);
    let ttl_s = placement.keys[0].0.ttl_ms().div_ceil(1000);
    let lag = Duration::from_nanos((sc.product.get(&REPLICA_LAG) as f64 * 1e3 / opts.speed) as u64);
    let mut replica = match &opts.replica {
        Some(r) => Some(ReplicaLink::attach(&url, r, lag).map_err(RunError::Server)?),
        None => None,
    };
    // From here on the keys may exist: every exit path deletes them.
    let result = measure(sc, opts, &placement, replica.as_mut(), interrupted);
    let mut cleaned = placement.cleanup(extra, ttl_s);
    if let Some(link) = replica {
        cleaned = cleaned.and(cleanup_replica(link, &url, &with_extra(&key, extra), ttl_s));
    }
    match (result, cleaned) {
        (Ok(m), Ok(())) => {
            let simulated_side = Side::simulated(&simulated, sc.store);
            let replica = m.replica.map(|(url, lag, measured)| {
                let r = simulated.replica.as_ref();
                ReplicaRun {
                    url,
                    lag_configured_ms: sc.product.get(&REPLICA_LAG) as f64 / 1e3,
                    lag_measured_ms: lag,
                    failover_s: failover(&sc.product).map(|t| t.as_nanos() as f64 / 1e9),
                    measured,
                    simulated: ReplicaSide {
                        lost_increments: r.map_or(0, |r| r.lost_increments),
                        stale_reads: r.map_or(0, |r| r.stale_reads),
                    },
                }
            });
            let keys = (opts.cluster || placement.keys.len() > 1)
                .then(|| placement.load(sc, &m.loads, &m.server_ops, &simulated));
            let comparison = Comparison {
                scenario: sc.to_query_full(),
                redis: Server { url: url.to_string(), version },
                speed: opts.speed,
                rtt: RoundTrip { configured_ms: super::report::ms(sc.rtt.as_nanos()), measured_ms: m.rtt },
                difference: Difference::between(&m.side, &simulated_side),
                measured: m.side,
                simulated: simulated_side,
                key,
                replica,
                keys,
            };
            Ok(Outcome { comparison, decisions: m.decisions })
        }
        (Ok(_), Err(e)) => Err(RunError::Server(e)),
        (Err(RunError::Server(e)), cleaned) => Err(RunError::Server(with_cleanup(e, &key, cleaned))),
        (Err(RunError::Interrupted(e)), cleaned) => Err(RunError::Interrupted(with_cleanup(e, &key, cleaned))),
        (Err(e), _) => Err(e),
    }
}

fn with_cleanup(e: String, key: &str, cleaned: Result<(), String>) -> String {
    match cleaned {
        Ok(()) => format!("{e}; deleted the run's key {key}"),
        Err(c) => format!("{e}; {c}"),
    }
}

/// What the real run measured.
struct Measured {
    side: Side,
    decisions: Vec<DecisionRow>,
    rtt: Percentiles,
    /// The replica's URL, its lag and what it cost.
    replica: Option<(String, Percentiles, ReplicaSide)>,
    /// Each key's store operations and admissions.
    loads: Vec<(u64, u64)>,
    /// Each server's store operations.
    server_ops: Vec<u64>,
}

/// Loads `script` (if the mode runs one) at `conn`; its SHA1.
fn load_script(conn: &mut Conn, url: &RedisUrl, script: Option<&str>) -> Result<String, RunError> {
    let Some(script) = script else { return Ok(String::new()) };
    match conn.call(&["SCRIPT", "LOAD", script]).map_err(RunError::Server)?.text() {
        Some(sha) if !sha.is_empty() => Ok(sha),
        _ => Err(RunError::Server(format!("Redis at {url} answered SCRIPT LOAD without a SHA1"))),
    }
}

/// One node's link to `url` (through `via`), its replies read into `inbox` by a thread of their
/// own; the socket, to close under the node at the end.
fn open_link(
    url: &RedisUrl,
    via: Option<std::net::SocketAddr>,
    index: usize,
    inbox: &Sender<Msg>,
    shared: &Shared,
    wall: Duration,
) -> Result<(Link, std::net::TcpStream), String> {
    let conn = Conn::open(url, via, SETUP_TIMEOUT + 3 * wall)?;
    conn.set_read_timeout(None)?;
    let (writer, reader) = conn.split();
    // A server that stops reading fills the socket: a write may block no longer than the stall
    // limit, and the runner can close the socket under a blocked node.
    writer.set_write_timeout(Some(shared.stall)).map_err(|e| e.to_string())?;
    let socket = writer.try_clone().map_err(|e| e.to_string())?;
    let (inbox, u) = (inbox.clone(), url.to_string());
    std::thread::spawn(move || super::link::read_replies(reader, index, inbox, u));
    Ok((Link::new(writer, url), socket))
}

fn measure(
    sc: &Scenario,
    opts: &Options,
    placement: &Placement,
    mut replica: Option<&mut ReplicaLink>,
    interrupted: &AtomicBool,
) -> Result<Measured, RunError> {
    let server = RunError::Server;
    let first = &placement.keys[0].0;
    let script = match sc.store {
        StoreMode::Atomic => Some(first.script()),
        StoreMode::Async | StoreMode::ReplicaRead => Some(first.increment_script()),
        _ => None,
    };
    let mut sha = String::new();
    let mut servers = Vec::new();
    let mut proxies: Vec<DelayProxy> = Vec::new();
    let mut rtt = None;
    for url in &placement.servers {
        sha = load_script(&mut Conn::open(url, None, SETUP_TIMEOUT).map_err(server)?, url, script)?;
        let (proxy, measured) = proxied(url, sc, opts.speed, interrupted)?;
        rtt.get_or_insert(measured);
        servers.push((url.clone(), proxy.as_ref().map(DelayProxy::addr)));
        proxies.extend(proxy);
    }
    let (url, rtt) = (&placement.servers[0], rtt.expect("a server"));
    let mut lag = None;
    if let Some(link) = replica.as_deref() {
        // The script is cached there too, for the writes after the failover.
        load_script(&mut Conn::open(&link.url, None, SETUP_TIMEOUT).map_err(server)?, &link.url, script)?;
        let (proxy, _) = proxied(&link.url, sc, opts.speed, interrupted)?;
        servers.push((link.url.clone(), proxy.as_ref().map(DelayProxy::addr)));
        proxies.extend(proxy);
        let target = Duration::from_nanos((sc.product.get(&REPLICA_LAG) as f64 * 1e3 / opts.speed) as u64);
        let measured = link.measure_lag(url, &first.aux("probe"), target).map_err(server)?;
        lag = Some(scaled(measured, opts.speed));
    }
    let wall = wall_rtt(sc, opts.speed);
    let clock = Clock::start(opts.speed);
    let ledger = replica.is_some().then(|| first.aux("ledger"));
    let shared = Arc::new(Shared {
        mode: sc.store,
        keys: placement.keys.iter().map(|(layout, on)| Key::new(layout.clone(), *on)).collect(),
        server_ops: servers.iter().map(|_| AtomicU64::new(0)).collect(),
        sha,
        clock,
        timeout: clock.wall(sc.timeout.as_nanos()),
        fail_open: sc.fail == FailMode::Open,
        count_rejected: sc.count_rejected,
        stall: node::STALL + clock.wall(sc.timeout.as_nanos()) + wall,
        ledger: ledger.clone(),
        acked: AtomicU64::new(0),
        offsets: (0..sc.nodes.max(1) as usize)
            .map(|i| crate::sim::store_keys::clock_offset(&sc.product, i, sc.nodes.max(1) as usize))
            .collect(),
    });
    let (reports_tx, reports) = mpsc::channel();
    let mut nodes = Nodes { inboxes: Vec::new(), sockets: Vec::new(), threads: Vec::new(), _proxies: proxies };
    for i in 0..sc.nodes.max(1) as usize {
        let (tx, rx) = mpsc::channel();
        let mut links = Vec::new();
        for (index, (url, via)) in servers.iter().enumerate() {
            let (link, socket) = open_link(url, *via, index, &tx, &shared, wall).map_err(server)?;
            links.push(link);
            nodes.sockets.push(socket);
        }
        let (shared, reports_tx) = (shared.clone(), reports_tx.clone());
        nodes.threads.push(std::thread::spawn(move || node::run(i, shared, links, rx, reports_tx)));
        nodes.inboxes.push(tx);
    }
    drop(reports_tx);
    let mut d = Dispatcher::new(sc, clock, opts.keep_decisions);
    let mut promote = || replica.as_deref_mut().map_or(Ok(()), ReplicaLink::promote);
    let result = d.drive(&nodes.inboxes, &reports, interrupted, &mut promote);
    for inbox in nodes.inboxes.drain(..) {
        let _ = inbox.send(Msg::Stop);
    }
    // Every decision is in (or the run failed): nothing more is read or written.
    for socket in nodes.sockets.drain(..) {
        let _ = socket.shutdown(std::net::Shutdown::Both);
    }
    for t in nodes.threads.drain(..) {
        let _ = t.join();
    }
    result?;
    d.decisions.sort_by_key(|r| r.at);
    let replica = match (replica, lag, ledger) {
        (Some(link), Some(lag), Some(ledger)) => {
            let lost_increments = if link.promoted {
                let ids = link.lost(url, &ledger).map_err(server)?;
                // Every lost write counted a request, but a script's that refused it.
                let admitted = d.admitted_ids.as_deref().unwrap_or_default();
                let counted = |&id: &u64| sc.store != StoreMode::Atomic || admitted.get(id as usize) == Some(&true);
                ids.iter().filter(|id| counted(id)).count() as u64
            } else {
                0
            };
            Some((link.url.to_string(), lag, ReplicaSide { lost_increments, stale_reads: d.stale_reads }))
        }
        _ => None,
    };
    let loads =
        shared.keys.iter().map(|k| (k.ops.load(Ordering::Relaxed), k.admitted.load(Ordering::Relaxed))).collect();
    let server_ops =
        shared.server_ops.iter().take(placement.servers.len()).map(|o| o.load(Ordering::Relaxed)).collect();
    Ok(Measured { side: d.side(sc.store), decisions: d.decisions, rtt, replica, loads, server_ops })
}
