"""What the audit report (portal.reports.audit_report) costs as history grows.

For each size, ``generate_round_history`` adds rounds (about 10 bets each) to the same 30
gaming days; then fresh processes measure, over every holder and all 30 days:

- **the pass against its floor** (PostgreSQL): the floor is the time to read exactly the
  columns the pass reads, of the same rounds and bets, with the same ``COPY … TO STDOUT
  (FORMAT csv)`` statements on the same connection, into the process, doing nothing with
  them; the pass's own time includes its reading. Aim: the pass within 3x the floor;
- **the document** (everything but the detail's rows) and each part's time; aim at 1,000,000
  rounds: under 60 s. The database's aggregates are timed against the bare SQL they need;
- **the detail** in each format (``detail_formats.measure_detail``): rows per second for a
  bare COPY of the same rows, the CSV (aim: within 1.5x the bare COPY), the Parquet and the
  XLSX (one sheet, up to its limit);
- **peak RSS** of the document's process at each size (aim: the largest within 1.2x the
  smallest);
- **one worker against two** (with ``REDIS_URL`` set): a whole run through real Celery
  workers, the pass split by gaming day (``chord_timing.time_split_run``).

Each size's figures are printed beside the figures before the columnar pass, at 1,000,000
rounds on this machine: pass 233 s, document 295 s, CSV 306 s, XLSX 2,318 s.

Uses DATABASE_URL when set (a scratch PostgreSQL database: the bench migrates it and adds
the history); otherwise a throwaway SQLite file, with smaller default sizes and no floor.
``--rounds 100000,1000000`` sets the sizes (each the total after that step).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START = datetime.date(2026, 10, 1)
DAYS = 30
SPLITS = 16  # JINZI_AUDIT_SPLITS's default: several parts per worker
BEFORE = {"pass": 233, "document": 295, "csv": 306, "xlsx": 2318}  # s at 1,000,000 rounds
SQL = {
    "rounds": """
        SELECT r.offering_id, r.paytable_id, r.paytable_version, COUNT(*),
               COUNT(DISTINCT r.player_id), SUM(r.total_staked), SUM(r.total_returned)
        FROM game_round r JOIN compliance_offering o ON o.id = r.offering_id
        WHERE o.holder_id IN ({holders}) AND r.started_at >= %s AND r.started_at < %s
        GROUP BY 1, 2, 3""",
    "players": """
        SELECT r.offering_id, COUNT(DISTINCT r.player_id)
        FROM game_round r JOIN compliance_offering o ON o.id = r.offering_id
        WHERE o.holder_id IN ({holders}) AND r.started_at >= %s AND r.started_at < %s
        GROUP BY 1""",
    "outcomes": """
        SELECT r.outcome, COUNT(*)
        FROM game_round r JOIN compliance_offering o ON o.id = r.offering_id
        WHERE o.holder_id IN ({holders}) AND r.started_at >= %s AND r.started_at < %s
        GROUP BY 1""",
}


def _django(env: dict) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def floor(scope) -> float:
    """Seconds to read every column the pass reads, of the scope's rounds and bets, with the
    pass's own statements (``reading.statements``), doing nothing with the bytes."""
    from django.db import connection

    from portal.reports.audit_report.reading import copy_out, statements

    where, params = statements.scope_condition(scope)
    everything = [*params, 0, scope.last_round]
    copies = (
        (statements.ids_statement(where), params),
        (statements.rounds_statement(where), everything),
        (statements.bets_statement(where), [0, scope.last_round, *everything]),
    )
    clock = time.perf_counter()
    with connection.cursor() as cursor:
        for statement, bound in copies:
            with cursor.copy(copy_out.bound(statement, bound)) as copy:
                read = copy.read
                while read():
                    pass
    return time.perf_counter() - clock


def measure() -> dict:
    """The child's part: the floor, the pass, the document; figures as JSON."""
    from detail_formats import Sink  # beside this file
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from portal.reports import render
    from portal.reports.audit_report import audit_report
    from portal.reports.audit_report.figures import sums
    from portal.reports.audit_report.reading import copy_out
    from portal.reports.audit_report.resettlement.resettle import resettle
    from portal.reports.audit_report.scope import scope_of

    end = START + datetime.timedelta(days=DAYS - 1)
    now = timezone.now()
    scope = scope_of(start=START, end=end, holder_id=None, offering_id=None, cutoff=now)
    first, last = scope.money_span
    holders = ", ".join(str(pk) for pk in scope.holders)
    bare, orm = 0.0, 0.0
    for _ in range(2):  # the second of each, warm
        bare = orm = 0.0
        for text in SQL.values():
            clock = time.perf_counter()
            with connection.cursor() as cursor:
                cursor.execute(text.format(holders=holders), [first, last])
                cursor.fetchall()
            bare += time.perf_counter() - clock
        clock = time.perf_counter()
        sums.round_totals(scope)
        sums.distinct_players(scope)
        sums.outcome_counts(scope)
        orm += time.perf_counter() - clock

    postgres = copy_out.available()
    floors, passes = [], []
    for _ in range(3 if postgres else 1):  # floor and pass in turn, the median of each
        if postgres:
            floors.append(floor(scope))
        clock = time.perf_counter()
        resettle(scope)
        passes.append(time.perf_counter() - clock)

    clock = time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        document = audit_report(start=START, end=end, now=now)
    build = time.perf_counter() - clock
    formats = {}
    for fmt in ("json", "pdf"):
        writer = render.FORMATS[fmt][0]
        sink = Sink()
        clock = time.perf_counter()
        writer(document, sink)
        formats[fmt] = (time.perf_counter() - clock, sink.size)
    return {
        "rounds": document["totals"]["rounds"],
        "bets": document["totals"]["bets"],
        "bare": bare,
        "orm": orm,
        "floor": sorted(floors)[len(floors) // 2] if floors else None,
        "pass": sorted(passes)[len(passes) // 2],
        "build": build,
        "queries": len(queries),
        "timings": document["timings"],
        "formats": formats,
        "discrepancies": document["resettlement"]["discrepancy_count"],
        "reconciled": document["reconciliation"]["ok"],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def measure_files() -> dict:
    """The detail in each format, in a process of its own."""
    from detail_formats import measure_detail  # beside this file
    from django.utils import timezone

    from portal.reports.audit_report.scope import scope_of

    end = START + datetime.timedelta(days=DAYS - 1)
    now = timezone.now()
    scope = scope_of(start=START, end=end, holder_id=None, offering_id=None, cutoff=now)
    found = measure_detail(scope)
    found["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return found


def _child(env: dict, flag: str) -> dict:
    child = subprocess.run(
        [sys.executable, __file__, flag],
        cwd=ROOT, env=env, check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(child.stdout.strip().splitlines()[-1])


def _rate(part: dict | None) -> str:
    if not part:
        return "n/a"
    return f"{part['seconds']:.2f} s ({part['rows_per_second']:,} rows/s)"


def report_size(figures: dict, files: dict, size: int) -> None:
    timings = figures["timings"]
    print(f"  rounds {figures['rounds']:,}, bets {figures['bets']:,}")
    print(
        f"  aggregates: ORM {figures['orm']:.3f} s, bare SQL {figures['bare']:.3f} s, "
        f"ratio {figures['orm'] / figures['bare']:.2f} (aim <= 2)"
    )
    if figures["floor"]:
        print(
            f"  pass {figures['pass']:.2f} s against its floor (COPY of the same columns) "
            f"{figures['floor']:.2f} s: ratio {figures['pass'] / figures['floor']:.2f} "
            f"(aim <= 3); {figures['bets'] / figures['pass']:,.0f} bets/s"
        )
    else:
        print(f"  pass {figures['pass']:.2f} s: {figures['bets'] / figures['pass']:,.0f} bets/s")
    print(
        "  document: "
        + ", ".join(f"{part} {seconds:.2f} s" for part, seconds in timings.items())
        + f"; in all {figures['build']:.2f} s, {figures['queries']} queries"
        + (" (aim < 60 s)" if size >= 1_000_000 else "")
    )
    print(
        "  json, pdf: "
        + ", ".join(
            f"{fmt} {seconds:.2f} s ({length / 1e6:,.1f} MB)"
            for fmt, (seconds, length) in figures["formats"].items()
        )
    )
    ratio = files.get("csv_over_bare")
    print(
        f"  detail ({files['rows']:,} rows): bare COPY {_rate(files['bare'])}, "
        f"CSV {_rate(files['csv'])}"
        + (f", {ratio:.2f}x the bare COPY (aim <= 1.5)" if ratio else "")
        + f", Parquet {_rate(files['parquet'])}, XLSX {_rate(files['xlsx'])}"
    )
    if size == 1_000_000:
        print(
            f"  before the columnar pass, at 1,000,000 rounds: pass {BEFORE['pass']} s, "
            f"document {BEFORE['document']} s, CSV {BEFORE['csv']} s, XLSX {BEFORE['xlsx']} s"
        )
    print(
        f"  discrepancies {figures['discrepancies']}, reconciled {figures['reconciled']}, "
        f"peak RSS: document {figures['peak_rss_mb']:.0f} MB, files {files['peak_rss_mb']:.0f} MB"
    )


def workers(env: dict) -> None:
    """A whole run on one real worker, then on two, the pass split by gaming day."""
    from chord_timing import time_split_run  # beside this file

    end = START + datetime.timedelta(days=DAYS - 1)
    seconds = {}
    for count in (1, 2):
        seconds[count] = time_split_run(START, end, workers=count, splits=SPLITS, env=env)
    print(
        f"  a whole run (every file) on Celery, the pass in {SPLITS} parts by gaming day: "
        f"one worker {seconds[1]:.1f} s, two workers {seconds[2]:.1f} s, "
        f"ratio {seconds[1] / seconds[2]:.2f}"
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", help="sizes, comma-separated (totals after each step)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--files", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure or args.files:
        _django({})
        print(json.dumps(measure() if args.measure else measure_files()))
        return 0

    postgres = bool(os.environ.get("DATABASE_URL"))
    default = "100000,1000000" if postgres else "10000,50000"
    sizes = [int(size) for size in (args.rounds or default).split(",")]
    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-audit-"))
    env = dict(os.environ, JINZI_VAR_DIR=str(work), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    env["JINZI_DEMO"] = "1"  # the demo data and the history generators are the demo app's
    # DEBUG off needs its secrets; a bench makes its own unless they are given.
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tests.stack import throwaway_secrets

    for name, value in throwaway_secrets().items():
        env.setdefault(name, value)
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    database = "PostgreSQL" if postgres else "SQLite (set DATABASE_URL for PostgreSQL)"
    print(f"database: {database}; audit report over {DAYS} gaming days from {START}, all holders")
    made, results = 0, []
    for size in sizes:
        clock = time.perf_counter()
        subprocess.run(
            [*manage, "generate_round_history", "--rounds", str(size - made),
             "--start", START.isoformat(), "--days", str(DAYS), "--seed", str(size)],
            cwd=ROOT, env=env, check=True, capture_output=True,
        )  # fmt: skip
        made = size
        print(f"\n{size:,} rounds: generated in {time.perf_counter() - clock:.1f} s", flush=True)
        figures = _child(env, "--measure")
        files = _child(env, "--files")
        results.append(figures)
        report_size(figures, files, size)
        if postgres and os.environ.get("REDIS_URL"):
            workers(env)
        sys.stdout.flush()
    if len(results) > 1:
        ratio = results[-1]["peak_rss_mb"] / results[0]["peak_rss_mb"]
        print(f"\npeak RSS of the document, largest / smallest: {ratio:.2f} (aim <= 1.2)")
    failed = [r for r in results if r["discrepancies"] or not r["reconciled"]]
    if failed:
        print("FAIL: the generated history did not re-settle or reconcile")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
