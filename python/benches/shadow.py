"""Shadow mode's throughput past one machine, in lines a second: the CLI, the package on one
process (from a file; and from Arrow, parsing and replay timed apart), Dask's LocalCluster with one
and two workers, and Spark local[2], each over the same generated log split into four files, with
where the time goes (parsing into Arrow, the shuffle by key, the engine). Prints a Markdown table.

    make bench     (or: python python/benches/shadow.py [MINUTES])
"""

from __future__ import annotations

import logging
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import ratelimit_sim as rls

ROOT = Path(__file__).resolve().parents[2]
CLI = os.environ.get("RATELIMIT_SIM", str(ROOT / "target" / "release" / "ratelimit-sim"))
QUERY = "capacity=20&refill=2"
RUNS = 3


def best_of(f, runs: int = RUNS) -> float:
    """The median of ``runs`` timings of ``f()``, seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    minutes = int(sys.argv[1]) if len(sys.argv) > 1 else 240
    work = Path(tempfile.mkdtemp(prefix="rlp-bench-"))
    whole = work / "api.log"
    subprocess.run([CLI, "--sample-log", "api", "--minutes", str(minutes), "--out", str(whole)], check=True)
    lines = whole.read_text().splitlines()
    n = len(lines)
    parts = []
    for i in range(4):
        p = work / f"part-{i}.log"
        p.write_text("\n".join(lines[i::4]) + "\n")
        parts.append(str(p))
    rows = []

    def row(name: str, seconds: float, note: str = "") -> None:
        rows.append((name, seconds, n / seconds, note))

    row("CLI `ratelimit-sim --log` (one process)", best_of(lambda: subprocess.run([CLI, "--query", QUERY, "--log", str(whole)], check=True, capture_output=True)))
    row("Python `shadow(path)` (one process)", best_of(lambda: rls.shadow(str(whole), QUERY)))
    parse = best_of(lambda: rls.parse(lines))
    table = rls.parse(lines)
    replay = best_of(lambda: rls.shadow(table, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second"))
    row("Python `parse` + `shadow(table)` (one process)", parse + replay, f"parse {parse:.2f} s, replay from Arrow {replay:.2f} s")

    from dask.distributed import Client, LocalCluster

    import ratelimit_sim.dask as rd

    logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)
    from dask.distributed import wait

    for workers in (1, 2):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster):
            ask = dict(key="key", time="time_ns", unit="ns", whole_second="whole_second", origin_ms=0)
            full = best_of(lambda: rd.shadow(rd.read_log(parts), QUERY, **ask).compute())
            # The stages apart: each persisted in the workers' memory before the next starts.
            start = time.perf_counter()
            parsed = rd.read_log(parts).persist()
            wait(parsed)
            read = time.perf_counter() - start
            shuffled = parsed.shuffle(on="key").persist()
            wait(shuffled)
            shuffle = time.perf_counter() - start - read
            shuffled.map_partitions(rd._replay_partition, QUERY, "key", "time_ns", "whole_second", "ns", 0, meta=rd._meta(rd.CLUSTER_SCHEMA)).compute()
            rest = time.perf_counter() - start - read - shuffle
            row(f"Dask LocalCluster, {workers} worker{'s' if workers > 1 else ''}", full, f"read and parse {read:.2f} s, shuffle {shuffle:.2f} s, replay {rest:.2f} s (stages persisted apart)")

    from pyspark.sql import SparkSession

    import ratelimit_sim.spark as rs

    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "4").getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    try:
        df = rs.read_log(spark, parts)
        read = best_of(lambda: df.count())
        full = best_of(lambda: rs.shadow(df, QUERY, key="key", time="time_ns", unit="ns", whole_second="whole_second", origin_ms=0).collect())
        row("Spark local[2]", full, f"read + parse {read:.2f} s, + shuffle and replay {full:.2f} s")
    finally:
        spark.stop()

    print(f"\n{n:,} lines ({minutes} min of the api sample, {len(set(l.split(' ')[0] for l in lines))} keys), median of {RUNS}:\n")
    print("| | seconds | lines/s | where the time goes |")
    print("|---|---|---|---|")
    for name, seconds, rate, note in rows:
        print(f"| {name} | {seconds:.2f} | {rate:,.0f} | {note} |")


if __name__ == "__main__":
    main()
