"""What the Spark and Dask front ends share: the per-key output schema as a cluster's frames hold
it (no unsigned integers), and simulated 0 from the first time in a column."""

from __future__ import annotations

import pyarrow as pa

from . import GLOBAL_FIELDS, PER_KEY_SCHEMA, Replayer, midnight_before, _UNIT_NS


def _signed(fields) -> pa.Schema:
    return pa.schema([pa.field(f.name, pa.int64() if pa.types.is_unsigned_integer(f.type) else f.type) for f in fields])


#: ``PER_KEY_SCHEMA`` with signed counts: Spark and pandas have no unsigned 64-bit type to spare.
CLUSTER_SCHEMA = _signed(PER_KEY_SCHEMA)
#: The same with a scope: one global counter's numbers beside the scope's.
SCOPED_SCHEMA = _signed(list(PER_KEY_SCHEMA) + GLOBAL_FIELDS)


def schema_for(scope: str) -> pa.Schema:
    """The per-key rows a cluster returns under ``scope``."""
    return CLUSTER_SCHEMA if scope == "global" else SCOPED_SCHEMA


def signed(table: pa.Table, scope: str = "global") -> pa.Table:
    """A per-key table cast to ``schema_for(scope)`` (its metadata dropped: a cluster keeps none)."""
    return table.replace_schema_metadata(None).cast(schema_for(scope))


def check_query(query: str, scope: str = "global", instances=None, placement=None) -> None:
    """Raises the CLI's ``ValueError`` on the driver, before any task runs (a bad query, or a
    scope a per-key replay cannot keep)."""
    Replayer(query, scope, instances, placement)


def origin_from_first(first, unit: str | None) -> int:
    """Simulated 0 (ms since the epoch) for a log whose earliest time is ``first``: a count of
    ``unit`` (``s`` by default) or ns already (``unit="ns"``)."""
    scale = _UNIT_NS[unit or "s"]
    return midnight_before(int(round(first * scale)) if isinstance(first, float) else int(first) * scale)
