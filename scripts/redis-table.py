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
# Skewed clocks (`--skew`, on the server) and a three-primary cluster (`--cluster`, started here):
# the page's numbers for them (tests/real/redis.rs, tests/real/redis_cluster.rs).
SKEW_BASE = "algo=fixed_window&limit=100&window=10&traffic=poisson&rate=50&seed=3&duration=30&nodes=4&rtt=2"
SKEWS = [(300, "atomic"), (1000, "atomic"), (1000, "async")]
CLUSTER_BASE = ("algo=fixed_window&limit=100&window=10&traffic=poisson&rate=10&seed=3&duration=60&nodes=4&rtt=2&"
                "store=atomic")
CLUSTER_KEYS = [1, 3, 6]
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
            failures += measure_skew(port)
            failures += measure_cluster()
        finally:
            server.kill()
            server.wait()
    (ROOT / "docs/redis-measured.json").write_text(json.dumps(
        {"base": BASE, "edge_base": EDGE_BASE, "runs": runs, "failover_base": FAILOVER_BASE,
         "replica_base": REPLICA_BASE, "skew_base": SKEW_BASE, "cluster_base": CLUSTER_BASE, "failures": failures},
        indent=1) + "\n")
    return runs, failures


def sim_json(args):
    r = json.loads(subprocess.run([str(SIM), "redis", *args], capture_output=True, text=True, check=True).stdout)
    r["redis"]["url"] = "redis://127.0.0.1:PORT/0"
    return r


def measure_skew(port):
    runs = []
    for skew, mode in SKEWS:
        r = sim_json(["--url", f"redis://127.0.0.1:{port}", "--skew", str(skew), "--query", f"{SKEW_BASE}&store={mode}"])
        runs.append({"kind": "skew", "lag_ms": skew, "mode": mode, "result": r})
        print(f"skew={skew} {mode}: over {r['measured']['over_admitted']} vs {r['simulated']['over_admitted']}",
              file=sys.stderr)
    return runs


def measure_cluster():
    """Three primaries on free ports joined by `redis-cli --cluster create`, stopped at the end."""
    runs, servers = [], []
    with tempfile.TemporaryDirectory() as d:
        try:
            ports = []
            for i in range(3):
                os.makedirs(f"{d}/{i}")
                p, port = start_redis(f"{d}/{i}", "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
                servers.append(p)
                ports.append(port)
            subprocess.run(["redis-cli", "--cluster", "create", *[f"127.0.0.1:{p}" for p in ports], "--cluster-yes"],
                           capture_output=True, check=True)
            for _ in range(400):
                infos = [subprocess.run(["redis-cli", "-p", str(p), "cluster", "info"], capture_output=True,
                                        text=True).stdout for p in ports]
                if all("cluster_state:ok" in i for i in infos):
                    break
                time.sleep(0.05)
            seeds = ",".join(f"redis://127.0.0.1:{p}" for p in ports)
            for k in CLUSTER_KEYS:
                r = sim_json(["--cluster", seeds, "--shards", str(k), "--query", CLUSTER_BASE])
                for row in r["keys"]["servers"] + r["keys"]["keys"]:
                    row["url" if "url" in row else "server"] = "redis://127.0.0.1:PORT/0"
                runs.append({"kind": "cluster", "lag_ms": k, "mode": "atomic", "result": r})
                ops = [s["ops"] for s in r["keys"]["servers"]]
                print(f"cluster keys={k}: ops per primary {ops}, over {r['measured']['over_admitted']} vs "
                      f"{r['simulated']['over_admitted']}", file=sys.stderr)
        finally:
            for p in servers:
                p.kill()
                p.wait()
    return runs


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
    rs += ["", "/// One run of a store's failure: a failover (`kind` \"failover\", on `FAILOVER_BASE`), reads from",
           "/// the replica (\"replica_read\", on `REPLICA_BASE`), skewed clocks (\"skew\", on `SKEW_BASE`) or",
           "/// a three-primary Redis Cluster (\"cluster\", on `CLUSTER_BASE`).",
           "#[derive(Clone, Copy, Debug, PartialEq, Eq)]", "pub struct Failure {",
           "    /// `failover`, `replica_read`, `skew` or `cluster`.", "    pub kind: &'static str,",
           "    /// The replica's lag or the clocks' skew, ms; the cluster's keys (`shards`).", "    pub lag_ms: u32,",
           "    /// The store mode.", "    pub mode: &'static str,",
           "    /// Over-admitted, measured and simulated.", "    pub over: (i64, i64),",
           "    /// Lost increments (a failover) or stale reads (replica reads), measured and simulated.",
           "    pub cost: (u64, u64),",
           "    /// A cluster's store operations per primary, measured.", "    pub ops: &'static [u64],", "}", "",
           "/// The failover runs' scenario, plus the row's `replica_lag` and `store`.",
           f"pub const FAILOVER_BASE: &str = {json.dumps(FAILOVER_BASE)};", "",
           "/// The replica reads' scenario, plus the row's `replica_lag` and `store=replica_read`.",
           f"pub const REPLICA_BASE: &str = {json.dumps(REPLICA_BASE)};", "",
           "/// The skewed clocks' scenario, plus the row's `skew` and `store`.",
           f"pub const SKEW_BASE: &str = {json.dumps(SKEW_BASE)};", "",
           "/// The cluster's scenario, plus the row's `shards`.",
           f"pub const CLUSTER_BASE: &str = {json.dumps(CLUSTER_BASE)};", "",
           "/// Every failure run.", "pub const FAILURES: &[Failure] = &["]
    for f in failures:
        r = f["result"]
        key = {"failover": "lost_increments", "replica_read": "stale_reads"}.get(f["kind"])
        cost = (r["replica"]["measured"][key], r["replica"]["simulated"][key]) if key else (0, 0)
        ops = [s["ops"] for s in r["keys"]["servers"]] if f["kind"] == "cluster" else []
        rs.append(f"    Failure {{ kind: {json.dumps(f['kind'])}, lag_ms: {f['lag_ms']}, mode: {json.dumps(f['mode'])}, "
                  f"over: ({r['measured']['over_admitted']}, {r['simulated']['over_admitted']}), "
                  f"cost: ({cost[0]}, {cost[1]}), ops: &{ops} }},")
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
    over = lambda r: f"{r['measured']['over_admitted']:+d} ({r['simulated']['over_admitted']:+d})"
    lines += ["", f"Skewed clocks (`--skew`): `{SKEW_BASE}`; a three-primary Redis Cluster (`--cluster`, `--shards`):",
              f"`{CLUSTER_BASE}`. Measured (simulated).", "",
              "| clocks ±300 ms, atomic | ±1 s, atomic | ±1 s, edge (async) | cluster: operations per primary, over-admitted: 1 key | 3 keys | 6 keys |",
              "|---:|---:|---:|---:|---:|---:|"]
    cells = [over(by[("skew", skew, mode)]) for skew, mode in SKEWS]
    for k in CLUSTER_KEYS:
        r = by[("cluster", k, "atomic")]
        ops = " / ".join(str(s["ops"]) for s in r["keys"]["servers"])
        cells.append(f"{ops}; {over(r)}")
    lines.append("| " + " | ".join(cells) + " |")
    return lines


if __name__ == "__main__":
    main()
