"""What the Spark and Dask front ends share: the per-key output schema as a cluster's frames hold
it (no unsigned integers), and simulated 0 from the first time in a column."""

from __future__ import annotations

import pyarrow as pa

from . import PER_KEY_SCHEMA, Replayer, midnight_before, _UNIT_NS

#: ``PER_KEY_SCHEMA`` with signed counts: Spark and pandas have no unsigned 64-bit type to spare.
CLUSTER_SCHEMA = pa.schema([pa.field(f.name, pa.int64() if pa.types.is_unsigned_integer(f.type) else f.type) for f in PER_KEY_SCHEMA])


def signed(table: pa.Table) -> pa.Table:
    """A per-key table cast to ``CLUSTER_SCHEMA`` (its metadata dropped: a cluster keeps none)."""
    return table.replace_schema_metadata(None).cast(CLUSTER_SCHEMA)


def check_query(query: str) -> None:
    """Raises the CLI's ``ValueError`` on the driver, before any task runs."""
    Replayer(query)


def origin_from_first(first, unit: str | None) -> int:
    """Simulated 0 (ms since the epoch) for a log whose earliest time is ``first``: a count of
    ``unit`` (``s`` by default) or ns already (``unit="ns"``)."""
    scale = _UNIT_NS[unit or "s"]
    return midnight_before(int(round(first * scale)) if isinstance(first, float) else int(first) * scale)
