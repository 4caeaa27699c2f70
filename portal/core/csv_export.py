"""CSV exports, streamed: RFC 4180 rows, text cells made safe for spreadsheets."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.http import StreamingHttpResponse


class _Echo:
    def write(self, value: str) -> str:
        return value


def safe_cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, dict | list):
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    text = str(value)
    # A spreadsheet would run a cell starting with these as a formula (CSV injection).
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


# How a column's key reads in a CSV's header: "occurred_at_utc" → "Occurred at (UTC)".
_HEADER_WORDS = {
    "utc": "(UTC)",
    "pa": "(Pennsylvania time)",
    "cents": "(cents)",
    "id": "ID",
    "ids": "IDs",
    "rng": "RNG",
    "url": "URL",
}


def plain_header(key: str) -> str:
    """A column's key as the words a person reads at the top of a spreadsheet: underscores
    become spaces, the first word takes a capital, units and initials read as such."""
    words = [_HEADER_WORDS.get(word, word) for word in key.split("_") if word]
    text = " ".join(words)
    return text[:1].upper() + text[1:]


def csv_lines(
    header: Sequence[str], rows: Iterable[Sequence[Any]], *, words: bool = False
) -> Iterator[str]:
    """The header line, then one line per row, each as the csv module writes it. A page's
    download is for people: ``words`` writes its header in words (``plain_header``); the
    API's keeps the keys its clients read by."""
    writer = csv.writer(_Echo())
    yield writer.writerow([plain_header(key) for key in header] if words else header)
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])


def csv_response(lines: Iterable[str], filename: str) -> StreamingHttpResponse:
    """``lines`` streamed as a CSV download named ``filename``, never kept by a cache."""
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
