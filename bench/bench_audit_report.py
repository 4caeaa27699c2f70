"""What the audit report costs (portal.reports.audit_report) as history grows: each part's time, the
database aggregates against the bare SQL they need, the re-settlement's bets per second,
each format's time, and the peak memory of the whole run.

For each size, ``generate_round_history`` adds rounds (about 10 bets each) to the same 30
gaming days, then a fresh process builds the report over every holder and all 30 days and
writes every format to a sink that only counts bytes, so the peak RSS it prints is the
report's own. The figures to read:

- aggregates / bare SQL: the summary, by-kind and outcome queries, timed as the report runs
  them (through the ORM, rows made into objects) against the same SQL sent bare in the same
  process; the aim is no more than 2x;
- pass: bets per second re-settled (with their moments and the round chains);
- peak RSS per size, and the ratio of the largest to the smallest (flat: about 1).

Uses DATABASE_URL when set (a scratch PostgreSQL database: the bench migrates it and adds
the history); otherwise a throwaway SQLite file, with smaller default sizes.
``--rounds 100000,1000000`` sets the sizes (each the total after that step).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import resource
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START = datetime.date(2026, 10, 1)
DAYS = 30
SQL = {
    "spots": """
        SELECT r.offering_id, r.paytable_id, r.paytable_version, r.paytable_odds, b.spot,
               b.stake, COUNT(*), SUM(b.stake), SUM(b.returned)
        FROM game_bet b JOIN game_round r ON r.id = b.round_id
        JOIN compliance_offering o ON o.id = r.offering_id
        WHERE o.holder_id IN ({holders}) AND r.started_at >= %s AND r.started_at < %s
        GROUP BY 1, 2, 3, 4, 5, 6""",
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


class Sink:
    """A write-only binary file that keeps nothing."""

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


def _django(env: dict) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def measure() -> dict:
    """The child's part: one report over everything, every format; figures as JSON."""
    from django.db import connection
    from django.utils import timezone

    from portal.reports import render
    from portal.reports.audit_report import audit_report, figures
    from portal.reports.audit_report.scope import scope_of

    end = START + datetime.timedelta(days=DAYS - 1)
    scope = scope_of(start=START, end=end, holder_id=None, offering_id=None, cutoff=timezone.now())
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
        figures.spot_totals(scope)
        figures.round_totals(scope)
        figures.distinct_players(scope)
        figures.outcome_counts(scope)
        orm += time.perf_counter() - clock

    clock = time.perf_counter()
    document = audit_report(start=START, end=end)
    build = time.perf_counter() - clock
    formats = {}
    for fmt, (writer, _, _) in render.FORMATS.items():
        sink = Sink()
        clock = time.perf_counter()
        writer(document, sink)
        formats[fmt] = (time.perf_counter() - clock, sink.size)
    return {
        "rounds": document["totals"]["rounds"],
        "bets": document["totals"]["bets"],
        "bare": bare,
        "orm": orm,
        "build": build,
        "timings": document["timings"],
        "formats": formats,
        "discrepancies": document["resettlement"]["discrepancy_count"],
        "reconciled": document["reconciliation"]["ok"],
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", help="sizes, comma-separated (totals after each step)")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        _django({})
        print(json.dumps(measure()))
        return 0

    postgres = bool(os.environ.get("DATABASE_URL"))
    default = "100000,1000000" if postgres else "10000,50000"
    sizes = [int(size) for size in (args.rounds or default).split(",")]
    work = Path(tempfile.mkdtemp(prefix="jinzi-bench-audit-"))
    env = dict(os.environ, JINZI_VAR_DIR=str(work), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    env["JINZI_DEMO"] = "1"  # the demo data and the history generators are the demo app's
    # DEBUG off needs a secret key; a bench makes its own unless one is given.
    env.setdefault("DJANGO_SECRET_KEY", "bench-only-" + secrets.token_urlsafe(40))
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
        print(f"\n{size:,} rounds: generated in {time.perf_counter() - clock:.1f} s")
        child = subprocess.run(
            [sys.executable, __file__, "--measure"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True,
        )  # fmt: skip
        figures = json.loads(child.stdout.strip().splitlines()[-1])
        results.append(figures)
        timings = figures["timings"]
        print(f"  rounds {figures['rounds']:,}, bets {figures['bets']:,}")
        print(
            f"  aggregates: ORM {figures['orm']:.3f} s, bare SQL {figures['bare']:.3f} s, "
            f"ratio {figures['orm'] / figures['bare']:.2f} (aim <= 2)"
        )
        print(
            "  parts: "
            + ", ".join(f"{part} {seconds:.2f} s" for part, seconds in timings.items())
            + f"; document {figures['build']:.2f} s"
        )
        print(f"  re-settlement pass: {figures['bets'] / timings['pass']:,.0f} bets/s")
        print(
            "  formats: "
            + ", ".join(
                f"{fmt} {seconds:.2f} s ({size / 1e6:,.1f} MB)"
                for fmt, (seconds, size) in figures["formats"].items()
            )
        )
        print(
            f"  discrepancies {figures['discrepancies']}, reconciled {figures['reconciled']}, "
            f"peak RSS {figures['peak_rss_mb']:.0f} MB"
        )
    if len(results) > 1:
        ratio = results[-1]["peak_rss_mb"] / results[0]["peak_rss_mb"]
        print(f"\npeak RSS, largest / smallest: {ratio:.2f} (aim <= 1.2)")
    failed = [r for r in results if r["discrepancies"] or not r["reconciled"]]
    if failed:
        print("FAIL: the generated history did not re-settle or reconcile")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
