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
