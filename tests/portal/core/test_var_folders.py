"""Reading the settings creates no folder; each is made where it is first written.

The SQLite file's folder as the database is opened, the broker's folders (its exchanges'
bindings with them) as the Celery app is configured, the static root as the web process
builds its middleware: so a fresh clone starts, and WhiteNoise finds the folder it serves.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

from django.http import HttpResponse
from django.test import override_settings

from portal.core.queues import SCHEDULE
from portal.core.staticfiles import StaticFilesMiddleware

ROOT = Path(__file__).resolve().parents[3]
OPEN = """
import os, sys
from pathlib import Path
import django
django.setup()
var = Path(os.environ["JINZI_VAR_DIR"])
print("after settings:", var.exists())
from django.db import connection
connection.ensure_connection()
print("after connecting:", sorted(p.name for p in var.iterdir()))
from portal.celery import app

app.send_task("reports.resend_stuck")
print("after sending:", sorted(p.name for p in (var / "broker").iterdir() if p.is_dir()))
print("control:", sorted(p.name for p in (var / "broker" / "control").iterdir()))
"""


def test_folders_appear_when_first_written_not_when_the_settings_are_read(tmp_path):
    var = tmp_path / "fresh" / "var"
    environment = {key: value for key, value in os.environ.items() if key != "DATABASE_URL"}
    environment.update(
        DJANGO_SETTINGS_MODULE="portal.settings",
        JINZI_VAR_DIR=str(var),
        CELERY_BROKER_URL="filesystem://",
    )
    done = subprocess.run(
        [sys.executable, "-c", OPEN],
        cwd=tmp_path,  # kombu's default control folder would be ./control
        env=environment,
        capture_output=True,
        text=True,
    )

    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "after settings: False"
    assert lines[1].startswith("after connecting: ['jinzi.sqlite3'")
    assert lines[2] == "after sending: ['control', 'processed']"
    # The task goes to its queue's exchange (resend_stuck: beat's small jobs, "schedule").
    assert lines[3] == f"control: ['{SCHEDULE}.exchange']"
    assert not (tmp_path / "control").exists()


def test_the_web_process_makes_the_static_root_whitenoise_serves(tmp_path):
    static_root = tmp_path / "var" / "static"
    with override_settings(STATIC_ROOT=static_root, DEBUG=False), warnings.catch_warnings():
        warnings.simplefilter("error")  # WhiteNoise warns of a missing folder
        StaticFilesMiddleware(lambda request: HttpResponse())

    assert static_root.is_dir()
