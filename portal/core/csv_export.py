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


def csv_lines(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> Iterator[str]:
    """The header line, then one line per row, each as the csv module writes it."""
    writer = csv.writer(_Echo())
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow([safe_cell(value) for value in row])


def csv_response(lines: Iterable[str], filename: str) -> StreamingHttpResponse:
    """``lines`` streamed as a CSV download named ``filename``, never kept by a cache."""
    response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response
