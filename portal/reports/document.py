"""The shape every report takes: the JSON document each format is rendered from.

§ 811a.9 asks each report for a title, the software and
report-definition versions, the certificate holder's name, the period, the generation
time, column and row titles, subtotals and totals, the filters used, page numbers (the
PDF's), and "No Activity" for an empty period. A report builder returns a ``document``
dict of this shape; the CSV, XLSX and PDF renderers read nothing else.

    {
      "report": "expiry",                      # the kind
      "title": "Expiry report",
      "definition_version": "1",
      "software_versions": {"portal": "0.1.0", "engine": "1.0.0"},
      "holder": "All certificate holders",     # or the holder's name
      "period": {"as_of": "2026-11-30"}        # or {"from": "…", "to": "…"} (PA dates)
      "generated_at": {"pa": "2026-11-30T10:26:12-05:00", "utc": "2026-11-30T15:26:12+00:00"},
      "filters": {"holder": null, "offering": null},
      "sections": [
        {
          "key": "approvals",
          "title": "Approvals register",
          "columns": [{"key": "holder", "title": "Holder", "type": "text"}, …],
          "rows": [{"holder": "…", …, "row_type": "detail"}, …],   # or "subtotal"
          "totals": {"label": "Total", "values": {…}} | null,
          "no_activity": false,
          "notes": ["…"]
        }, …
      ]
    }

Column types: text, integer, money (integer minor units), decimal (an exact figure that is
not whole, as a decimal string: an expected win in cents to 4 places), percent (a number,
0.25 = 25 %), date (ISO, a Pennsylvania date), datetime (ISO 8601 with offset), boolean,
flag (text naming a problem, blank when none). A subtotal row carries
``row_type: "subtotal"`` and a ``label``; detail rows ``row_type: "detail"``.

A **streamed** section (``streamed_section``) is too long to hold: its rows are made as a
file is written, by calling ``stream()``, as lists of values in column order. It belongs to
the files of rows only (``formats``: CSV, XLSX and Parquet; the Parquet file is made only
for a document with a streamed section, and holds its rows alone); the JSON and the PDF
carry its title, columns, row count and notes, with a note naming the files that hold its
rows. An XLSX sheet holds at most ``XLSX_SHEET_ROWS`` rows, its title rows and notes
included: a longer section's sheet holds its first ``xlsx_rows(section)`` rows and says
where the rest are.

What ``stream()`` returns is iterated for the rows; it may also offer a writer a faster
route to the same file, which the writer takes when offered:

- ``write_csv(out) -> bool``: writes the rows straight to the binary file ``out``, the very
  bytes the CSV writer would make from them; False, having written nothing, to decline;
- ``record_batches(schema, rows)``: the rows as Arrow record batches of ``schema`` (a field
  per column, each naming its column's key in its metadata), ``rows`` rows a batch; None
  to decline.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from typing import Any

import jinzi
from portal.core.padates import UTC, pa_time
from portal.core.version import PORTAL_VERSION

COLUMN_TYPES = (
    "text",
    "integer",
    "money",
    "decimal",
    "percent",
    "date",
    "datetime",
    "boolean",
    "flag",
)
STREAMED_FORMATS = ("csv", "xlsx", "parquet")  # the files that hold a streamed section's rows
NO_ACTIVITY = "No Activity"
XLSX_SHEET_ROWS = 1_048_576  # a worksheet's rows, Excel's limit


def made(now: datetime.datetime) -> dict[str, Any]:
    """What every document says of its making (§ 811a.9): the software versions and the
    generation time, in Pennsylvania time and in UTC."""
    return {
        "software_versions": {"portal": PORTAL_VERSION, "engine": jinzi.__version__},
        "generated_at": {"pa": pa_time(now).isoformat(), "utc": now.astimezone(UTC).isoformat()},
    }


def column(key: str, title: str, kind: str = "text") -> dict[str, str]:
    if kind not in COLUMN_TYPES:
        raise ValueError(f"unknown column type {kind!r}")
    return {"key": key, "title": title, "type": kind}


def section(
    key: str,
    title: str,
    columns: list[dict[str, str]],
    rows: list[dict[str, Any]],
    *,
    totals: dict[str, Any] | None = None,
    notes: list[str] | None = None,
    sheet: str | None = None,
) -> dict[str, Any]:
    """One section; rows without a ``row_type`` are details. ``sheet``: a short name for
    its XLSX sheet (at most 31 characters), when its title is longer."""
    for row in rows:
        row.setdefault("row_type", "detail")
    made = {
        "key": key,
        "title": title,
        "columns": columns,
        "rows": rows,
        "totals": {"label": "Total", "values": totals} if totals is not None else None,
        "no_activity": not rows,
        "notes": list(notes or []),
    }
    if sheet is not None:
        made["sheet"] = sheet
    return made


def streamed_section(
    key: str,
    title: str,
    columns: list[dict[str, str]],
    stream: Callable[[], Iterator[list[Any]]],
    *,
    count: int,
    notes: list[str] | None = None,
) -> dict[str, Any]:
    """A section of ``count`` rows, made by ``stream()`` each time a file is written."""
    return {
        "key": key,
        "title": title,
        "columns": columns,
        "rows": [],
        "totals": None,
        "no_activity": count == 0,
        "notes": list(notes or []),
        "streamed": True,
        "row_count": count,
        "formats": list(STREAMED_FORMATS),
        "stream": stream,
    }


def xlsx_rows(section: dict[str, Any]) -> int:
    """How many of a streamed section's rows its XLSX sheet holds: all of them, or as many
    as fit beside its title, its column titles, a blank row and its notes (one more saying
    where the rest are)."""
    room = XLSX_SHEET_ROWS - 2 - 1 - len(section["notes"])
    return section["row_count"] if section["row_count"] <= room else room - 1


def left_out_note(section: dict[str, Any]) -> str | None:
    """What a streamed section's XLSX sheet leaves out, in words; None when it holds all."""
    kept = xlsx_rows(section)
    if kept == section["row_count"]:
        return None
    return (
        f"The XLSX file holds the first {kept:,} of these {section['row_count']:,} rows, as "
        f"many as a spreadsheet's sheet takes; the other {section['row_count'] - kept:,} are "
        "in the CSV and Parquet files of this report, which hold every row."
    )


def without_streams(document: dict[str, Any]) -> dict[str, Any]:
    """The document as the JSON and the PDF carry it: each streamed section without its
    stream, saying where its rows are."""
    if not any(s.get("streamed") for s in document["sections"]):
        return document
    sections = []
    for s in document["sections"]:
        if s.get("streamed"):
            where = [
                f"{s['row_count']:,} rows, in the CSV file, the XLSX file (up to the "
                f"{XLSX_SHEET_ROWS:,} rows of a spreadsheet's sheet) and the Parquet file of "
                "this report."
            ]
            left_out = left_out_note(s)
            s = {k: v for k, v in s.items() if k != "stream"}
            s["notes"] = [*s["notes"], *where, *([left_out] if left_out else [])]
        sections.append(s)
    return {**document, "sections": sections}
