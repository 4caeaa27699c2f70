"""`make bench`: every benchmark in this folder, one after another; exits non-zero on a FAIL."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHES = (
    "bench_jinzi.py",
    "bench_sign_in.py",
    "bench_notifications.py",
    "bench_rounds.py",
    "bench_reports.py",
    "bench_audit_report.py",
    "bench_load.py",
    "bench_history.py",  # PostgreSQL only (DATABASE_URL); 1 M and 3 M rounds: the longest
)


def main() -> int:
    failed = []
    for name in BENCHES:
        print(f"\n=== {name} ===", flush=True)
        if subprocess.run([sys.executable, str(HERE / name)], check=False).returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nFAILED: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
