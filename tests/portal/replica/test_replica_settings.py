"""The replica's settings: read from the environment, refused when they cannot work."""

import json
import os
import subprocess
import sys

SHOW = (
    "import django, json; django.setup(); from django.conf import settings; "
    "print(json.dumps({'aliases': sorted(settings.DATABASES), "
    "'mirror': settings.DATABASES.get('replica', {}).get('TEST', {}).get('MIRROR'), "
    "'read': settings.JINZI_READ_REPLICA, 'wait': settings.JINZI_REPLICA_WAIT}))"
)


def _settings(**env) -> subprocess.CompletedProcess:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE", "JINZI_"))}
    environment |= {"DJANGO_SETTINGS_MODULE": "portal.settings", "DJANGO_DEBUG": "1", **env}
    return subprocess.run(
        [sys.executable, "-c", SHOW], env=environment, capture_output=True, text=True, timeout=60
    )


def test_a_replica_url_adds_the_replica_read_by_default_and_mirrored_under_test(tmp_path):
    shown = _settings(
        DATABASE_URL="postgresql://u@127.0.0.1:5432/jinzi",
        DATABASE_REPLICA_URL="postgresql://u@127.0.0.1:5433/jinzi",
        JINZI_VAR_DIR=str(tmp_path),
    )

    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout) == {
        "aliases": ["default", "replica"],
        "mirror": "default",
        "read": True,
        "wait": 30,
    }


def test_without_a_replica_url_there_is_one_database(tmp_path):
    shown = _settings(JINZI_VAR_DIR=str(tmp_path))

    assert shown.returncode == 0, shown.stderr
    assert json.loads(shown.stdout)["aliases"] == ["default"]
    assert json.loads(shown.stdout)["read"] is False


def test_a_replica_of_the_embedded_sqlite_database_is_refused(tmp_path):
    shown = _settings(
        DATABASE_REPLICA_URL="postgresql://u@127.0.0.1:5433/jinzi", JINZI_VAR_DIR=str(tmp_path)
    )

    assert shown.returncode != 0
    assert "DATABASE_REPLICA_URL needs DATABASE_URL" in shown.stderr


def test_a_wait_that_is_not_a_whole_number_of_seconds_is_refused(tmp_path):
    shown = _settings(
        DATABASE_URL="postgresql://u@127.0.0.1:5432/jinzi",
        DATABASE_REPLICA_URL="postgresql://u@127.0.0.1:5433/jinzi",
        JINZI_REPLICA_WAIT="soon",
        JINZI_VAR_DIR=str(tmp_path),
    )

    assert shown.returncode != 0
    assert "JINZI_REPLICA_WAIT must be a whole number" in shown.stderr
