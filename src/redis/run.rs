//! [`run`]: a scenario against a real Redis, in real time — what can run ([`check`]), the
//! server's setup, the delay proxy and its calibration, one thread and connection per node, the
//! [`Dispatcher`] feeding them, and cleanup of the run's key on every way out.

use super::clock::Clock;
use super::conn::Conn;
use super::dispatch::Dispatcher;
use super::error::RunError;
use super::layout::Layout;
use super::node::{self, Msg, Shared};
use super::proxy::DelayProxy;
use super::report::{Comparison, DecisionRow, Difference, Percentiles, RoundTrip, Server, Side};
use super::resp::Reply;
use super::url::RedisUrl;
use crate::sim::metrics::Latencies;
use crate::sim::{FailMode, Nanos, Scenario, StoreMode};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Most requests (retries included) one real run may send.
pub const MAX_REQUESTS: u128 = 2_000_000;
/// Longest wall time one real run may take.
pub const MAX_WALL: Duration = Duration::from_secs(3_600);
/// How long connecting and each setup or cleanup command may take.
const SETUP_TIMEOUT: Duration = Duration::from_secs(5);

/// How to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// The server.
    pub url: RedisUrl,
    /// Scenario seconds per wall second (1: real time).
    pub speed: f64,
    /// Keep every decision (for `--format decisions`).
    pub keep_decisions: bool,
}

/// What `run` returns.
pub struct Outcome {
    /// The measured and simulated runs.
    pub comparison: Comparison,
    /// Every measured decision, if asked for.
    pub decisions: Vec<DecisionRow>,
}

/// Checks that `sc` can run against Redis with `speed`.
pub fn check(sc: &Scenario, speed: f64) -> Result<(), RunError> {
    let invalid = |m: String| Err(RunError::Invalid(m));
    sc.validate().map_err(|e| RunError::Invalid(e.to_string()))?;
    if !sc.algo.in_first_modules() {
        return invalid(format!(
            "algo: the redis runner runs the textbook algorithms (token_bucket, gcra, fixed_window, \
             sliding_window, sliding_log), not {}",
            sc.to_query_full().split('&').next().unwrap_or_default()
        ));
    }
    if sc.store == StoreMode::Local {
        return invalid(
            "store: the redis runner needs a shared store: race, atomic or async (store=local shares nothing)".into(),
        );
    }
    if sc.store == StoreMode::ReplicaRead || crate::sim::store_keys::failover(&sc.product).is_some() {
        return invalid(
            "store: the redis runner runs one Redis; replica reads and failovers are simulated only (ratelimit-sim \
             run), not yet measured on a primary with its replica"
                .into(),
        );
    }
    if sc.outage.is_some() {
        return invalid(
            "outage: a real Redis cannot be told to go down for a while; pause it yourself (kill -STOP, then \
             kill -CONT within a few seconds) to see the nodes time out and fail open or closed"
                .into(),
        );
    }
    if sc.store == StoreMode::Atomic && sc.count_rejected {
        return invalid(
            "count_rejected: the exported Lua scripts count admitted requests only; with count_rejected=1 use \
             store=race or store=async"
                .into(),
        );
    }
    let policy = crate::production::Policy::of(sc);
    if policy.shape != crate::production::Shape::Bucket && !policy.window_ns.is_multiple_of(1_000_000) {
        return invalid(format!(
            "window: the Redis scripts take whole milliseconds and this window is {} ms; choose a whole number of \
             milliseconds",
            super::layout::ms(policy.window_ns)
        ));
    }
    if !(speed.is_finite() && (0.01..=100.0).contains(&speed)) {
        return invalid(format!(
            "--speed: {speed} is out of range; allowed: from 0.01 to 100 scenario seconds per second"
        ));
    }
    if sc.refill.milli() == 0 {
        return invalid("refill: the Redis scripts divide by the refill rate; allowed: above 0".into());
    }
    crate::sim::report::check_run_size(sc).map_err(|e| RunError::Invalid(e.to_string()))?;
    // The engine's own estimate of the run's requests (arrivals of any shape, retries included).
    let requests = crate::sim::report::run_requests(sc);
    if requests > MAX_REQUESTS {
        return invalid(format!(
            "duration: this run could send {requests} requests (arrivals × (1 + retries)); at most {MAX_REQUESTS} \
             against a real server: lower rate, duration or retries"
        ));
    }
    let wall = Clock::start(speed).wall(sc.duration.as_nanos());
    if wall > MAX_WALL {
        return invalid(format!(
            "duration: {} s at --speed {speed} takes {} s of real time; at most {} s: shorten it or raise --speed",
            sc.duration.as_nanos() / 1_000_000_000,
            wall.as_secs(),
            MAX_WALL.as_secs()
        ));
    }
    Ok(())
}

/// A key prefix no other run shares: the process id and the wall clock's nanoseconds.
fn run_id() -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("run-{:x}-{:x}", std::process::id(), nanos & 0xffff_ffff_ffff)
}

/// Connects for setup, following a Redis Cluster `MOVED` to the node that owns the key's slot.
fn open_setup(url: &RedisUrl, key: &str) -> Result<(Conn, RedisUrl), String> {
    let mut conn = Conn::open(url, None, SETUP_TIMEOUT)?;
    conn.send(&super::resp::encode(&["EXISTS", key]))?;
    match conn.recv()? {
        Reply::Error(e) if e.starts_with("MOVED") => {
            let to = e.split_whitespace().nth(2).ok_or_else(|| format!("Redis at {url} answered {e}"))?;
            let moved =
                RedisUrl::parse(&format!("redis://{to}")).map_err(|_| format!("Redis at {url} answered {e}"))?;
            let url = RedisUrl { host: moved.host, port: moved.port, ..url.clone() };
            let mut conn = Conn::open(&url, None, SETUP_TIMEOUT)?;
            expect_absent(&mut conn, key)?;
            conn.call(&["DEL", key])?;
            Ok((conn, url))
        }
        Reply::Error(e) => Err(super::conn::refusal(url, "EXISTS", &e)),
        Reply::Int(0) => {
            // The key is absent, so this deletes nothing: it checks, before anything is written,
            // that the run will be allowed to delete what it writes.
            conn.call(&["DEL", key])?;
            Ok((conn, url.clone()))
        }
        _ => Err(format!("the key {key} already exists on {url}; not touching it")),
    }
}

fn expect_absent(conn: &mut Conn, key: &str) -> Result<(), String> {
    match conn.call(&["EXISTS", key])? {
        Reply::Int(0) => Ok(()),
        _ => Err(format!("the key {key} already exists; not touching it")),
    }
}

fn server_version(conn: &mut Conn) -> String {
    let info = conn.call(&["INFO", "server"]).ok().and_then(|r| r.text()).unwrap_or_default();
    info.lines().find_map(|l| l.strip_prefix("redis_version:")).unwrap_or("unknown").trim().to_string()
}

/// `PING`s through `via` (the proxy) for about two seconds, 5 to 50 of them: the round trip nodes
/// really get, in wall ms.
fn measure_rtt(url: &RedisUrl, via: Option<std::net::SocketAddr>, rtt: Duration) -> Result<Percentiles, String> {
    let mut conn = Conn::open(url, via, SETUP_TIMEOUT + 3 * rtt)?;
    let mut l = Latencies::default();
    let pings = (2.0 / rtt.as_secs_f64().max(1e-3)).clamp(5.0, 50.0) as usize;
    for _ in 0..pings {
        let t = Instant::now();
        conn.call(&["PING"])?;
        l.record(Nanos(t.elapsed().as_nanos() as u64));
    }
    Ok(Percentiles::of(&l))
}

/// The scenario's round trip in wall time at `speed`.
fn wall_rtt(sc: &Scenario, speed: f64) -> Duration {
    Duration::from_nanos((sc.rtt.as_nanos() as f64 / speed) as u64)
}

/// Deletes the run's key; says what happened.
fn cleanup(url: &RedisUrl, key: &str, ttl_s: u64) -> Result<(), String> {
    let gone = Conn::open(url, None, SETUP_TIMEOUT).and_then(|mut c| {
        c.call(&["DEL", key])?;
        c.call(&["EXISTS", key])
    });
    match gone {
        Ok(Reply::Int(0)) => Ok(()),
        Ok(r) => Err(format!("the key {key} is still there after DEL ({r:?})")),
        Err(e) => Err(format!("could not delete the key {key} ({e}); it expires by itself within {ttl_s} s")),
    }
}

struct Nodes {
    inboxes: Vec<Sender<Msg>>,
    sockets: Vec<std::net::TcpStream>,
    threads: Vec<JoinHandle<()>>,
    _proxy: Option<DelayProxy>,
}

/// Runs `sc` against the server in `opts`, then the engine on the same scenario.
pub fn run(sc: &Scenario, opts: &Options, interrupted: &AtomicBool) -> Result<Outcome, RunError> {
    check(sc, opts.speed)?;
    let simulated = crate::sim::report::run(sc).map_err(|e| RunError::Invalid(e.to_string()))?;
    // The key outlives the run by a minute, so no state expires mid-run (the engine's never does),
    // and goes away by itself should the runner be unable to delete it.
    let ttl = Clock::start(opts.speed).wall(sc.duration.as_nanos()) + Duration::from_secs(60);
    let layout = Layout::new(&run_id(), sc, ttl.as_millis() as u64);
    let key = layout.key().to_string();
    let (mut setup, url) = open_setup(&opts.url, &key).map_err(RunError::Server)?;
    let version = server_version(&mut setup);
    let ttl_s = layout.ttl_ms().div_ceil(1000);
    // From here on the key may exist: every exit path deletes it.
    let result = measure(sc, opts, &url, layout, &mut setup, interrupted);
    drop(setup);
    let cleaned = cleanup(&url, &key, ttl_s);
    match (result, cleaned) {
        (Ok((measured, decisions, rtt)), Ok(())) => {
            let simulated = Side::simulated(&simulated, sc.store);
            let comparison = Comparison {
                scenario: sc.to_query_full(),
                redis: Server { url: url.to_string(), version },
                speed: opts.speed,
                rtt: RoundTrip { configured_ms: super::report::ms(sc.rtt.as_nanos()), measured_ms: rtt },
                difference: Difference::between(&measured, &simulated),
                measured,
                simulated,
                key,
            };
            Ok(Outcome { comparison, decisions })
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

type Measured = (Side, Vec<DecisionRow>, Percentiles);

fn measure(
    sc: &Scenario,
    opts: &Options,
    url: &RedisUrl,
    layout: Layout,
    setup: &mut Conn,
    interrupted: &AtomicBool,
) -> Result<Measured, RunError> {
    let server = RunError::Server;
    let script = match sc.store {
        StoreMode::Atomic => Some(layout.script()),
        StoreMode::Async => Some(layout.increment_script()),
        _ => None,
    };
    let sha = match script {
        Some(script) => match setup.call(&["SCRIPT", "LOAD", script]).map_err(server)?.text() {
            Some(sha) if !sha.is_empty() => sha,
            _ => return Err(RunError::Server(format!("Redis at {url} answered SCRIPT LOAD without a SHA1"))),
        },
        None => String::new(),
    };
    let proxy = if sc.rtt.as_nanos() > 0 {
        let upstream = super::conn::resolve(url, SETUP_TIMEOUT).map_err(server)?;
        let one_way = wall_rtt(sc, opts.speed) / 2;
        Some(
            DelayProxy::start(upstream, one_way)
                .map_err(|e| RunError::Server(format!("cannot start the delay proxy: {e}")))?,
        )
    } else {
        None
    };
    let via = proxy.as_ref().map(DelayProxy::addr);
    let wall = wall_rtt(sc, opts.speed);
    let mut rtt = measure_rtt(url, via, wall).map_err(server)?;
    if let Some(p) = &proxy {
        // The loopback, the server and the sleeps' overshoot come on top of the proxy's delay:
        // take them off, so that the median round trip is the configured one.
        let target = super::report::ms(wall.as_nanos() as u64);
        for _ in 0..3 {
            let excess = rtt.p50 - target;
            if excess.abs() < 0.02 {
                break;
            }
            let one_way = p.delay().as_secs_f64() - excess / 2_000.0;
            p.set_delay(Duration::from_secs_f64(one_way.max(0.0)));
            rtt = measure_rtt(url, via, wall).map_err(server)?;
            if interrupted.load(Ordering::SeqCst) {
                return Err(RunError::Interrupted("interrupted while calibrating the round trip".into()));
            }
        }
    }
    // Reported in scenario time, like every other figure.
    let scaled = |ms: f64| (ms * opts.speed * 1000.0).round() / 1000.0;
    let rtt = Percentiles { p50: scaled(rtt.p50), p99: scaled(rtt.p99) };
    let clock = Clock::start(opts.speed);
    let shared = Arc::new(Shared {
        mode: sc.store,
        layout,
        sha,
        clock,
        timeout: clock.wall(sc.timeout.as_nanos()),
        fail_open: sc.fail == FailMode::Open,
        count_rejected: sc.count_rejected,
        stall: node::STALL + clock.wall(sc.timeout.as_nanos()) + wall,
        url: url.to_string(),
    });
    let (reports_tx, reports) = mpsc::channel();
    let mut nodes = Nodes { inboxes: Vec::new(), sockets: Vec::new(), threads: Vec::new(), _proxy: proxy };
    for i in 0..sc.nodes.max(1) as usize {
        let conn = Conn::open(url, via, SETUP_TIMEOUT + 3 * wall).map_err(server)?;
        conn.set_read_timeout(None).map_err(server)?;
        let (writer, reader) = conn.split();
        // A server that stops reading fills the socket: a write may block no longer than the
        // stall limit, and the runner can close the socket under a blocked node.
        writer.set_write_timeout(Some(shared.stall)).map_err(|e| RunError::Server(e.to_string()))?;
        nodes.sockets.push(writer.try_clone().map_err(|e| RunError::Server(e.to_string()))?);
        let (tx, rx) = mpsc::channel();
        let (inbox, u) = (tx.clone(), url.to_string());
        std::thread::spawn(move || node::read_replies(reader, inbox, u));
        let (shared, reports_tx) = (shared.clone(), reports_tx.clone());
        nodes.threads.push(std::thread::spawn(move || node::run(i, shared, writer, rx, reports_tx)));
        nodes.inboxes.push(tx);
    }
    drop(reports_tx);
    let mut d = Dispatcher::new(sc, clock, opts.keep_decisions);
    let result = d.drive(&nodes.inboxes, &reports, interrupted);
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
    d.decisions.sort_by_key(|r| r.at);
    result.map(|()| (d.side(sc.store), d.decisions, rtt))
}
