#!/usr/bin/env python3
"""`make redis-table`: the README's "Measured on a real Redis" table, from `ratelimit-sim redis`.

Starts its own redis-server on a free loopback port (stopped at the end, also on failure), runs
one scenario for each node count and round trip in each shared store mode, and writes
  docs/redis-measured.json               every run's output, whole
  src/present/cluster/redis_measured.rs      the figures the multi-node view quotes
  README.md                              the table between its two markers
Then, with a replica of that server (`--replicaof`), what the store's failures cost: a failover
to a replica `replica_lag` behind, and reads from it (`store=replica_read`).
With --from-json it rewrites the last two from docs/redis-measured.json without measuring again.
"""
import json, os, pathlib, socket, subprocess, sys, tempfile, time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIM = ROOT / "target/release/ratelimit-sim"
# GET-then-SET and the atomic script: a bucket of 20 refilled at 20/s under ten times that.
BASE = "capacity=20&refill=20&rate=200&traffic=poisson&duration=10&seed=7"
# The edge design: the playground's edge preset (sim::sweep::EDGE_PRESET) for 10 s.
EDGE_BASE = "algo=sliding_window&limit=100&window=1&rate=200&traffic=poisson&lb=random&duration=10&seed=7"
# The failures: the page's stories (src/present/cluster/failures.rs), shortened.
FAILOVER_BASE = ("algo=fixed_window&limit=100&window=10&traffic=poisson&rate=40&seed=3&duration=20&nodes=4&rtt=2&"
                 "failover=11")
REPLICA_BASE = "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=30&nodes=4&rtt=2"
LAGS = [100, 200, 400, 1000]
NODES = [2, 4, 8, 16]
RTTS = [1, 5, 20]
MODES = ["race", "atomic", "async"]
BEGIN, END = "<!-- redis-table:begin -->", "<!-- redis-table:end -->"
FAILURES_BEGIN, FAILURES_END = "<!-- redis-failures:begin -->", "<!-- redis-failures:end -->"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_redis(d, *more):
    port = free_port()
    p = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                          "--appendonly", "no", "--dir", d, *more], stdout=subprocess.DEVNULL)
    for _ in range(200):
        try:
            socket.create_connection(("127.0.0.1", port), 0.1).close()
            return p, port
        except OSError:
            time.sleep(0.05)
    p.kill()
    sys.exit("redis-server did not start")


def pct(side):
    ref = side["reference_admitted"]
    return 100.0 * side["over_admitted"] / ref if ref else 0.0


def cell(side):
    return f"{side['over_admitted']:+d} ({pct(side):+.1f} %)"


def measure():
    runs = []
    with tempfile.TemporaryDirectory() as d:
        server, port = start_redis(d)
        try:
            for nodes in NODES:
                for rtt in RTTS:
                    for mode in MODES:
                        q = f"{EDGE_BASE if mode == 'async' else BASE}&nodes={nodes}&rtt={rtt}&store={mode}"
                        out = subprocess.run([str(SIM), "redis", "--url", f"redis://127.0.0.1:{port}", "--query", q],
                                             capture_output=True, text=True, check=True).stdout
                        r = json.loads(out)
                        r["redis"]["url"] = "redis://127.0.0.1:PORT/0"
                        runs.append({"nodes": nodes, "rtt_ms": rtt, "mode": mode, "result": r})
                        m, s = r["measured"], r["simulated"]
                        print(f"nodes={nodes:2} rtt={rtt:2} {mode:6} measured {cell(m):>18} simulated {cell(s):>18}",
                              file=sys.stderr)
            failures = measure_failures(port)
        finally:
            server.kill()
            server.wait()
    (ROOT / "docs/redis-measured.json").write_text(json.dumps(
        {"base": BASE, "edge_base": EDGE_BASE, "runs": runs, "failover_base": FAILOVER_BASE,
         "replica_base": REPLICA_BASE, "failures": failures}, indent=1) + "\n")
    return runs, failures


def measure_failures(port):
    """The failures' runs, with a replica of the server at `port` started (and stopped) here."""
    runs = []
    with tempfile.TemporaryDirectory() as d:
        replica, rport = start_redis(d, "--replicaof", "127.0.0.1", str(port))
        try:
            plan = []
            for lag in LAGS:
                plan += [("failover", lag, mode, f"{FAILOVER_BASE}&replica_lag={lag}&store={mode}")
                         for mode in ["atomic", "async"]]
                plan.append(("replica_read", lag, "replica_read",
                             f"{REPLICA_BASE}&replica_lag={lag}&store=replica_read"))
            for kind, lag, mode, q in plan:
                out = subprocess.run([str(SIM), "redis", "--url", f"redis://127.0.0.1:{port}", "--replica",
                                      f"redis://127.0.0.1:{rport}", "--query", q],
                                     capture_output=True, text=True, check=True).stdout
                r = json.loads(out)
                r["redis"]["url"] = "redis://127.0.0.1:PORT/0"
                r["replica"]["url"] = "redis://127.0.0.1:PORT/0"
                runs.append({"kind": kind, "lag_ms": lag, "mode": mode, "result": r})
                rm, rs = r["replica"]["measured"], r["replica"]["simulated"]
                print(f"{kind} lag={lag} {mode}: over {r['measured']['over_admitted']} vs "
                      f"{r['simulated']['over_admitted']}, lost {rm['lost_increments']} vs {rs['lost_increments']}, "
                      f"stale {rm['stale_reads']} vs {rs['stale_reads']}", file=sys.stderr)
        finally:
            replica.kill()
            replica.wait()
    return runs


def main():
    if "--from-json" in sys.argv:
        saved = json.loads((ROOT / "docs/redis-measured.json").read_text())
        runs, failures = saved["runs"], saved["failures"]
    else:
        runs, failures = measure()
    version = runs[0]["result"]["redis"]["version"]

    by = {(r["nodes"], r["rtt_ms"], r["mode"]): r["result"] for r in runs}
    lines = [f"Redis {version}. GET then SET and the atomic script: `{BASE}`; the edge design",
             f"(`store=async`): `{EDGE_BASE}`; each plus the row's `nodes` and `rtt`. Over-admitted: admitted",
             "beyond one exact limiter fed the same arrival times (in parentheses: as a share of what that one admits).", "",
             "| nodes | rtt | GET then SET, measured | simulated | edge (async), measured | simulated | atomic script, measured | simulated |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in NODES:
        for rtt in RTTS:
            row = [str(n), f"{rtt} ms"]
            for mode in ["race", "async", "atomic"]:
                r = by[(n, rtt, mode)]
                row += [cell(r["measured"]), cell(r["simulated"])]
            lines.append("| " + " | ".join(row) + " |")
    readme = (ROOT / "README.md").read_text()
    head, rest = readme.split(BEGIN)
    _, tail = rest.split(END)
    readme = head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail
    head, rest = readme.split(FAILURES_BEGIN)
    _, tail = rest.split(FAILURES_END)
    (ROOT / "README.md").write_text(head + FAILURES_BEGIN + "\n" + "\n".join(failure_lines(failures)) + "\n" +
                                    FAILURES_END + tail)

    rs = ["//! Over-admission measured on a real Redis by `ratelimit-sim redis` (`make redis-table` writes",
          "//! this file, `docs/redis-measured.json` and the README's table from one run), beside the",
          "//! engine's figure for the same scenario: the multi-node view quotes them.", "",
          "/// One measured scenario: `BASE` with `nodes`, `rtt_ms` and the store mode.",
          "#[derive(Clone, Copy, Debug, PartialEq, Eq)]",
          "pub struct Measured {",
          "    /// Nodes.", "    pub nodes: u32,", "    /// Round trip, ms.", "    pub rtt_ms: u32,",
          "    /// `race`, `atomic` or `async`.", "    pub mode: &'static str,",
          "    /// Admitted beyond one exact limiter, measured on the real server.", "    pub measured: i64,",
          "    /// The same, simulated by the engine.", "    pub simulated: i64,",
          "    /// What one exact limiter admits on the measured arrival times.", "    pub reference: u64,",
          "    /// What one exact limiter admits on the simulated arrival times.", "    pub sim_reference: u64,", "}", "",
          "/// The Redis version measured.", f"pub const VERSION: &str = {json.dumps(version)};", "",
          "/// The scenario of the race and atomic rows.", f"pub const BASE: &str = {json.dumps(BASE)};", "",
          "/// The scenario of the edge (async) rows.", f"pub const EDGE_BASE: &str = {json.dumps(EDGE_BASE)};", "",
          "/// Every measured row.", "pub const ROWS: &[Measured] = &["]
    for r in runs:
        m, s = r["result"]["measured"], r["result"]["simulated"]
        rs.append(f"    Measured {{ nodes: {r['nodes']}, rtt_ms: {r['rtt_ms']}, mode: {json.dumps(r['mode'])}, "
                  f"measured: {m['over_admitted']}, simulated: {s['over_admitted']}, reference: {m['reference_admitted']}, "
                  f"sim_reference: {s['reference_admitted']} }},")
    rs.append("];")
    rs += ["", "/// One run of a store failure: a failover (`kind` \"failover\", on `FAILOVER_BASE`) or reads",
           "/// from the replica (\"replica_read\", on `REPLICA_BASE`), the replica `lag_ms` behind.",
           "#[derive(Clone, Copy, Debug, PartialEq, Eq)]", "pub struct Failure {",
           "    /// `failover` or `replica_read`.", "    pub kind: &'static str,",
           "    /// The replica's lag, ms.", "    pub lag_ms: u32,", "    /// The store mode.", "    pub mode: &'static str,",
           "    /// Over-admitted, measured and simulated.", "    pub over: (i64, i64),",
           "    /// Lost increments (a failover) or stale reads (replica reads), measured and simulated.",
           "    pub cost: (u64, u64),", "}", "",
           "/// The failover runs' scenario, plus the row's `replica_lag` and `store`.",
           f"pub const FAILOVER_BASE: &str = {json.dumps(FAILOVER_BASE)};", "",
           "/// The replica reads' scenario, plus the row's `replica_lag` and `store=replica_read`.",
           f"pub const REPLICA_BASE: &str = {json.dumps(REPLICA_BASE)};", "",
           "/// Every failure run.", "pub const FAILURES: &[Failure] = &["]
    for f in failures:
        r = f["result"]
        m, s = r["replica"]["measured"], r["replica"]["simulated"]
        key = "lost_increments" if f["kind"] == "failover" else "stale_reads"
        rs.append(f"    Failure {{ kind: {json.dumps(f['kind'])}, lag_ms: {f['lag_ms']}, mode: {json.dumps(f['mode'])}, "
                  f"over: ({r['measured']['over_admitted']}, {r['simulated']['over_admitted']}), "
                  f"cost: ({m[key]}, {s[key]}) }},")
    rs.append("];")
    out = ROOT / "src/present/cluster/redis_measured.rs"
    out.write_text("\n".join(rs) + "\n")
    subprocess.run(["rustfmt", "--edition", "2021", "--config-path", str(ROOT / "rustfmt.toml"), str(out)], check=True)


def failure_lines(failures):
    by = {(f["kind"], f["lag_ms"], f["mode"]): f["result"] for f in failures}

    def pair(kind, lag, mode, key):
        r = by[(kind, lag, mode)]
        m, s = r["replica"]["measured"][key], r["replica"]["simulated"][key]
        return f"{m} / {r['measured']['over_admitted']:+d} ({s} / {r['simulated']['over_admitted']:+d})"

    lines = [f"With a replica of the server (`--replica`): a failover at 11 s, `{FAILOVER_BASE}`; reads from the",
             f"replica, `{REPLICA_BASE}`; each plus the row's `replica_lag` and `store`. Measured (simulated).", "",
             "| replica lag | failover, atomic script: lost / over-admitted | failover, edge (async): lost / over-admitted | replica reads: stale reads / over-admitted |",
             "|---:|---:|---:|---:|"]
    for lag in LAGS:
        lines.append(f"| {lag} ms | {pair('failover', lag, 'atomic', 'lost_increments')} | "
                     f"{pair('failover', lag, 'async', 'lost_increments')} | "
                     f"{pair('replica_read', lag, 'replica_read', 'stale_reads')} |")
    return lines


if __name__ == "__main__":
    main()
