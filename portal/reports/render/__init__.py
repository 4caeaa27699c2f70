"""A report document (``portal.reports.document``) written as JSON, CSV, XLSX, PDF or, for
a document with a streamed section (the audit report's detail), Parquet.

Each writer takes the document and a writable binary file object and writes the whole
file to it; the caller owns the file (writes to a temporary one, then moves it into place),
so no writer closes it, and none needs it to be seekable.

The same rules hold in every format:

- the § 811a.9 header (``header_lines``): title, report definition version, software
  versions, certificate holder, period, generation time in Pennsylvania time and in UTC,
  filters;
- money stays in integer minor units (cents) everywhere, and its column title says
  "(cents)", so the three files agree digit for digit with the JSON and with each other;
- the first column of a subtotal or totals row shows that row's label;
- an empty section shows its column titles and a single "No Activity" row.
"""

from __future__ import annotations

import json
from typing import BinaryIO

from portal.reports.document import without_streams
from portal.reports.render.common import Document, text_stream
from portal.reports.render.parquet import streamed, write_parquet
from portal.reports.render.pdf import write_pdf
from portal.reports.render.tabular import write_csv, write_xlsx


def write_json(document: Document, out: BinaryIO) -> None:
    """The document itself: UTF-8, keys sorted, non-ASCII kept as is, one-space indent;
    a streamed section's rows are in the CSV, XLSX and Parquet files only."""
    document = without_streams(document)
    with text_stream(out) as text:
        json.dump(document, text, sort_keys=True, ensure_ascii=False, indent=1, allow_nan=False)
        text.write("\n")


def write_pdf_document(document: Document, out: BinaryIO) -> None:
    """The PDF: a streamed section's rows are in the CSV, XLSX and Parquet files only."""
    write_pdf(without_streams(document), out)


# --- Format name -> (writer, content type, file extension) --------------------------------

FORMATS = {
    "json": (write_json, "application/json", "json"),
    "csv": (write_csv, "text/csv", "csv"),
    "xlsx": (
        write_xlsx,
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xlsx",
    ),
    "pdf": (write_pdf_document, "application/pdf", "pdf"),
    "parquet": (write_parquet, "application/vnd.apache.parquet", "parquet"),
}
STREAMED_ONLY = frozenset({"parquet"})  # made only for a document with a streamed section


def formats_of(document: Document) -> list[str]:
    """The formats a document is written in: every one, but those made only for a document
    with a streamed section when it has none (the expiry report has no Parquet file)."""
    has_stream = streamed(document) is not None
    return [fmt for fmt in FORMATS if has_stream or fmt not in STREAMED_ONLY]
