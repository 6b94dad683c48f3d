//! Real HAProxy (Debian's, 2.6) running the production panel's frontend lines as printed, on a
//! free loopback port, with two lines of the test's own between the tracking rule and the deny
//! rule: they keep, per request, the rate the deny rule reads and HAProxy's millisecond clock,
//! sent back as headers. Traces are replayed in real time over one keep-alive connection; the
//! model, replayed on HAProxy's own millisecond stamps (`algo=haproxy`), must decide every request
//! alike and read every rate alike; run free on the trace's times, its admitted total must be
//! within 1 % (+1) of HAProxy's.

use super::model;
use ratelimit_playground::production::export;
use ratelimit_playground::sim::{Limiter, Scenario, SimTime};
use std::io::{BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// An HAProxy of our own in the foreground, killed when dropped (also when a test fails).
struct Haproxy {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Haproxy {
    /// Starts HAProxy with the exported frontend for `sc`, answering 200 itself instead of a
    /// backend.
    fn exported(sc: &Scenario) -> Haproxy {
        let snippet = export(sc, "haproxy").unwrap().snippet;
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut frontend = String::new();
        for line in snippet.lines().filter(|l| !l.starts_with('#')) {
            match line.trim() {
                "bind :8080" => frontend += &format!("    bind 127.0.0.1:{port}\n"),
                "default_backend app" => {
                    frontend += "    http-request return status 200 content-type text/plain string ok\n";
                }
                l if l.starts_with("http-request deny") => {
                    // The test's: what the deny rule is about to read, and when.
                    frontend += "    http-request set-var(txn.rate) sc_http_req_rate(0)\n";
                    frontend += "    http-request set-var(txn.ms) date(0,ms)\n";
                    frontend += &format!("{line}\n");
                }
                _ => frontend += &format!("{line}\n"),
            }
        }
        frontend += "    http-after-response set-header X-Rate %[var(txn.rate)]\n";
        frontend += "    http-after-response set-header X-Ms %[var(txn.ms)]\n";
        let conf = format!(
            "global\n    maxconn 64\n    nbthread 1\n\ndefaults\n    mode http\n    timeout connect 1s\n    timeout client 60s\n    \
             timeout server 60s\n    timeout http-keep-alive 60s\n\n{frontend}"
        );
        let dir = std::env::temp_dir().join(format!("rlp-haproxy-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("haproxy.cfg"), &conf).unwrap();
        let check = Command::new("/usr/sbin/haproxy")
            .args(["-c", "-f"])
            .arg(dir.join("haproxy.cfg"))
            .output()
            .expect("haproxy is installed by scripts/bootstrap.sh --test (Debian package haproxy)");
        assert!(check.status.success(), "haproxy -c: {}\n{conf}", String::from_utf8_lossy(&check.stderr));
        let child = Command::new("/usr/sbin/haproxy")
            .args(["-db", "-f"])
            .arg(dir.join("haproxy.cfg"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = Haproxy { child, port, dir };
        let start = Instant::now();
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(start.elapsed() < Duration::from_secs(10), "haproxy did not listen on {port}");
            std::thread::sleep(Duration::from_millis(10));
        }
        server
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// One answer: the status, the rate the deny rule read and HAProxy's clock then, ms.
#[derive(Clone, Copy, Debug)]
struct Answer {
    status: u16,
    rate: u64,
    ms: u64,
}

/// Reads one response off `r`, with the headers the test's lines add.
fn read_answer(r: &mut BufReader<TcpStream>) -> Answer {
    let (status, headers) = super::http::read_response(r);
    let number = |name| super::http::header(&headers, name).and_then(|v| v.parse().ok()).expect(name);
    Answer { status, rate: number("x-rate"), ms: number("x-ms") }
}

/// Sends a request at each offset of `plan` (ns from now), one after the other's answer.
fn send(port: u16, plan: &[u64]) -> Vec<Answer> {
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_nodelay(true).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    let start = Instant::now() + Duration::from_millis(50);
    plan.iter()
        .map(|&at| {
            if let Some(wait) = (start + Duration::from_nanos(at)).checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
            writer.write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").unwrap();
            read_answer(&mut reader)
        })
        .collect()
}

/// Runs one trace through a fresh HAProxy and checks it against the model: every decision and
/// every rate read alike on HAProxy's clock, the free run's admitted total within 1 % (+1).
fn check(query: &str) -> Result<usize, String> {
    let sc = Scenario::from_query(query).unwrap();
    let free = model::decisions(query);
    let plan: Vec<u64> = free.iter().map(|d| d.at.as_nanos()).collect();
    let server = Haproxy::exported(&sc);
    let answers = send(server.port, &plan);
    drop(server);
    // HAProxy's clock, from an even millisecond (its periods start on even ones).
    let base = answers[0].ms & !1;
    let mut ours = sc.limiter();
    for (i, a) in answers.iter().enumerate() {
        if a.status != 200 && a.status != 429 {
            return Err(format!("{query}: status {}", a.status));
        }
        let at = SimTime((a.ms - base) * 1_000_000);
        let allowed = ours.acquire(at);
        if (a.status == 200) != allowed {
            return Err(format!(
                "{query}: request {i} at HAProxy's ms {}: HAProxy {}, the model {allowed}",
                a.ms, a.status
            ));
        }
        let rate = ours.gauge(at).level as u64;
        if rate != a.rate {
            return Err(format!(
                "{query}: the rate read for request {i} at ms {}: HAProxy {}, the model {rate}",
                a.ms, a.rate
            ));
        }
    }
    let real = answers.iter().filter(|a| a.status == 200).count();
    let free = free.iter().filter(|d| d.allowed).count();
    if real.abs_diff(free) > 1 + real / 100 {
        return Err(format!("{query}: HAProxy admitted {real}, the model on the trace {free}"));
    }
    Ok(answers.len())
}

/// HAProxy's rates run on its internal clock (`now_ms`), the stamps the test reads on its wall
/// clock (`date`): one offset apart, which HAProxy steps by a fraction of a millisecond when it
/// sees its poll come back over 100 ms late (`clock_update_date` in src/clock.c) — a stall a
/// loaded two-core CI machine can cause. From then on the stamps no longer name the millisecond
/// the rate was read in. So a trace that disagrees runs once more on a fresh HAProxy and must then
/// agree in full: a model that is wrong disagrees both times. HAProxy runs one thread
/// (`nbthread 1`), so no idle thread's late poll steps the offset the serving thread uses.
#[test]
fn haproxy_decides_and_reads_the_rate_as_the_model_on_its_own_clock() {
    let _alone = super::exclusive();
    let mut total = 0;
    for policy in ["limit=10&window=1", "limit=5&window=2.5", "limit=20&window=0.999"] {
        for traffic in [
            "traffic=poisson&rate=40&duration=6&seed=5",
            "traffic=bursts&rate=200&burst_on=0.4&burst_off=1.1&duration=6",
            "traffic=constant&rate=25&duration=5",
        ] {
            let query = format!("algo=haproxy&{policy}&{traffic}");
            total += check(&query)
                .or_else(|first| {
                    println!("HAProxy disagreed once, run again on a fresh one: {first}");
                    check(&query)
                })
                .unwrap_or_else(|second| panic!("{second}"));
        }
    }
    println!("HAProxy 2.6: {total} requests, every decision and rate alike on its clock");
}
