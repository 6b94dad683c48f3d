"""Shadow mode per key on Dask: ``shadow(ddf, query, key=…, time=…)`` shuffles the frame on the
key (every row of a key lands in one partition) and replays each partition's keys with
``map_partitions``. A partition is a pandas frame in memory, so a hot key needs its rows in one
worker's memory (the key and time columns only); Spark's streamed groups do not. ``read_log``
reads log files (``.gz`` too, and any fsspec URL) into the requests' columns, one partition a file.

    ddf = ratelimit_sim.dask.read_log(["access.log.1", "access.log"])
    per_key = ratelimit_sim.dask.shadow(ddf, "capacity=20&refill=2").compute()
"""

from __future__ import annotations

import pandas as pd
import pyarrow as pa

from . import REQUESTS_SCHEMA, parse, replay, requests
from ._cluster import CLUSTER_SCHEMA, check_query, origin_from_first, schema_for, signed


def _meta(schema: pa.Schema) -> pd.DataFrame:
    return schema.empty_table().to_pandas()


def _parse_file(path: str, key: str, log_format: str | None) -> pd.DataFrame:
    import fsspec

    with fsspec.open(path, mode="rt", compression="infer", encoding="utf-8", newline="") as f:
        lines = f.read().splitlines()
    return parse(lines, key, log_format).to_pandas()


def read_log(paths, key: str = "ip", log_format: str | None = None):
    """Log files (a path or a list; gzip by name) as a Dask frame of requests (``key``,
    ``time_ns``, ``whole_second``), one partition a file, parsed by the engine."""
    import dask.dataframe as dd

    paths = [paths] if isinstance(paths, str) else list(paths)
    return dd.from_map(_parse_file, paths, key=key, log_format=log_format, meta=_meta(REQUESTS_SCHEMA))


def _replay_partition(pdf: pd.DataFrame, query: str, key: str, time: str, whole_second, unit, origin_ms: int, scope: str = "global", instances=None, placement=None) -> pd.DataFrame:
    if len(pdf) == 0:
        return _meta(schema_for(scope))
    table = pa.Table.from_pandas(pdf, preserve_index=False)
    per_key = replay(requests(table, key, time, whole_second, unit), query, origin_ms, scope=scope, instances=instances, placement=placement)
    return signed(per_key, scope).to_pandas()


def shadow(ddf, query: str, key: str = "key", time: str = "time", whole_second=None, unit: str | None = None, origin_ms: int | None = None, scope: str = "global", instances: int | None = None, placement: str | None = None):
    """One row per key (``CLUSTER_SCHEMA``'s columns), a lazy Dask frame: each key's requests
    replayed under ``query`` on their own, exactly as ``ratelimit-sim --log`` replays them in the
    whole log. ``time``, ``unit`` and ``whole_second`` read as ``ratelimit_sim.requests`` reads
    them; ``origin_ms`` is the UTC midnight before the frame's first request unless given.
    ``scope="instance"`` with ``placement="random"`` or ``"hash"`` keeps each key's counters on
    ``instances`` instances (with one global counter's numbers beside them)."""
    check_query(query, scope, instances, placement)
    columns = [key, time] + ([whole_second] if isinstance(whole_second, str) else [])
    ddf = ddf[columns]
    if origin_ms is None:
        first = ddf[time].min().compute()
        if isinstance(first, pd.Timestamp):
            first, unit_first = first.value, "ns"
        else:
            unit_first = unit
        origin_ms = origin_from_first(first, unit_first)
    shuffled = ddf.shuffle(on=key)
    return shuffled.map_partitions(_replay_partition, query, key, time, whole_second, unit, origin_ms, scope, instances, placement, meta=_meta(schema_for(scope)))


__all__ = ["read_log", "shadow", "CLUSTER_SCHEMA"]
