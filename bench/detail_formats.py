"""What the audit report's detail costs in each of its files, against a bare COPY of the
same rows (``measure_detail``).

For an audit ``Scope`` (``portal.reports.audit_report.scope.scope_of``) it times, in the
calling process (Django set up, on the database the scope was read from):

- bare: ``COPY`` of the detail's recorded values (the columns the detail is made from, as
  stored; ``detail_statements.BARE_SQL``) read into the process and dropped: nothing worked out,
  nothing written (PostgreSQL only; None elsewhere);
- csv, parquet, xlsx: the detail section alone written in that format (the CSV and XLSX
  with the report's header around it, as small as a document can be) to a sink that only
  counts bytes, each by the route its writer takes (COPY on PostgreSQL, where it can);

and returns, for each, seconds, rows per second and bytes, with ``csv_over_bare`` (the aim:
at most 1.5). The XLSX stops at a sheet's rows, so its rows/s counts the rows it wrote.
"""

from __future__ import annotations

import time
from typing import Any


class Sink:
    """A write-only binary file that keeps nothing but the count of its bytes."""

    size = 0
    closed = False

    def write(self, data) -> int:
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        pass

    def writable(self) -> bool:
        return True

    def readable(self) -> bool:
        return False

    def seekable(self) -> bool:
        return False


def _document(scope, rows: int) -> dict[str, Any]:
    from django.utils import timezone

    from portal.reports.audit_report.sections import detail
    from portal.reports.document import made, streamed_section

    return {
        "report": "audit",
        "title": "Audit report: detail",
        "definition_version": "bench",
        **made(timezone.now()),
        "holder": "bench",
        "period": {"start": scope.start.isoformat(), "end": scope.end.isoformat()},
        "filters": {},
        "sections": [
            streamed_section(
                "detail",
                "Detail: every bet",
                detail.COLUMNS,
                lambda: detail.detail_rows(scope),
                count=rows,
            )
        ],
    }


def _figures(seconds: float, rows: int, size: int) -> dict[str, float | int]:
    return {
        "seconds": round(seconds, 3),
        "rows": rows,
        "rows_per_second": round(rows / seconds) if seconds else 0,
        "bytes": size,
    }


def measure_detail(scope) -> dict[str, Any]:
    """Seconds, rows/s and bytes of the bare COPY and of the CSV, Parquet and XLSX detail of
    ``scope``, and the CSV's time over the bare COPY's."""
    import pyarrow.compute  # noqa: F401 - imported before the clocks start, as in a worker
    import pyarrow.csv  # noqa: F401
    import pyarrow.parquet  # noqa: F401
    from django.db import connection

    from portal.game.models import Bet
    from portal.reports import render
    from portal.reports.audit_report.reading import copy_out, detail_copy
    from portal.reports.document import xlsx_rows

    rows = Bet.objects.filter(scope.q("round__")).count()
    document = _document(scope, rows)
    found: dict[str, Any] = {"database": connection.vendor, "rows": rows}

    if copy_out.available():
        clock = time.perf_counter()
        copied, size = detail_copy.bare_copy(scope)
        found["bare"] = _figures(time.perf_counter() - clock, copied, size)
    else:
        found["bare"] = None

    for fmt in ("csv", "parquet", "xlsx"):
        sink = Sink()
        clock = time.perf_counter()
        render.FORMATS[fmt][0](document, sink)
        written = xlsx_rows(document["sections"][0]) if fmt == "xlsx" else rows
        found[fmt] = _figures(time.perf_counter() - clock, written, sink.size)

    bare = found["bare"]
    found["csv_over_bare"] = (
        round(found["csv"]["seconds"] / bare["seconds"], 2) if bare and bare["seconds"] else None
    )
    return found
