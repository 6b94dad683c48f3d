"""The rate-limit playground's engine in Python.

- ``simulate(query)``: the CLI's ``--format json`` result for a scenario query, as a dict.
- ``shadow(source, query, key="ip", log_format=None)``: shadow mode, one row per key (the CLI's
  ``per_key`` fields) as a ``pyarrow.Table`` whose metadata holds the totals. ``source`` is a path,
  a list of paths (a rotated set, merged by time; ``.gz`` read as is), or a ``pyarrow.Table`` /
  ``RecordBatchReader`` with a key column and a time column.
- ``parse(lines, key="ip", log_format=None)``: log lines read into requests (``key``, ``time_ns``,
  ``whole_second``), in no order: what a cluster's workers run before grouping by key.
- ``ratelimit_sim.spark.shadow`` and ``ratelimit_sim.dask.shadow``: the same per key on a cluster.

A key's result depends on that key's rows alone: whole-second stamps are spread over their second
by the key's own requests, from a point fixed by its name (docs/shadow-mode.md), so rows may come
in any order and split any way. The engine runs in Rust with the GIL released.
"""

from __future__ import annotations

import json
import os
from typing import Iterable, Iterator

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _native
from ._native import Replayer, midnight_before

__all__ = ["simulate", "shadow", "parse", "replay", "requests", "midnight_before", "Replayer", "PER_KEY_SCHEMA"]

#: One row per key, as the CLI's ``per_key`` (``first_rejected_ms``: ms since the epoch, or null).
PER_KEY_SCHEMA = pa.schema(
    [
        ("key", pa.string()),
        ("requests", pa.uint64()),
        ("admitted", pa.uint64()),
        ("rejected", pa.uint64()),
        ("peak_1s", pa.uint64()),
        ("peak_window", pa.uint64()),
        ("first_rejected_ms", pa.int64()),
    ]
)

#: One request: its key, its time (ns since the epoch) and whether its stamp is a whole second.
REQUESTS_SCHEMA = pa.schema([("key", pa.string()), ("time_ns", pa.int64()), ("whole_second", pa.bool_())])

_UNIT_NS = {"s": 1_000_000_000, "ms": 1_000_000, "us": 1_000, "ns": 1}


def simulate(query: str) -> dict:
    """The CLI's ``--format json`` result for ``query`` (``ValueError`` with the CLI's words)."""
    return json.loads(_native.simulate(query))


#: With a scope: what one global counter per key would have admitted and rejected.
GLOBAL_FIELDS = [pa.field("global_admitted", pa.uint64()), pa.field("global_rejected", pa.uint64())]


def _per_key_table(columns: dict) -> pa.Table:
    """The native replay's columns as a table, the totals in its metadata."""
    fields = list(PER_KEY_SCHEMA) + (GLOBAL_FIELDS if "scope" in columns else [])
    table = pa.table({f.name: pa.array(columns[f.name], type=f.type) for f in fields})
    totals = {
        "scenario": columns["scenario"],
        "requests": columns["requests_total"],
        "admitted": columns["admitted_total"],
        "rejected": columns["rejected_total"],
        "keys": table.num_rows,
        "keys_throttled": columns["keys_throttled"],
        "origin_ms": columns["origin_ms"],
    }
    if "scope" in columns:
        totals["scope"] = {"counter": columns["scope"], "global": {"admitted": sum(columns["global_admitted"]), "rejected": sum(columns["global_rejected"])}}
    return table.replace_schema_metadata({"totals": json.dumps(totals)})


def totals(table: pa.Table) -> dict:
    """The totals a per-key table carries in its metadata (requests, admitted, rejected, keys, …)."""
    return json.loads((table.schema.metadata or {})[b"totals"])


def _time_ns(column: pa.Array, name: str, unit: str | None) -> tuple[pa.Array, bool]:
    """A time column as int64 ns since the epoch, and whether its stamps are whole seconds by type
    (an Arrow ``timestamp[s]``, or integers counted in seconds)."""
    if column.null_count:
        raise ValueError(f"time: column '{name}' has {column.null_count} nulls: every request needs a time")
    t = column.type
    if pa.types.is_timestamp(t):
        if unit is not None:
            raise ValueError(f"unit: column '{name}' is a timestamp, which carries its own unit")
        return column.cast(pa.timestamp("ns", tz=t.tz)).cast(pa.int64()), t.unit == "s"
    if pa.types.is_integer(t) or pa.types.is_floating(t):
        unit = unit or "s"
        if unit not in _UNIT_NS:
            raise ValueError(f"unit: '{unit}' is not a unit; known: s | ms | us | ns")
        scale = _UNIT_NS[unit]
        if pa.types.is_integer(t):
            try:
                return pc.multiply_checked(column.cast(pa.int64()), scale), unit == "s"
            except pa.ArrowInvalid:
                raise ValueError(f"time: column '{name}' holds a time outside the years 1685–2255 (in {unit})") from None
        return pc.round(pc.multiply(column.cast(pa.float64()), float(scale))).cast(pa.int64()), False
    raise ValueError(f"time: column '{name}' is {t}; a time is a timestamp or a number of seconds (unit= for others)")


def _key_strings(column: pa.Array) -> pa.Array:
    """A key column as strings, a missing or empty key read as ``-`` (as the CLI reads it)."""
    keys = column if pa.types.is_string(column.type) or pa.types.is_large_string(column.type) else column.cast(pa.string())
    keys = pc.fill_null(keys, "-")
    return pc.if_else(pc.equal(keys, ""), "-", keys)


def _batches(source) -> Iterator[pa.RecordBatch]:
    if isinstance(source, pa.Table):
        yield from source.to_batches()
    elif isinstance(source, pa.RecordBatch):
        yield source
    elif isinstance(source, pa.RecordBatchReader):
        yield from source
    else:
        yield from source  # an iterable of record batches (Spark's iterator form)


def requests(source, key: str = "key", time: str = "time", whole_second=None, unit: str | None = None) -> Iterator[pa.RecordBatch]:
    """The requests of a table, batches or a reader, batch by batch, as ``REQUESTS_SCHEMA``.

    ``key`` and ``time`` name the columns. The time is an Arrow timestamp of any unit, or a number
    counted in ``unit`` (``s`` by default; ``ms``, ``us``, ``ns``). ``whole_second``: a column name
    (booleans), ``True``/``False`` for every row, or ``None`` for the time's type to say
    (``timestamp[s]`` or integer seconds: whole seconds, spread over their second key by key).
    """
    for batch in _batches(source):
        for name in (key, time) + ((whole_second,) if isinstance(whole_second, str) else ()):
            if name not in batch.schema.names:
                raise ValueError(f"no column '{name}'; the columns are {', '.join(batch.schema.names)}")
        ns, whole_by_type = _time_ns(batch.column(time), time, unit)
        if isinstance(whole_second, str):
            whole = pc.fill_null(batch.column(whole_second).cast(pa.bool_()), False)
        else:
            flag = whole_by_type if whole_second is None else bool(whole_second)
            whole = pa.array(np.full(len(batch), flag))
        yield pa.record_batch([_key_strings(batch.column(key)), ns, whole], schema=REQUESTS_SCHEMA)


def replay(request_batches: Iterable[pa.RecordBatch], query: str, origin_ms: int | None = None, *, scope: str = "global", instances: int | None = None, placement: str | None = None) -> pa.Table:
    """Replays requests (``REQUESTS_SCHEMA`` batches, any keys, any order) key by key under
    ``query``: one row per key. ``origin_ms``: simulated 0, ms since the epoch (by default the UTC
    midnight before the first request; a cluster passes the whole log's). ``scope="instance"``
    keeps each key's counters on ``instances`` instances placed at random or by hash (with
    ``global_admitted``/``global_rejected`` columns: one global counter's numbers)."""
    run = Replayer(query, scope, instances, placement)
    for batch in request_batches:
        if len(batch) == 0:
            continue
        encoded = batch.column(0).dictionary_encode()
        codes = np.asarray(encoded.indices.cast(pa.int32()).fill_null(0))
        ns = np.asarray(batch.column(1))
        whole = np.asarray(batch.column(2).cast(pa.uint8()).fill_null(0))
        run.feed(encoded.dictionary.to_pylist(), codes, ns, whole)
    return _per_key_table(run.finish(origin_ms))


def _paths(source) -> list[str] | None:
    if isinstance(source, (str, os.PathLike)):
        return [os.fspath(source)]
    if isinstance(source, (list, tuple)) and source and all(isinstance(p, (str, os.PathLike)) for p in source):
        return [os.fspath(p) for p in source]
    return None


def shadow(source, query: str, key: str = "ip", log_format: str | None = None, *, time: str = "time", whole_second=None, unit: str | None = None, origin_ms: int | None = None, scope: str = "global", instances: int | None = None, placement: str | None = None) -> pa.Table:
    """Shadow mode: one row per key (``PER_KEY_SCHEMA``), ranked as the CLI ranks them, with the
    totals in the metadata (``totals(table)``).

    From files (``source`` a path or a list of paths): exactly ``ratelimit-sim --query Q --log FILE
    --key KEY --format json`` (``key``: ``ip``, ``path``, ``global`` or ``field:NAME``; ``log_format``
    detected from the first line unless named). From Arrow (a ``Table``, ``RecordBatchReader`` or
    batches): ``key`` and ``time`` name the columns, read as ``requests`` says.

    ``scope``, ``instances`` and ``placement`` keep the counters as the CLI's ``--scope`` does
    (``global``, ``instance``, ``field:NAME``; files take every placement, Arrow sources random
    and hash, which depend on each key's own requests); the totals then carry ``scope``.
    """
    paths = _paths(source)
    if paths is not None:
        report = json.loads(_native.shadow_files(paths, query, key, log_format, scope, instances, placement))
        columns = {name: [row[name] for row in report["per_key"]] for name in PER_KEY_SCHEMA.names}
        table = pa.table({name: pa.array(columns[name], type=field.type) for name, field in zip(PER_KEY_SCHEMA.names, PER_KEY_SCHEMA)})
        meta = {k: report[k] for k in ("scenario", "requests", "admitted", "rejected", "keys", "keys_throttled")}
        meta["log"] = report["log"]
        if "scope" in report:
            meta["scope"] = report["scope"]
        return table.replace_schema_metadata({"totals": json.dumps(meta)})
    if log_format is not None:
        raise ValueError("log_format: names the format of log files; an Arrow source has columns")
    return replay(requests(source, key, time, whole_second, unit), query, origin_ms, scope=scope, instances=instances, placement=placement)


def parse(lines, key: str = "ip", log_format: str | None = None) -> pa.Table:
    """Log lines (a list of str, or an Arrow string array) read into requests, in no order
    (``REQUESTS_SCHEMA``); the lines that do not fit the format are counted in the metadata
    (``skipped``). ``log_format`` is detected from the first line unless named; CSV lines need
    their header, so read CSV with your engine's CSV reader and pass the columns instead."""
    array = lines if isinstance(lines, (pa.Array, pa.ChunkedArray)) else pa.array(lines, type=pa.large_string())
    if isinstance(array, pa.ChunkedArray):
        array = array.combine_chunks()
    array = pc.fill_null(array.cast(pa.large_string()), "")
    offsets = np.frombuffer(array.buffers()[1], dtype=np.int64)[array.offset : array.offset + len(array) + 1]
    data = array.buffers()[2] if array.buffers()[2] is not None else pa.py_buffer(b"")
    names, codes, ns, whole, skipped = _native.parse_lines(np.ascontiguousarray(offsets), np.frombuffer(data, dtype=np.uint8), key, log_format)
    keys = pa.DictionaryArray.from_arrays(pa.array(np.frombuffer(codes, dtype=np.uint32)), pa.array(names, type=pa.string()))
    table = pa.table(
        [keys.cast(pa.string()), pa.array(np.frombuffer(ns, dtype=np.int64)), pa.array(np.frombuffer(whole, dtype=np.uint8).astype(bool))],
        schema=REQUESTS_SCHEMA,
    )
    return table.replace_schema_metadata({"skipped": str(skipped)})
