//! What the engine decides for a scenario, request by request: the side every real-software
//! check compares against.

use ratelimit_playground::sim::{report, Nanos, Scenario, SimTime, Simulation};

/// One request as the model decided it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decided {
    /// When it arrived.
    pub at: SimTime,
    /// Admitted.
    pub allowed: bool,
    /// For an admission, how long the limiter held it.
    pub delay: Nanos,
}

/// Runs `query` for its duration and returns every decision in arrival order.
pub fn decisions(query: &str) -> Vec<Decided> {
    let sc = Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    let sim = report::simulate(&sc, Simulation::record_decisions).unwrap();
    let mut log = sim.decisions().to_vec();
    log.sort_by_key(|d| d.arrived);
    log.iter().map(|d| Decided { at: d.arrived, allowed: d.verdict.allowed, delay: d.verdict.delay() }).collect()
}

/// The model's decisions for requests at exactly `times` (ns from the start), one key.
pub fn replay(query: &str, times: &[u64]) -> Vec<Decided> {
    use ratelimit_playground::sim::Limiter;
    let sc = Scenario::from_query(query).unwrap_or_else(|e| panic!("{query}: {e}"));
    let mut limiter = sc.limiter();
    times
        .iter()
        .map(|&t| {
            let v = limiter.check(SimTime(t));
            Decided { at: SimTime(t), allowed: v.allowed, delay: v.delay() }
        })
        .collect()
}

/// How many of `a` and `b` decide alike, and the indices where they differ.
pub fn agreement(a: &[bool], b: &[bool]) -> (usize, Vec<usize>) {
    assert_eq!(a.len(), b.len(), "both sides decided every request");
    let differ: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
    (a.len() - differ.len(), differ)
}

/// Runs `program` with `args` and `envs`, `input` on its stdin, and returns its stdout: the way
/// the tests drive a library's own interpreter (Python, Ruby, PHP). A missing interpreter or a
/// failed run fails the test, naming the program and what it wrote to stderr.
pub fn run(program: &str, args: &[&str], envs: &[(&str, &std::ffi::OsStr)], input: &[u8]) -> Vec<u8> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(program)
        .args(args)
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} (scripts/bootstrap.sh --test installs it): {e}"));
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{program} {args:?} failed (scripts/bootstrap.sh --test installs what it needs): {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// The four traffic shapes every library check replays: Poisson, bursts, the window seam and a
/// steady rate.
pub const TRAFFIC: [&str; 4] = [
    "traffic=poisson&rate=30&duration=40&seed=11",
    "traffic=bursts&rate=100&burst_on=0.5&burst_off=2&duration=30",
    "traffic=seam&duration=40",
    "traffic=constant&rate=20&duration=30",
];

/// Runs `check` on `algo` under each of `policies` with each of [`TRAFFIC`]'s shapes, and
/// returns how many requests were compared.
pub fn every_shape(algo: &str, policies: &[&str], mut check: impl FnMut(&str) -> usize) -> usize {
    TRAFFIC.iter().flat_map(|t| policies.iter().map(move |p| format!("algo={algo}&{p}&{t}"))).map(|q| check(&q)).sum()
}

/// A folder of the bootstrap's tool cache: `python-real`, `node-real/node_modules`, …
pub fn cache(folder: &str) -> std::path::PathBuf {
    let home = std::env::var_os("HOME").expect("HOME is set");
    std::path::PathBuf::from(home).join(".cache/ratelimit-playground").join(folder)
}

/// `python3` with the bootstrap's PyPI packages on its path, `input` on stdin: its stdout.
pub fn python(args: &[&str], input: &[u8]) -> Vec<u8> {
    run("python3", args, &[("PYTHONPATH", cache("python-real").as_os_str())], input)
}

/// Fails unless `ours` and `real` answer alike request by request: first their decisions
/// (`allowed` of each), naming how many agree and where the first differences are (ns), then
/// whatever else the answers carry (headers, holds). `what` says what ran.
pub fn assert_alike<T: PartialEq + std::fmt::Debug>(
    what: &str,
    times: &[u64],
    ours: &[T],
    real: &[T],
    allowed: impl Fn(&T) -> bool,
) {
    let (a, b): (Vec<bool>, Vec<bool>) = (ours.iter().map(&allowed).collect(), real.iter().map(&allowed).collect());
    let (alike, differ) = agreement(&a, &b);
    assert!(
        differ.is_empty(),
        "{what}: {alike} of {} alike; first differences at ns {:?}",
        ours.len(),
        differ.iter().take(10).map(|&i| times[i]).collect::<Vec<_>>()
    );
    if let Some(i) = (0..ours.len()).find(|&i| ours[i] != real[i]) {
        panic!("{what}: the answers differ at ns {}: ours {:?}, the library's {:?}", times[i], ours[i], real[i]);
    }
}
