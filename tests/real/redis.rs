//! `ratelimit-sim redis` against a real redis-server: the atomic script never admits more than
//! one exact limiter, GET-then-SET over-admits about as much as the engine says, the edge design
//! grows with nodes and round trip as simulated, nothing is left behind, and failures are clear.
//!
//! The runs are real time, so they take the lock below one at a time: two at once on a 2-core
//! machine would disturb each other's timing.

use super::redis_server::RedisServer;
use serde_json::Value;
use std::process::{Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ratelimit-sim")).args(args).output().expect("ratelimit-sim runs")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `ratelimit-sim redis --url <server> --query <query> <extra…>`.
fn sim_redis(server: &RedisServer, query: &str, extra: &[&str]) -> Output {
    let url = server.url().to_string();
    sim(&[&["redis", "--url", url.as_str(), "--query", query], extra].concat())
}

/// Runs `query` against `server`; the parsed JSON.
fn run(server: &RedisServer, query: &str) -> Value {
    let o = sim_redis(server, query, &[]);
    assert!(o.status.success(), "{query}: {}", stderr(&o));
    assert!(server.keys().is_empty(), "{query} left keys behind: {:?}", server.keys());
    serde_json::from_slice(&o.stdout).unwrap()
}

fn int(v: &Value, side: &str, key: &str) -> i64 {
    v[side][key].as_i64().unwrap_or_else(|| panic!("{side}.{key} in {v}"))
}

/// Contention: 4 nodes, 400 requests/s (Poisson, so no two store operations tie exactly)
/// against a bucket of 10 refilled at 100/s, 5 ms from Redis.
const CONTENDED: &str = "nodes=4&rtt=5&rate=400&traffic=poisson&capacity=10&refill=100&seed=3";

#[test]
fn the_atomic_script_never_admits_more_than_one_exact_limiter() {
    let _one = serial();
    let server = RedisServer::start();
    for algo in ["token_bucket", "fixed_window", "sliding_window", "sliding_log"] {
        let v = run(&server, &format!("{CONTENDED}&store=atomic&algo={algo}&duration=2"));
        // Same arrivals on both sides; the measured reference sees the measured arrival times.
        assert_eq!(int(&v, "measured", "requests"), int(&v, "simulated", "requests"), "{algo}");
        assert_eq!(int(&v, "simulated", "over_admitted"), 0, "{algo}");
        // Two nodes' requests a few µs apart can reach Redis in the other order. The bucket script
        // never moves its time backwards for the late one, so it never admits more than the exact
        // limiter (a few fewer when a full bucket caps). The window scripts count a late request
        // in the newer window (they never move a window back either): if it straddles a boundary,
        // it can take the newer window's room where the exact limiter, in time order, found the
        // older one full — one more admitted now, one fewer later in that window, so a run can
        // end one up. (This test failed once in about 30 runs this session, message not kept;
        // 24 runs of the four scripts alone all gave 0.) 2 is the bound for the windows.
        let over = int(&v, "measured", "over_admitted");
        let allowed = if algo == "token_bucket" { -3..=0 } else { -3..=2 };
        assert!(allowed.contains(&over), "{algo}: over-admitted {over}: {v}");
        assert!(v["measured"]["lost_updates"].is_null());
    }
}

/// How far the measured race may be from the simulated one: 15 % of the simulated figure.
///
/// GET-then-SET over-admits in proportion to how long a GET's value is stale before its SET
/// lands: the round trip plus the node's own time between reading and writing. The delay proxy
/// is calibrated so the median PING takes the configured round trip (within 20 µs); what remains
/// is the node's processing and the threads' wake-up jitter, a few tenths of a millisecond. At
/// 20 ms that is 1–2 % of the window: `make redis-table` measured 2, 4, 8 and 16 nodes within 9 %
/// of the simulation (within 15 % at 5 ms, and 15–75 % above it at 1 ms, where those tenths
/// weigh twenty times more; see docs/redis-measured.md). This test's scenario measured 3–5 %
/// above the simulation on an idle machine and 6.4 % with both cores busy with other processes;
/// 15 % leaves room for a busier CI machine while a wrong model (the race missed, or doubled)
/// still fails.
const RACE_TOLERANCE: f64 = 0.15;

#[test]
fn get_then_set_over_admits_about_as_much_as_simulated() {
    let _one = serial();
    let server = RedisServer::start();
    // Ten times the refill rate, 20 ms from Redis: far from both zero and admitting everything.
    let q = "nodes=4&store=race&rtt=20&rate=200&traffic=poisson&capacity=20&refill=20&duration=5&seed=7";
    let v = run(&server, q);
    let (m, s) = (int(&v, "measured", "over_admitted"), int(&v, "simulated", "over_admitted"));
    assert!(s > 100 && s < int(&v, "simulated", "requests") - 300, "the scenario must contend, not saturate: {v}");
    assert!(m > 0, "a real Redis must over-admit under contention: {v}");
    let off = (m - s).abs() as f64 / s as f64;
    eprintln!("GET then SET over-admitted {m} on a real Redis, {s} simulated ({:.1} % apart)", off * 100.0);
    assert!(off <= RACE_TOLERANCE, "measured {m} against simulated {s}: {:.1} % apart", off * 100.0);
    assert!(int(&v, "measured", "lost_updates") > 0, "{v}");
    let rtt = v["rtt"]["measured_ms"]["p50"].as_f64().unwrap();
    assert!((rtt - 20.0).abs() < 0.5, "the proxy's round trip is {rtt} ms, not 20");
}

#[test]
fn the_edge_design_overshoots_more_with_more_nodes_and_longer_round_trips_as_simulated() {
    let _one = serial();
    let server = RedisServer::start();
    let edge = "algo=sliding_window&limit=100&window=1&rate=200&traffic=poisson&lb=random&store=async&duration=4";
    let mut measured = Vec::new();
    for (nodes, rtt) in [(2, 5), (8, 5), (8, 50)] {
        let v = run(&server, &format!("{edge}&nodes={nodes}&rtt={rtt}"));
        let (m, s) = (int(&v, "measured", "over_admitted"), int(&v, "simulated", "over_admitted"));
        // Small counts: within 25 % of the simulated figure or 5 requests, whichever is more.
        let slack = (s as f64 * 0.25).max(5.0);
        assert!(((m - s).abs() as f64) <= slack, "nodes={nodes} rtt={rtt}: measured {m}, simulated {s}");
        measured.push(m);
    }
    assert!(measured[0] < measured[1] && measured[1] < measured[2], "overshoot should grow: {measured:?}");
}

#[test]
fn decisions_csv_has_one_line_per_measured_request() {
    let _one = serial();
    let server = RedisServer::start();
    let o = sim_redis(&server, "nodes=2&store=race&rate=50&duration=1", &["--format", "decisions"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = String::from_utf8(o.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("t_ms,key,node,status,retry_after_ms,latency_ms,retry,timed_out"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 50);
    assert!(rows.iter().all(|r| r.len() == 8 && (r[3] == "200" || r[3] == "429") && r[1].starts_with("rlp:{run-")));
    assert!(server.keys().is_empty());
}

/// Starts a 30-second run of `query` against `server` and lets it go for 1.5 s.
fn run_in_background(server: &RedisServer, query: &str) -> std::process::Child {
    let child = Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
        .args(["redis", "--url", &server.url().to_string(), "--query", query])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    child
}

#[test]
fn a_server_stopped_mid_run_is_a_clear_error_and_nothing_hangs() {
    let _one = serial();
    let mut server = RedisServer::start();
    let child = run_in_background(&server, "nodes=3&store=race&rate=100&duration=30");
    server.kill();
    let start = Instant::now();
    let o = child.wait_with_output().unwrap();
    assert!(start.elapsed() < Duration::from_secs(15), "took {:?} to give up", start.elapsed());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("lost the connection to Redis at redis://127.0.0.1:"), "{e}");
    assert!(e.contains("expires by itself"), "says what became of the key: {e}");
}

#[test]
fn a_frozen_server_is_a_clear_error_after_the_stall_limit_not_a_hang() {
    let _one = serial();
    let server = RedisServer::start();
    // No proxy (rtt=0): the nodes write straight into the frozen server's socket.
    let child = run_in_background(&server, "nodes=2&store=race&rtt=0&rate=200&duration=30");
    server.pause();
    let start = Instant::now();
    let o = child.wait_with_output().unwrap();
    // 5 s without a reply beyond the 100 ms timeout, then up to 5 s trying to delete the key.
    assert!(start.elapsed() < Duration::from_secs(20), "took {:?} to give up", start.elapsed());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("has not answered node") && e.contains("expires by itself within 90 s"), "{e}");
}

#[test]
fn ctrl_c_stops_the_run_and_deletes_its_key() {
    let _one = serial();
    let server = RedisServer::start();
    let child = run_in_background(&server, "nodes=2&store=atomic&rate=100&duration=30");
    assert!(!server.keys().is_empty(), "the run should be writing its key by now");
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    assert!(stderr(&o).contains("interrupted after"), "{}", stderr(&o));
    assert!(stderr(&o).contains("deleted the run's key"), "{}", stderr(&o));
    assert!(server.keys().is_empty(), "{:?}", server.keys());
}

#[test]
fn a_command_refused_by_an_acl_is_a_clear_error_with_nothing_left_behind() {
    let _one = serial();
    let server = RedisServer::start();
    server.call(&["ACL", "SETUSER", "limited", "on", ">pw", "~*", "+@all", "-evalsha"]);
    server.call(&["SET", "someone-elses-key", "1"]);
    let url = format!("redis://limited:pw@127.0.0.1:{}", server.url().port);
    let o = sim(&["redis", "--url", &url, "--query", "nodes=2&store=atomic&rate=20&duration=2"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("refused EVALSHA") && e.contains("NOPERM"), "{e}");
    assert!(!e.contains("pw@"), "the password is never printed: {e}");
    assert_eq!(server.keys(), ["someone-elses-key"], "only the run's own key is ever touched");
}

#[test]
fn a_user_who_may_not_delete_is_refused_before_anything_is_written() {
    let _one = serial();
    let server = RedisServer::start();
    server.call(&["ACL", "SETUSER", "nodel", "on", ">pw", "~*", "+@all", "-del"]);
    let url = format!("redis://nodel:pw@127.0.0.1:{}", server.url().port);
    let o = sim(&["redis", "--url", &url, "--query", "nodes=2&store=race&rate=20&duration=2"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("refused DEL") && stderr(&o).contains("NOPERM"), "{}", stderr(&o));
    assert!(server.keys().is_empty(), "{:?}", server.keys());
}

#[test]
fn unreachable_servers_and_unusable_scenarios_are_refused_clearly() {
    let _alone = super::exclusive();
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let o = sim(&["redis", "--url", &format!("redis://127.0.0.1:{port}"), "--query", "nodes=2&store=race"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&format!("cannot reach Redis at redis://127.0.0.1:{port}/0")), "{}", stderr(&o));
    let bad = [
        ("nodes=2&store=local", "store:"),
        ("nodes=2&store=race&outage=5-10", "outage:"),
        ("nodes=2&store=race&rate=abc", "rate"),
        ("nodes=2&store=atomic&count_rejected=1", "count_rejected: the exported Lua scripts count admitted"),
        (
            "nodes=2&store=race&algo=fixed_window&capacity=10&refill=3",
            "window: the Redis scripts take whole milliseconds",
        ),
    ];
    for (q, names) in bad {
        let o = sim(&["redis", "--url", "redis://127.0.0.1:1", "--query", q]);
        assert_eq!(o.status.code(), Some(2), "{q}");
        assert!(stderr(&o).contains(names), "{q}: {}", stderr(&o));
    }
    let o = sim(&["redis", "--url", "redis://127.0.0.1:1", "--query", "store=race", "--speed", "1000"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--speed: 1000 is out of range"), "{}", stderr(&o));
    let o = sim(&["redis", "--url", "http://127.0.0.1", "--query", "store=race"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--url: 'http://127.0.0.1' does not start with redis://"), "{}", stderr(&o));
}

#[test]
fn speed_runs_the_scenario_faster_and_reports_in_scenario_time() {
    let _one = serial();
    let server = RedisServer::start();
    let start = Instant::now();
    let o = sim_redis(&server, "nodes=2&store=race&rtt=20&rate=50&duration=8", &["--speed", "4"]);
    let took = start.elapsed();
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(int(&v, "measured", "requests"), 400);
    assert!(took < Duration::from_secs(6), "8 scenario seconds at 4× took {took:?}");
    let rtt = v["rtt"]["measured_ms"]["p50"].as_f64().unwrap();
    assert!((rtt - 20.0).abs() < 2.0, "the round trip in scenario time is {rtt} ms, not 20");
    assert!(server.keys().is_empty());
}

#[test]
fn skewed_node_clocks_over_admit_at_window_edges_as_simulated() {
    let _one = serial();
    let server = RedisServer::start();
    // 100 per 10 s at 50/s, four nodes stamping with clocks ±1 s apart: the node ahead opens each
    // window early and the exported script never moves a window back, so every window starts
    // up to a second early. Measured 37 vs 37 (atomic) and 24 vs 24 (async) on an idle machine.
    let q = "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=30&nodes=4&rtt=2";
    for store in ["atomic", "async"] {
        let o = sim_redis(&server, &format!("{q}&store={store}"), &["--skew", "1000", "--speed", "3"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(server.keys().is_empty());
        let v: Value = serde_json::from_slice(&o.stdout).unwrap();
        assert!(v["scenario"].as_str().unwrap().contains("skew=1000"), "{v}");
        let (m, s) = (int(&v, "measured", "over_admitted"), int(&v, "simulated", "over_admitted"));
        assert!(s > 15 && (m - s).abs() as f64 <= (s as f64 * 0.15).max(3.0), "{store}: measured {m}, simulated {s}");
    }
    // The exported scripts take `now` from the caller: a store's clock is simulated only.
    let o = sim_redis(&server, &format!("{q}&store=atomic&skew=100&now=server"), &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("now: the runner stamps requests"), "{}", stderr(&o));
}
