"""gunicorn's workers add up: in prometheus_client's multiprocess mode each process writes its
metrics to files in one folder, /metrics reads them all, and gunicorn.conf.py's hooks keep
the folder to this server's live workers."""

from __future__ import annotations

import os
import runpy
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.portal.metrics.scrape import scrape, value

ROOT = Path(__file__).resolve().parents[3]
# A worker's part: the portal loaded, the round counter counted ``argv[1]`` times for
# holder 7, written to the multiprocess folder its environment names.
WORKER = """
import sys
import django
django.setup()
from portal.game.play.services import ROUNDS_SETTLED
ROUNDS_SETTLED.labels(holder="7").inc(int(sys.argv[1]))
"""


def _worker(folder: Path, rounds: int) -> None:
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "PROMETHEUS_MULTIPROC_DIR": str(folder),
        "PYTHONPATH": str(ROOT),
    }
    done = subprocess.run(
        [sys.executable, "-c", WORKER, str(rounds)],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr


@pytest.mark.django_db
def test_two_processes_counts_are_added_up_by_one_scrape(client, tmp_path, monkeypatch):
    _worker(tmp_path, 2)
    _worker(tmp_path, 3)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))

    samples = scrape(client)

    assert len(list(tmp_path.glob("counter_*.db"))) == 2
    assert value(samples, "jinzi_rounds_settled_total", holder="7") == 5


def _hooks():
    return runpy.run_path(str(ROOT / "gunicorn.conf.py"))


def test_gunicorns_start_makes_the_folder_and_removes_only_a_past_servers_metrics(
    tmp_path, monkeypatch
):
    folder = tmp_path / "metrics"
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(folder))
    _hooks()["on_starting"](SimpleNamespace())
    assert folder.is_dir()
    (folder / "counter_41.db").write_bytes(b"old")
    (folder / "histogram_41.db").write_bytes(b"old")
    (folder / "README").write_text("kept")

    _hooks()["on_starting"](SimpleNamespace())

    assert sorted(path.name for path in folder.iterdir()) == ["README"]


def test_a_worker_that_exits_leaves_its_live_gauges_and_keeps_its_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    for name in ("gauge_livesum_4242.db", "counter_4242.db", "gauge_livesum_4243.db"):
        (tmp_path / name).write_bytes(b"")

    _hooks()["child_exit"](SimpleNamespace(), SimpleNamespace(pid=4242))

    left = sorted(path.name for path in tmp_path.iterdir())
    assert left == ["counter_4242.db", "gauge_livesum_4243.db"]


def test_without_the_folder_gunicorns_hooks_touch_nothing(tmp_path, monkeypatch):
    monkeypatch.delenv("PROMETHEUS_MULTIPROC_DIR", raising=False)
    monkeypatch.chdir(tmp_path)
    hooks = _hooks()

    hooks["on_starting"](SimpleNamespace())
    hooks["child_exit"](SimpleNamespace(), SimpleNamespace(pid=4242))

    assert list(tmp_path.iterdir()) == []
