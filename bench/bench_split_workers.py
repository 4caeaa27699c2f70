"""An audit run on one real Celery worker against two, the pass in parts by gaming day.

On a database that already holds the history (``DATABASE_URL``; e.g. the one
``bench_audit_report.py`` filled, or ``manage.py generate_round_history``) and a Redis
database (``REDIS_URL``), each count of workers makes the audit report of every holder over
``--days`` gaming days from ``--start`` ``--repeat`` times (``chord_timing.time_split_run``:
from the request until its files are written); prints each time, the medians and their ratio.
The workers take every queue, one task at a time each.

    DATABASE_URL=postgresql://… REDIS_URL=redis://127.0.0.1:6379/5 \\
        python bench/bench_split_workers.py --splits 16 --repeat 3
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys

from chord_timing import ROOT, time_split_run  # beside this file


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--start", type=datetime.date.fromisoformat, default="2026-10-01")
    parser.add_argument("--days", type=int, default=30)
    parser.add_argument("--workers", default="1,2", help="counts of workers, comma-separated")
    parser.add_argument("--splits", type=int, default=16, help="JINZI_AUDIT_SPLITS")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--parts-only", action="store_true", help="time until the last part is done (no join)"
    )
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        print("skipped: set DATABASE_URL (with history) and REDIS_URL")
        return 0
    # DEBUG off needs its secrets; the bench makes its own unless they are given.
    sys.path.insert(0, str(ROOT))
    from tests.stack import throwaway_secrets

    for name, value in throwaway_secrets().items():
        os.environ.setdefault(name, value)
    os.environ.setdefault("DJANGO_DEBUG", "0")
    end = args.start + datetime.timedelta(days=args.days - 1)
    medians = {}
    for count in (int(item) for item in args.workers.split(",")):
        times = []
        for _ in range(args.repeat):
            times.append(
                time_split_run(
                    args.start, end, workers=count, splits=args.splits, parts_only=args.parts_only
                )
            )
            print(f"  {count} worker(s), {args.splits} parts: {times[-1]:.1f} s", flush=True)
        medians[count] = statistics.median(times)
        print(f"{count} worker(s), {args.splits} parts: median {medians[count]:.1f} s", flush=True)
    counts = sorted(medians)
    for count in counts[1:]:
        print(
            f"median on {counts[0]} worker(s) / on {count}: "
            f"{medians[counts[0]] / medians[count]:.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
