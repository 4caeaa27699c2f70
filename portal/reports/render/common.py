"""What every format of a report shares: the § 811a.9 header lines, column titles, rows
as (type, value) cells, instants as people read them, and strict numbers."""

from __future__ import annotations

import datetime
import io
import json
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from functools import lru_cache
from typing import Any, BinaryIO

from portal.core.padates import TO_THE_SECOND, UTC, pa_stamp

Document = dict[str, Any]
Cells = list[tuple[str, Any]]  # (column type, value) for each column of a row

NUMERIC = ("integer", "money", "decimal", "percent")


# --- What every format shares -------------------------------------------------------------


def column_title(column: dict[str, str]) -> str:
    """The column's title; a money column's says its unit, since values stay in cents."""
    title = column["title"]
    if column["type"] == "money" and "cent" not in title.lower():
        return f"{title} (cents)"
    return title


def header_lines(document: Document, *, as_recorded: bool = False) -> list[tuple[str, str]]:
    """The § 811a.9 header as (label, text) pairs, in the order every format shows them: the
    generation time as people read it (``shown_instant``, and UTC alike), or, ``as_recorded``,
    as the document records it (ISO 8601, for a file read by machines: Parquet's metadata)."""
    versions = document.get("software_versions") or {}
    generated = document["generated_at"]
    if as_recorded:
        pa, utc = plain_text(generated["pa"]), plain_text(generated["utc"])
    else:
        pa, utc = shown_instant(generated["pa"]), shown_instant(generated["utc"], utc=True)
    return [
        ("Title", plain_text(document["title"])),
        ("Report definition version", plain_text(document["definition_version"])),
        ("Software versions", ", ".join(f"{k} {v}" for k, v in sorted(versions.items()))),
        ("Certificate holder", plain_text(document["holder"])),
        ("Period", _period_text(document["period"])),
        ("Generated (Pennsylvania time)", pa),
        ("Generated (UTC)", utc),
        ("Filters", _filters_text(document.get("filters") or {})),
    ]


def _period_text(period: dict[str, Any]) -> str:
    if set(period) == {"as_of"}:
        return f"As of {period['as_of']}"
    if set(period) == {"from", "to"}:
        return f"{period['from']} to {period['to']}"
    if set(period) == {"start", "end"}:
        return f"Gaming days {period['start']} to {period['end']} (Pennsylvania dates)"
    if set(period) == {"gaming_day"}:
        return f"Gaming day {period['gaming_day']} (a Pennsylvania date)"
    return "; ".join(f"{key}: {value}" for key, value in sorted(period.items()))


def _filters_text(filters: dict[str, Any]) -> str:
    if not filters:
        return "None"

    def shown(value: Any) -> str:
        if value is None:
            return "all"  # a filter left unset selects everything
        if isinstance(value, list | tuple):
            return ", ".join(str(item) for item in value)
        return plain_text(value)

    return "; ".join(f"{key}: {shown(value)}" for key, value in sorted(filters.items()))


@lru_cache(maxsize=4096)  # a round's bets repeat its instants row after row
def shown_instant(value: str | datetime.datetime | None, *, utc: bool = False) -> str:
    """A date-time as people read it: Pennsylvania time with its zone, to the second
    ("2026-11-30 10:26:12 EST", ``padates.pa_stamp``), or in UTC with ``utc``
    ("2026-11-30 15:26:12 UTC"); never ISO's "T" nor microseconds. The document keeps
    ISO 8601 with its offset (the JSON, the detail's CSV rows and Parquet show it so); text
    that is not such an instant is shown as it is."""
    if value is None or value == "":
        return ""
    instant = value
    if not isinstance(instant, datetime.datetime):
        try:
            instant = datetime.datetime.fromisoformat(str(value))
        except ValueError:
            return plain_text(value)
    if instant.tzinfo is None:
        return plain_text(value)
    if utc:
        return instant.astimezone(UTC).strftime(TO_THE_SECOND)
    return pa_stamp(instant, seconds=True)


def plain_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    return str(value)


def section_lines(section: dict[str, Any]) -> Iterator[tuple[str, Cells]]:
    """The section's rows then its totals, as (row type, cells); row type "total" for the last.

    The first cell of a subtotal or totals row is its label, as text, whatever the column's
    type: the label is the row's title (§ 811a.9 "row titles")."""
    columns = section["columns"]
    for row in section["rows"]:
        label = row.get("label") if row["row_type"] != "detail" else None
        yield row["row_type"], _cells(columns, row, label)
    yield from totals_line(section)


def totals_line(section: dict[str, Any]) -> Iterator[tuple[str, Cells]]:
    totals = section["totals"]
    if totals is not None:
        yield "total", _cells(section["columns"], totals["values"], totals["label"])


def _cells(columns: list[dict[str, str]], values: dict[str, Any], label: str | None) -> Cells:
    cells = [(column["type"], values.get(column["key"])) for column in columns]
    if label is not None and cells:
        cells[0] = ("text", label)
    return cells


def as_whole(value: Any) -> int:
    """An integer or money value; a fraction is a builder's bug, never something to round."""
    number = isinstance(value, int | float | Decimal) and not isinstance(value, bool)
    if number and value == int(value):
        return int(value)
    raise ValueError(f"not a whole number: {value!r}")


def as_decimal_text(value: Any) -> str:
    """A decimal figure as its exact text ("12.3456"); anything else is a builder's bug."""
    if isinstance(value, str):
        try:
            Decimal(value)
        except ArithmeticError:
            pass
        else:
            if Decimal(value).is_finite():
                return value
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        return str(value)
    raise ValueError(f"not a decimal figure: {value!r}")


def as_number(value: Any) -> int | float | Decimal:
    if isinstance(value, int | float | Decimal) and not isinstance(value, bool):
        return value
    raise ValueError(f"not a number: {value!r}")


@contextmanager
def text_stream(out: BinaryIO) -> Iterator[io.TextIOWrapper]:
    """``out`` as UTF-8 text; left open afterwards, since the caller owns it."""
    text = io.TextIOWrapper(out, encoding="utf-8", newline="")
    try:
        yield text
    finally:
        text.flush()
        text.detach()
