"""The migrations leave every append-only table guarded on a fresh SQLite database.

SQLite changes a column by rebuilding its table, which drops the table's triggers; a
migration that alters a guarded table must put them back. The test suite itself
reinstalls the triggers before each test, so only a real ``migrate`` shows this.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from portal.core import append_only

ROOT = Path(__file__).resolve().parents[3]


def test_811a7_810a11_every_append_only_table_has_its_triggers_after_migrate(tmp_path):
    env = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    env.update(JINZI_VAR_DIR=str(tmp_path), DJANGO_DEBUG="0", CELERY_BROKER_URL="")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v0"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )

    with sqlite3.connect(tmp_path / "jinzi.sqlite3") as database:
        triggers = {
            name
            for (name,) in database.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        }
    for table in append_only.TABLES:
        assert {f"{table}_no_update", f"{table}_no_delete"} <= triggers, table
