"""§ 811a.7: a PostgreSQL backup taken with ``pg_dump`` and restored with ``pg_restore`` into
a fresh database holds the same game records and audit trail, and both chains verify there,
against the heads noted down before the backup."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.management import call_command
from django.db import connection

from portal.audit.chain import stored_head
from tests.system.retention.conftest import read_lines

ROOT = Path(__file__).resolve().parents[3]

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _server() -> dict[str, str]:
    """libpq's environment for the test database's server, from Django's own settings."""
    db = connection.settings_dict
    env = {
        "PGHOST": db["HOST"] or "127.0.0.1",
        "PGPORT": str(db["PORT"] or 5432),
        "PGUSER": db["USER"] or "postgres",
    }
    if db["PASSWORD"]:
        env["PGPASSWORD"] = db["PASSWORD"]
    return env


def _run(*args: str, env: dict[str, str]) -> str:
    done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path="/usr/lib/postgresql/15/bin")
    assert found, f"{name} (postgresql-client) is needed to test the backup"
    return found


def _manage(*args: str, database: str, server: dict[str, str], tmp_path) -> str:
    """A management command run as an operator would, on ``database`` of the same server."""
    credentials = quote(server["PGUSER"], safe="")
    if "PGPASSWORD" in server:
        credentials += ":" + quote(server["PGPASSWORD"], safe="")
    url = f"postgresql://{credentials}@{server['PGHOST']}:{server['PGPORT']}/{database}"
    env = dict(os.environ, DATABASE_URL=url, JINZI_VAR_DIR=str(tmp_path / "var"))
    env.pop("DATABASE_REPLICA_URL", None)  # it names the CI's database, not this one
    return _run(sys.executable, "manage.py", *args, env=env)


def _records(path: Path) -> list[dict]:
    """An export's lines without the instant it was taken."""
    header, *rest = read_lines(path)
    return [{k: v for k, v in header.items() if k != "exported_at"}, *rest]


def test_811a7_a_restored_backup_verifies_against_the_heads_kept_before_it(history, tmp_path):
    sequence, head = stored_head()
    call_command("export_rounds", output=tmp_path / "before.jsonl", stdout=io.StringIO())
    server = dict(os.environ, **_server())
    source = connection.settings_dict["NAME"]
    restored = f"{source}_restored"
    dump = tmp_path / "jinzi.dump"

    _run(_tool("pg_dump"), "--format=custom", f"--file={dump}", source, env=server)
    _run(_tool("dropdb"), "--if-exists", restored, env=server)
    _run(_tool("createdb"), restored, env=server)
    try:
        _run(_tool("pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={restored}",
             str(dump), env=server)  # fmt: skip

        def manage(*args: str) -> str:
            return _manage(*args, database=restored, server=server, tmp_path=tmp_path)

        audit = manage("verify_audit_chain", f"--expect-head={sequence}:{head}")
        rounds = manage("verify_round_chain")
        manage("export_rounds", f"--output={tmp_path / 'after.jsonl'}")
    finally:
        _run(_tool("dropdb"), "--if-exists", "--force", restored, env=server)

    assert f"audit chain intact: {sequence} events verified; head #{sequence} {head}" in audit
    assert "round chains intact: 7 rounds verified" in rounds
    # The restored database holds exactly the rounds, bets, wallets and ledger it was taken from.
    assert _records(tmp_path / "after.jsonl") == _records(tmp_path / "before.jsonl")
