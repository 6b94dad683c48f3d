//! Go's `golang.org/x/time/rate` (Debian's golang-golang-x-time-dev, 0.3.0, built with Debian's
//! golang-go offline in GOPATH mode) against `algo=go_rate`: every decision alike, and the wait of
//! every refusal to the nanosecond; and the program the production panel exports builds as
//! printed. Traefik's RateLimit middleware, whose glue is written out from its source on the real
//! library (go/traefik.go), against `algo=traefik`: every status, delay and header alike.

use super::model;
use ratelimit_playground::production::Policy;
use ratelimit_playground::sim::products::{config, go_rate::GoLimit, traefik::TraefikLimit};
use ratelimit_playground::sim::{Limiter, Scenario, SimTime};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Where Debian puts Go libraries' source.
const GOPATH: &str = "/usr/share/gocode";

/// `go` with the environment of an offline GOPATH build, its caches under `dir`.
fn go(dir: &Path) -> Command {
    let mut cmd = Command::new("go");
    cmd.env("GO111MODULE", "off")
        .env("GOPATH", GOPATH)
        .env("GOCACHE", dir.join("cache"))
        .env("GOFLAGS", "")
        .env("GOPROXY", "off")
        .env("CGO_ENABLED", "0")
        .current_dir(dir);
    cmd
}

/// Builds `source` as a program in a directory of its own under `dir`; the binary's path.
fn build(dir: &Path, name: &str, source: &str) -> PathBuf {
    let src = dir.join(name);
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(src.join("main.go"), source).unwrap();
    let bin = dir.join(format!("{name}.bin"));
    let out = go(&src)
        .args(["build", "-o"])
        .arg(&bin)
        .arg(".")
        .output()
        .unwrap_or_else(|e| panic!("go is not installed ({e}): scripts/bootstrap.sh --test installs golang-go"));
    assert!(out.status.success(), "go build {name}: {}", String::from_utf8_lossy(&out.stderr));
    bin
}

/// The lines a driver prints for arrivals at `times` (ns), after its first line `head`.
fn run(driver: &Path, head: &str, times: &[u64]) -> Vec<String> {
    let mut child = Command::new(driver).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut input = format!("{head}\n");
    for t in times {
        input.push_str(&format!("{t}\n"));
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()).unwrap());
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert!(out.status.success(), "the driver failed");
    let lines: Vec<String> = String::from_utf8(out.stdout).unwrap().lines().map(String::from).collect();
    assert_eq!(lines.len(), times.len(), "the driver answered every request");
    lines
}

/// The driver's answers for arrivals at `times` (ns) under `rate.NewLimiter(r, b)`.
fn replay(driver: &Path, r: &str, b: u64, times: &[u64]) -> Vec<(bool, u64)> {
    run(driver, &format!("{r} {b}"), times)
        .iter()
        .map(|l| {
            let (ok, wait) = l.split_once(' ').unwrap();
            (ok == "1", wait.parse().unwrap())
        })
        .collect()
}

#[test]
fn go_x_time_rate_decides_as_the_model_and_its_export_builds() {
    let _alone = super::exclusive();
    let dir = tempfile_dir("rate");
    let driver = build(&dir, "driver", include_str!("go/driver.go"));
    let mut total = 0;
    for policy in ["capacity=10&refill=5", "capacity=1&refill=3", "capacity=25&refill=7.777", "capacity=3&refill=0.3"] {
        for traffic in [
            "traffic=poisson&rate=40&duration=120&seed=5",
            "traffic=bursts&rate=300&burst_on=0.3&burst_off=1&duration=60",
            "traffic=constant&rate=6&duration=60",
            "traffic=constant&rate=3&duration=30",
        ] {
            let query = format!("algo=go_rate&{policy}&{traffic}");
            let sc = Scenario::from_query(&query).unwrap();
            let p = Policy::of(&sc);
            let limit = GoLimit::of(&p);
            let decided = model::decisions(&query);
            let times: Vec<u64> = decided.iter().map(|d| d.at.as_nanos()).collect();
            let theirs = replay(&driver, &p.per_sec(), limit.b, &times);
            let mut ours = sc.limiter();
            for (d, &(ok, wait)) in decided.iter().zip(&theirs) {
                let t = d.at.as_nanos();
                assert_eq!(ok, d.allowed, "{query}: request at {t} ns");
                if !ok {
                    assert_eq!(ours.status(SimTime(t)).wait.as_nanos(), wait, "{query}: the wait at {t} ns");
                }
                // The engine's limiter, stepped alongside, keeps the same state.
                assert_eq!(ours.acquire(SimTime(t)), ok, "{query} at {t}");
            }
            assert_eq!(theirs.len(), decided.len(), "{query}: the driver answered every request");
            total += decided.len();
        }
        // The program the panel exports for this policy builds as printed.
        let sc = Scenario::from_query(&format!("algo=go_rate&{policy}")).unwrap();
        let exported = config("go", &Policy::of(&sc), &sc.product).expect("the go tab");
        build(&dir, "exported", &exported.snippet);
    }
    println!("x/time/rate 0.3.0: {total} decisions, 100 % alike");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn traefik_s_glue_on_x_time_rate_answers_as_the_model() {
    let _alone = super::exclusive();
    let dir = tempfile_dir("traefik");
    let driver = build(&dir, "traefik", include_str!("go/traefik.go"));
    let mut total = 0;
    let mut held = 0;
    for policy in [
        "capacity=10&refill=5",
        "capacity=1&refill=3",
        "capacity=20&refill=12.5",
        "capacity=3&refill=0.4",
        "capacity=100&refill=1.667",
    ] {
        for traffic in [
            "traffic=poisson&rate=40&duration=120&seed=5",
            "traffic=bursts&rate=300&burst_on=0.3&burst_off=2.5&duration=60",
            "traffic=constant&rate=6&duration=60",
            "traffic=poisson&rate=0.7&duration=300&seed=2",
        ] {
            let query = format!("algo=traefik&{policy}&{traffic}");
            let sc = Scenario::from_query(&query).unwrap();
            let TraefikLimit { average, period_ns, burst } = TraefikLimit::of(&Policy::of(&sc));
            let times: Vec<u64> = model::decisions(&query).iter().map(|d| d.at.as_nanos()).collect();
            let theirs = run(&driver, &format!("{average} {period_ns} {burst}"), &times);
            let mut ours = sc.limiter();
            for (&t, line) in times.iter().zip(&theirs) {
                let d = ours.decide(SimTime(t));
                let headers = ours.headers(&d);
                let header = |name| headers.iter().find(|(n, _)| *n == name).map_or("-", |(_, v)| v.as_str());
                let delay = if d.allowed { ours.admitted_delay().as_nanos() } else { 0 };
                // A refusal's delay is in X-Retry-In, which Go prints to the nanosecond.
                let mine = if d.allowed {
                    format!("200 {delay} - -")
                } else {
                    format!("429 {} {}", header("Retry-After"), header("X-Retry-In"))
                };
                let theirs = match line.split(' ').collect::<Vec<_>>()[..] {
                    ["429", _delay, retry_after, retry_in] => format!("429 {retry_after} {retry_in}"),
                    _ => line.clone(),
                };
                assert_eq!(mine, theirs, "{query}: request at {t} ns");
                held += usize::from(delay > 0);
            }
            total += times.len();
        }
    }
    assert!(held > 100, "too few requests held to tell: {held}");
    println!("Traefik's glue on x/time/rate 0.3.0: {total} answers ({held} held), 100 % alike");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fresh directory under the system's temporary one.
fn tempfile_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rlp-go-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
