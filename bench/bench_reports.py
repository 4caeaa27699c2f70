"""What the expiry report costs (portal.reports.expiry): seconds, queries and rows per section,
on the demo data, then on a large approvals history made by ``generate_expiry_history``
(bench data: bulk-created, bypassing the services), then with 100,000 rounds added.

Measured in-process (no Celery, no files): the report's data only, as of today (PA).

Uses DATABASE_URL when set (a scratch PostgreSQL database: the bench migrates it and loads
the demo and bench data); otherwise a throwaway SQLite file.
"""

from __future__ import annotations

import io
import sys
import time

from scratch import scratch_portal

STAGES = (
    ("demo data", None),
    ("+ 1,000 offerings, 10,000 versions", {"offerings": 1000, "versions": 10_000}),
    ("+ 1,000 more, 10,000 more, 100,000 rounds", {"rounds": 100_000}),
)


def _measure(report) -> tuple[float, int, dict]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    report()  # warm: connection, caches
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        document = report()
        seconds = time.perf_counter() - start
    rows = {
        s["key"]: sum(1 for r in s["rows"] if r["row_type"] == "detail")
        for s in document["sections"]
    }
    return seconds, len(queries), rows


def main() -> int:
    scratch_portal("reports")
    from django.core.management import call_command
    from django.db import connection

    from portal.core.padates import pa_today
    from portal.reports.expiry import expiry_report

    today = pa_today()
    database = "PostgreSQL" if connection.vendor == "postgresql" else "SQLite"
    print(f"database: {database}; expiry_report(as_of={today}), in-process")
    for label, bench_data in STAGES:
        if bench_data is not None:
            start = time.perf_counter()
            call_command("generate_expiry_history", stdout=io.StringIO(), **bench_data)
            print(f"  (generated in {time.perf_counter() - start:.1f} s)")
        seconds, queries, rows = _measure(lambda: expiry_report(as_of=today))
        counts = ", ".join(f"{key} {n:,}" for key, n in rows.items())
        print(f"{label:<44}{seconds:>7.2f} s {queries:>4} queries   rows: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
