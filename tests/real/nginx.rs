//! Real nginx (Debian's, 1.22) with the exported `limit_req` config inside a minimal server, on
//! a free loopback port, traces replayed in real time. nginx says which millisecond `limit_req`
//! decided each request on: nginx/one_clock.c, preloaded, makes its wall clock (`$msec`) and the
//! monotonic clock `limit_req` reads one reading, and the location keeps `$msec` in the rewrite
//! phase, just before `limit_req` on the same reading. Those milliseconds replayed through
//! `algo=nginx` must admit exactly as nginx did in every millisecond, and no admission may be
//! answered sooner than the model holds it. The machine's load moves when nginx decides, never
//! what the comparison sees.

use super::model;
use ratelimit_playground::production::export;
use ratelimit_playground::sim::Scenario;
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// An nginx of our own, stopped (`-s stop`, then SIGKILL) when dropped, also when a test fails.
struct Nginx {
    dir: PathBuf,
    port: u16,
}

impl Nginx {
    /// Starts nginx with `location` (the body of `location / { }`) and `http` lines, its clocks
    /// made one by one_clock.c; every answer carries the `$msec` of its decision as
    /// `X-Decided` and of its answer as `X-Msec` (the test's lines, not part of any export).
    fn start(http: &str, location: &str) -> Nginx {
        Nginx::start_with(http, location, true)
    }

    /// [`Nginx::start`], its clocks made one (`one_clock`) or left as any nginx's are.
    fn start_with(http: &str, location: &str, one_clock: bool) -> Nginx {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let dir = std::env::temp_dir().join(format!("rlp-nginx-{}-{port}", std::process::id()));
        std::fs::create_dir_all(dir.join("html")).unwrap();
        std::fs::write(dir.join("html/index.html"), "ok\n").unwrap();
        // Workers run as an unprivileged user: the folder must be readable by them.
        Command::new("chmod").args(["-R", "755"]).arg(&dir).status().unwrap();
        let shim = if one_clock { super::preload_library("nginx/one_clock.c", &dir) } else { PathBuf::new() };
        let conf = format!(
            "daemon on;\nworker_processes 1;\npid {d}/nginx.pid;\nerror_log {d}/error.log warn;\n\
             events {{ worker_connections 1024; }}\n\
             http {{\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path {d}/tmp;\n  proxy_temp_path {d}/tmp;\n\
               fastcgi_temp_path {d}/tmp;\n  uwsgi_temp_path {d}/tmp;\n  scgi_temp_path {d}/tmp;\n  {http}\n\
               server {{\n    listen 127.0.0.1:{port};\n    location / {{\n      root {d}/html;\n      \
               set $rlp_decided $msec;\n      add_header X-Decided $rlp_decided always;\n      \
               add_header X-Msec $msec always;\n      {location}\n    }}\n  }}\n}}\n",
            d = dir.display()
        );
        std::fs::write(dir.join("nginx.conf"), conf).unwrap();
        let mut nginx = Command::new("/usr/sbin/nginx");
        nginx.arg("-c").arg(dir.join("nginx.conf")).arg("-p").arg(&dir);
        if one_clock {
            nginx.env("LD_PRELOAD", &shim);
        }
        let out =
            nginx.output().expect("nginx is installed by scripts/bootstrap.sh --test (Debian package nginx-light)");
        let server = Nginx { dir, port };
        assert!(out.status.success(), "nginx did not start: {}", String::from_utf8_lossy(&out.stderr));
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(10), "nginx did not listen on {port}");
            std::thread::sleep(Duration::from_millis(10));
        }
        server
    }

    /// Starts nginx with the production panel's nginx snippet for `sc`: the zone in `http`, the
    /// rest in the location that serves a file.
    fn exported(sc: &Scenario) -> Nginx {
        let snippet = export(sc, "nginx").unwrap().snippet;
        let lines = snippet.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
        let (http, location): (Vec<&str>, Vec<&str>) = lines.partition(|l| l.starts_with("limit_req_zone"));
        Nginx::start(&http.join("\n"), &location.join("\n      "))
    }

    /// nginx with `sc`'s exported `limit_req` in dry-run mode, logging each request in the
    /// format docs/shadow-mode.md gives (`$msec … $limit_req_status`) to `access.log`: the check
    /// a user runs on their own server, its clocks made one or left as any nginx's are.
    fn dry_run(sc: &Scenario, one_clock: bool) -> Nginx {
        let snippet = export(sc, "nginx").unwrap().snippet;
        let lines = snippet.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty());
        let (mut http, location): (Vec<&str>, Vec<&str>) = lines.partition(|l| l.starts_with("limit_req_zone"));
        http.push(DRY_RUN_LOG_FORMAT);
        let location =
            format!("{}\n      limit_req_dry_run on;\n      access_log access.log dryrun;", location.join("\n      "));
        Nginx::start_with(&http.join("\n"), &location, one_clock)
    }
}

/// The log format docs/shadow-mode.md gives for `--against nginx-dry-run`.
const DRY_RUN_LOG_FORMAT: &str =
    "log_format dryrun '$msec $remote_addr \"$request\" $status $body_bytes_sent $limit_req_status';";

impl Drop for Nginx {
    fn drop(&mut self) {
        let conf = self.dir.join("nginx.conf");
        let _ =
            Command::new("/usr/sbin/nginx").arg("-c").arg(&conf).arg("-p").arg(&self.dir).args(["-s", "stop"]).output();
        if let Ok(pid) = std::fs::read_to_string(self.dir.join("nginx.pid")) {
            std::thread::sleep(Duration::from_millis(100));
            let _ = Command::new("kill").args(["-9", pid.trim()]).output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// CLOCK_MONOTONIC in nanoseconds: the clock nginx 1.22 reads for `ngx_current_msec` on Linux.
fn monotonic_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid pointer to a timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// What one_clock.c adds to the monotonic clock to make nginx's wall clock, in ms.
const OFFSET_MS: u64 = 1_767_225_600_000;

/// One request as sent and answered.
#[derive(Clone, Copy, Debug)]
struct Answer {
    /// CLOCK_MONOTONIC just before the request was written, ns: orders requests nginx saw in
    /// the same millisecond on different connections, and measures how late they went.
    stamp: u64,
    /// The status nginx answered.
    status: u16,
    /// The millisecond of nginx's monotonic clock when `limit_req` decided (`$msec` kept in the
    /// rewrite phase, which runs just before it on the same clock reading).
    decided_ms: u64,
    /// The millisecond nginx answered in (after any delay).
    answered_ms: u64,
}

/// A millisecond header (`$msec`, "1767225612.345") as ms of nginx's monotonic clock.
fn nginx_ms(headers: &[(String, String)], name: &str) -> u64 {
    let wall: u64 = super::http::header(headers, name)
        .and_then(|v| v.replace('.', "").parse().ok())
        .unwrap_or_else(|| panic!("nginx answered without {name}: {headers:?}"));
    wall - OFFSET_MS
}

/// Sends a request at each offset of `plan` (ns from now) over `conns` keep-alive connections,
/// and returns the answers in plan order, and the monotonic ns the plan started at. One
/// connection sends each request after the last answer; a request due earlier goes late.
fn send(port: u16, plan: &[u64], conns: usize) -> (Vec<Answer>, u64) {
    let start = Instant::now() + Duration::from_millis(100);
    let start_ns = monotonic_ns() + 100_000_000;
    let plan = Arc::new(plan.to_vec());
    let (tx, rx) = mpsc::channel();
    let workers: Vec<_> = (0..conns)
        .map(|w| {
            let (plan, tx) = (plan.clone(), tx.clone());
            std::thread::spawn(move || {
                let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
                stream.set_nodelay(true).unwrap();
                stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut writer = stream;
                let request = b"GET /index.html HTTP/1.1\r\nHost: localhost\r\n\r\n";
                for i in (w..plan.len()).step_by(conns) {
                    let due = start + Duration::from_nanos(plan[i]);
                    if let Some(wait) = due.checked_duration_since(Instant::now()) {
                        std::thread::sleep(wait);
                    }
                    let stamp = monotonic_ns();
                    writer.write_all(request).unwrap();
                    let (status, headers) = super::http::read_response(&mut reader);
                    let answer = Answer {
                        stamp,
                        status,
                        decided_ms: nginx_ms(&headers, "x-decided"),
                        answered_ms: nginx_ms(&headers, "x-msec"),
                    };
                    tx.send((i, answer)).unwrap();
                }
            })
        })
        .collect();
    drop(tx);
    let mut sent = vec![None; plan.len()];
    for (i, s) in rx {
        sent[i] = Some(s);
    }
    for w in workers {
        w.join().expect("a sender thread");
    }
    (sent.into_iter().map(|s| s.expect("every request answered")).collect(), start_ns)
}

/// One trace's result.
struct Outcome {
    requests: usize,
    real_admitted: usize,
    model_admitted: usize,
    /// Requests decided alike, taken in nginx's order (its millisecond, then our write).
    alike: usize,
    /// Milliseconds whose admissions differ: (ms from the first request, nginx's, the model's).
    off_ms: Vec<(u64, usize, usize)>,
    /// Admissions answered sooner than the model holds them: (ms, held by nginx, model's delay).
    early: Vec<(u64, u64, u64)>,
    /// Requests nginx held at least a millisecond.
    held: usize,
    /// How late nginx decided against the plan, ms: mean and most.
    late_mean: f64,
    late_max: u64,
}

impl Outcome {
    fn off(&self) -> bool {
        self.requests < 2_000 || !self.off_ms.is_empty() || !self.early.is_empty()
    }
}

/// Replays `query`'s arrivals against real nginx, and nginx's own milliseconds through the model.
fn run(query: &str, conns: usize) -> Outcome {
    let sc = Scenario::from_query(query).unwrap();
    let server = Nginx::exported(&sc);
    let plan: Vec<u64> =
        model::decisions(&query.replace("algo=nginx", "algo=token_bucket")).iter().map(|d| d.at.as_nanos()).collect();
    let (sent, start_ns) = send(server.port, &plan, conns);
    drop(server);
    let statuses: Vec<u16> = sent.iter().map(|s| s.status).collect();
    assert!(statuses.iter().all(|&s| s == 200 || s == sc.reject_status()), "{query}: statuses {statuses:?}");
    // nginx's order: its millisecond, then the order the requests were written in.
    let mut order: Vec<usize> = (0..sent.len()).collect();
    order.sort_by_key(|&i| (sent[i].decided_ms, sent[i].stamp));
    let first = sent[order[0]].decided_ms;
    let ms: Vec<u64> = order.iter().map(|&i| sent[i].decided_ms - first).collect();
    let times: Vec<u64> = ms.iter().map(|m| m * 1_000_000).collect();
    let real: Vec<bool> = order.iter().map(|&i| sent[i].status == 200).collect();
    let ours = model::replay(query, &times);
    let allowed: Vec<bool> = ours.iter().map(|d| d.allowed).collect();
    let (alike, _) = model::agreement(&allowed, &real);
    // Within one millisecond nginx's requests are alike to the model whatever their order, so
    // each millisecond's admissions and holds are compared as sets.
    let (mut off_ms, mut early) = (Vec::new(), Vec::new());
    let mut k = 0;
    while k < order.len() {
        let end = k + ms[k..].iter().take_while(|&&m| m == ms[k]).count();
        let (theirs, model) =
            (real[k..end].iter().filter(|&&a| a).count(), allowed[k..end].iter().filter(|&&a| a).count());
        if theirs != model {
            off_ms.push((ms[k], theirs, model));
        }
        let mut held: Vec<u64> =
            (k..end).filter(|&j| real[j]).map(|j| sent[order[j]].answered_ms - sent[order[j]].decided_ms).collect();
        let mut delays: Vec<u64> =
            ours[k..end].iter().filter(|d| d.allowed).map(|d| d.delay.as_nanos() / 1_000_000).collect();
        held.sort_unstable();
        delays.sort_unstable();
        early.extend(held.iter().zip(&delays).filter(|(h, d)| h < d).map(|(&h, &d)| (ms[k], h, d)));
        k = end;
    }
    let late: Vec<u64> =
        sent.iter().zip(&plan).map(|(s, &p)| s.decided_ms.saturating_sub((start_ns + p) / 1_000_000)).collect();
    Outcome {
        requests: sent.len(),
        real_admitted: real.iter().filter(|&&a| a).count(),
        model_admitted: ours.iter().filter(|d| d.allowed).count(),
        alike,
        off_ms,
        early,
        held: sent.iter().filter(|s| s.status == 200 && s.answered_ms > s.decided_ms).count(),
        late_mean: late.iter().sum::<u64>() as f64 / late.len().max(1) as f64,
        late_max: late.iter().copied().max().unwrap_or(0),
    }
}

#[test]
fn real_nginx_decides_as_the_model_on_five_traces_in_real_time() {
    let _alone = super::exclusive();
    let traces = [
        ("steady overload", "capacity=10&refill=50&traffic=constant&rate=183&duration=11", 1),
        ("poisson", "capacity=20&refill=100&traffic=poisson&rate=200&duration=10&seed=9", 1),
        ("bursts", "capacity=15&refill=40&traffic=bursts&rate=183&burst_on=0.5&burst_off=0.5&duration=22", 1),
        ("seam", "algo=fixed_window&limit=100&window=1&traffic=seam&duration=20", 1),
        ("r/m rate", "capacity=5&refill=1.5&traffic=constant&rate=183&duration=11", 1),
        ("without nodelay", "capacity=10&refill=50&nodelay=0&traffic=poisson&rate=60&duration=40&seed=4", 16),
    ];
    let mut failures = Vec::new();
    for (name, query, conns) in traces {
        // RLP_NGINX_TRACE=NAME runs one trace (when working on this test).
        if std::env::var("RLP_NGINX_TRACE").is_ok_and(|only| only != name) {
            continue;
        }
        let query = format!("algo=nginx&{}", query.replace("algo=fixed_window&", ""));
        let o = run(&query, conns);
        println!(
            "nginx {name}: {} requests, decided {:.2} ms late on average (at most {} ms), {} held; admitted real {} / model {}, {:.2} % alike in nginx's order; milliseconds whose admissions differ (ms, nginx, model): {:?}; answered sooner than the model holds (ms, held, model): {:?}",
            o.requests,
            o.late_mean,
            o.late_max,
            o.held,
            o.real_admitted,
            o.model_admitted,
            100.0 * o.alike as f64 / o.requests as f64,
            o.off_ms,
            o.early
        );
        if o.off() {
            failures.push(name);
        }
    }
    assert!(failures.is_empty(), "traces off the model: {failures:?}");
}

#[test]
fn nginxs_own_dry_run_log_agrees_with_the_model_request_by_request() {
    let _alone = super::exclusive();
    // With its clocks made one, nginx's $msec is the millisecond limit_req decided on, and the
    // model must agree on every request (a clock that lags a millisecond behind the load is the
    // margin). Left as any nginx's, $msec (the wall clock) and the monotonic millisecond limit_req
    // reads can fall on two sides of a millisecond boundary: a request near a tie is then judged
    // a millisecond apart, and so is the next one (docs/shadow-mode.md: ~99 %).
    let traces = [
        ("nodelay", "algo=nginx&capacity=10&refill=5&traffic=poisson&rate=20&duration=15&seed=3", true, 99.5),
        (
            "without nodelay",
            "algo=nginx&capacity=10&refill=20&nodelay=0&traffic=poisson&rate=45&duration=12&seed=5",
            true,
            99.5,
        ),
        (
            "nodelay, nginx's own clocks",
            "algo=nginx&capacity=10&refill=5&traffic=poisson&rate=20&duration=15&seed=3",
            false,
            98.0,
        ),
    ];
    for (name, query, one_clock, least) in traces {
        let sc = Scenario::from_query(query).unwrap();
        let server = Nginx::dry_run(&sc, one_clock);
        let plan: Vec<u64> =
            model::decisions(&query.replace("algo=nginx", "algo=token_bucket").replace("&nodelay=0", ""))
                .iter()
                .map(|d| d.at.as_nanos())
                .collect();
        let (sent, _) = send(server.port, &plan, 1);
        // nginx writes each line as the request ends (no buffer=): the log is whole once answered.
        let log = server.dir.join("access.log");
        let copy = std::env::temp_dir().join(format!("rlp-dry-run-{}-{}.log", std::process::id(), server.port));
        std::fs::copy(&log, &copy).expect("nginx wrote its access log");
        drop(server);
        assert!(sent.iter().all(|a| a.status == 200), "{name}: a dry run refuses nothing");
        let out = Command::new(env!("CARGO_BIN_EXE_ratelimit-sim"))
            .args(["--query", query, "--log", copy.to_str().unwrap(), "--against", "nginx-dry-run"])
            .output()
            .unwrap();
        let _ = std::fs::remove_file(&copy);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        println!("nginx dry run, {name}: {} {} {} {}", v["agreement"], v["logged"], v["model"], v["disagreements"]);
        assert_eq!(v["agreement"]["requests"].as_u64(), Some(plan.len() as u64), "{name}: every request compared");
        assert!(v["agreement"]["percent"].as_f64().unwrap() >= least, "{name}: {}", v["agreement"]);
        let logged = |s: &str| v["logged"][s].as_u64().unwrap();
        assert!(
            logged("passed") > 0 && logged("rejected") > 0,
            "{name}: nginx would have refused some: {}",
            v["logged"]
        );
        if name == "without nodelay" {
            assert!(logged("delayed") > 0, "{name}: and delayed some: {}", v["logged"]);
        }
    }
}

#[test]
fn a_location_that_answers_with_return_never_reaches_limit_req() {
    let _alone = super::exclusive();
    // The rewrite phase (return) runs before the preaccess phase (limit_req): all 50 pass.
    let server = Nginx::start(
        "limit_req_zone $binary_remote_addr zone=api:1m rate=1r/m;",
        "limit_req zone=api;\n      limit_req_status 429;\n      return 200 \"ok\\n\";",
    );
    let (sent, _) = send(server.port, &[0; 50], 1);
    assert!(sent.iter().all(|s| s.status == 200), "{:?}", sent.iter().map(|s| s.status).collect::<Vec<_>>());
    drop(server);
    // The same limit where a file is served: one passes, the rest are refused.
    let server = Nginx::start(
        "limit_req_zone $binary_remote_addr zone=api:1m rate=1r/m;",
        "limit_req zone=api;\n      limit_req_status 429;",
    );
    let (sent, _) = send(server.port, &[0; 50], 1);
    assert_eq!(sent.iter().filter(|s| s.status == 200).count(), 1);
}
