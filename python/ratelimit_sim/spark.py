"""Shadow mode per key on Spark: ``shadow(df, query, key=…, time=…)`` groups the frame by key and
replays each group in Spark 4's grouped ``applyInArrow``, iterator form: a group streams through
in Arrow batches, so a hot key holds only its per-second counters (or 8 bytes a request with finer
stamps) in the Python worker, never all its rows. ``read_log(spark, paths)`` reads log files
(``.gz`` too) into the requests' columns with the engine's own parser.

    df = ratelimit_sim.spark.read_log(spark, "s3a://logs/2026-12-*/access.log.gz")
    per_key = ratelimit_sim.spark.shadow(df, "capacity=20&refill=2")
"""

from __future__ import annotations

from typing import Iterator

import pyarrow as pa

from . import parse, replay, requests
from ._cluster import CLUSTER_SCHEMA, check_query, origin_from_first, signed

#: The requests ``read_log`` gives, as a Spark DDL schema.
REQUESTS_DDL = "key string, time_ns long, whole_second boolean"
#: One row per key, as a Spark DDL schema.
PER_KEY_DDL = "key string, requests long, admitted long, rejected long, peak_1s long, peak_window long, first_rejected_ms long"
#: With a scope: one global counter's numbers beside the scope's.
SCOPED_DDL = PER_KEY_DDL + ", global_admitted long, global_rejected long"


def read_log(spark, paths, key: str = "ip", log_format: str | None = None):
    """Log files (a path, a glob or a list; gzip read as is) as a DataFrame of requests
    (``key``, ``time_ns``, ``whole_second``), parsed on the executors by the engine."""

    def parse_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        for batch in batches:
            yield from parse(batch.column(0), key, log_format).replace_schema_metadata(None).to_batches()

    return spark.read.text(paths).mapInArrow(parse_batches, REQUESTS_DDL)


def _first(df, time: str, unit: str | None) -> int:
    """Simulated 0 for the whole frame: the UTC midnight before its earliest time, ms."""
    from pyspark.sql import functions as F

    kind = dict(df.dtypes)[time]
    if kind == "timestamp":
        first = df.agg(F.unix_micros(F.min(F.col(time)))).first()[0]
        return origin_from_first(first * 1000, "ns")
    if kind == "timestamp_ntz":
        raise ValueError(f"time: column '{time}' is a timestamp without a time zone; cast it to a timestamp (UTC) first")
    first = df.agg(F.min(F.col(time))).first()[0]
    if first is None:
        raise ValueError("the frame has no rows")
    return origin_from_first(first, unit)


def shadow(df, query: str, key: str = "key", time: str = "time", whole_second=None, unit: str | None = None, origin_ms: int | None = None, scope: str = "global", instances: int | None = None, placement: str | None = None):
    """One row per key (``PER_KEY_DDL``): each key's requests replayed under ``query`` on their
    own, exactly as ``ratelimit-sim --log`` replays them in the whole log. ``time``, ``unit`` and
    ``whole_second`` read as ``ratelimit_sim.requests`` reads them; ``origin_ms`` (simulated 0) is
    the UTC midnight before the frame's first request unless given (one small aggregate).
    ``scope="instance"`` with ``placement="random"`` or ``"hash"`` keeps each key's counters on
    ``instances`` instances (``SCOPED_DDL``: one global counter's numbers beside them)."""
    check_query(query, scope, instances, placement)
    columns = [key, time] + ([whole_second] if isinstance(whole_second, str) else [])
    df = df.select(*columns)
    origin = _first(df, time, unit) if origin_ms is None else origin_ms

    def per_key(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        table = replay(requests(batches, key, time, whole_second, unit), query, origin, scope=scope, instances=instances, placement=placement)
        yield from signed(table, scope).to_batches()

    return df.groupBy(key).applyInArrow(per_key, schema=PER_KEY_DDL if scope == "global" else SCOPED_DDL)


__all__ = ["read_log", "shadow", "REQUESTS_DDL", "PER_KEY_DDL", "SCOPED_DDL", "CLUSTER_SCHEMA"]
