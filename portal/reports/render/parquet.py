"""Parquet: a document's streamed section (the audit report's detail) as typed columns, for
analysts' tools.

One column per column of the section, named for analysts' tools by its key in snake_case,
with its unit in the name (``stake_cents``, ``edge_fraction``, ``started_utc``), typed:
integers and money (cents) ``int64``, date-times ``timestamp[us, UTC]``,
dates ``date32``, percent ``float64`` (a fraction: 0.25 is 25 %), booleans ``bool``, decimal
figures and text ``string`` (text as recorded: no spreadsheet quote, since no spreadsheet
runs a Parquet cell). Each field's metadata names its column's key and type; the file's
metadata carries the § 811a.9 header lines (the generation time as recorded, ISO 8601) and
the section's title and notes.

The rows are written in row groups of ``ROW_GROUP`` rows as they are made, so memory stays
flat whatever their number: from the rows' own record batches where they offer them
(``record_batches``: the detail's COPY on PostgreSQL), else built from the rows, a group at a
time. The format exists only for a document with a streamed section (``formats_of``).
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

from portal.reports.render.common import Document, header_lines

ROW_GROUP = 100_000
NOT_STREAMED = "a Parquet file holds a streamed section's rows; this document has none"


def streamed(document: Document) -> dict[str, Any] | None:
    """The document's streamed section, or None; more than one is a builder's bug."""
    found = [s for s in document["sections"] if s.get("streamed")]
    if len(found) > 1:
        raise ValueError("a Parquet file holds one streamed section; this document has several")
    return found[0] if found else None


# The unit a column's name carries, by its type.
UNITS = {"money": "_cents", "percent": "_fraction", "datetime": "_utc"}


def parquet_name(column: dict[str, str]) -> str:
    """A column's name in the file: its key, snake_case, with its unit."""
    return column["key"] + UNITS.get(column["type"], "")


def arrow_schema(document: Document, section: dict[str, Any]):
    import pyarrow as pa

    types = {
        "integer": pa.int64(),
        "money": pa.int64(),
        "datetime": pa.timestamp("us", tz="UTC"),
        "date": pa.date32(),
        "percent": pa.float64(),
        "boolean": pa.bool_(),
    }
    fields = [
        pa.field(
            parquet_name(column),
            types.get(column["type"], pa.string()),
            metadata={"key": column["key"], "type": column["type"]},
        )
        for column in section["columns"]
    ]
    about = {label: value for label, value in header_lines(document, as_recorded=True)}
    about["Section"] = section["title"]
    about["Notes"] = " ".join(section["notes"])
    return pa.schema(fields, metadata=about)


def write_parquet(document: Document, out: BinaryIO) -> None:
    """The document's streamed section as a Parquet file (ZSTD-compressed)."""
    import pyarrow.parquet as pq

    section = streamed(document)
    if section is None:
        raise ValueError(NOT_STREAMED)
    schema = arrow_schema(document, section)
    with pq.ParquetWriter(out, schema, compression="zstd") as writer:
        if section["no_activity"]:
            return  # no rows: the columns alone
        rows = section["stream"]()
        offered = getattr(rows, "record_batches", None)
        batches = offered(schema, ROW_GROUP) if offered is not None else None
        if batches is None:
            batches = _batches(schema, section, rows)
        for batch in batches:
            writer.write_batch(batch, row_group_size=ROW_GROUP)


def _batches(schema, section: dict[str, Any], rows: Iterable[list]) -> Iterator:
    """Record batches of ``ROW_GROUP`` rows built from the rows (lists in column order)."""
    import pyarrow as pa

    kinds = [column["type"] for column in section["columns"]]
    group: list[list] = []

    def batch() -> Any:
        columns = list(zip(*group, strict=True))
        arrays = [
            pa.array(_values(kind, values), type=field.type)
            for kind, values, field in zip(kinds, columns, schema, strict=True)
        ]
        return pa.RecordBatch.from_arrays(arrays, schema=schema)

    for row in rows:
        group.append(row)
        if len(group) == ROW_GROUP:
            yield batch()
            group = []
    if group:
        yield batch()


def _values(kind: str, values: tuple) -> list:
    if kind == "datetime":
        return [None if v is None else _instant(v) for v in values]
    if kind == "date":
        return [v if v is None or isinstance(v, datetime.date) else _day(v) for v in values]
    if kind == "percent":
        return [None if v is None else float(v) for v in values]
    if kind in ("text", "flag", "decimal"):
        return [None if v is None else str(v) for v in values]
    return list(values)


def _instant(value: Any) -> datetime.datetime:
    instant = value if isinstance(value, datetime.datetime) else _parse(value)
    if instant.tzinfo is None:
        raise ValueError(f"a date-time without its offset: {value!r}")
    return instant


def _parse(text: str) -> datetime.datetime:
    return datetime.datetime.fromisoformat(text)


def _day(text: str) -> datetime.date:
    return datetime.date.fromisoformat(text)
