"""Two copies of the portal side by side: the last commit before accounts per holder (issue
23) and the code being tested, each run by its own ``manage.py`` with this virtualenv's Python.

Each command runs in a subprocess with a clean environment: the embedded SQLite database
in a var folder of its own (``JINZI_VAR_DIR``), DEBUG on (the built-in key, no second
factor), Celery in-process, the demo app installed (``JINZI_DEMO=1``), and nothing of the
caller's database, broker or settings (a PostgreSQL ``DATABASE_URL`` in CI included).
"""

from __future__ import annotations

import io
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCRIPTS = Path(__file__).resolve().parent / "scripts"

# The last commit before accounts per holder (issue 23: one account per certificate holder,
# § 812a.4), its players' money still in one wallet each.
BEFORE = "0586113f2a69c84c080b0a800994a6bb10fe63cb"
BEFORE_SHORT = BEFORE[:7]

# How long one management command may take before the run gives up on it.
COMMAND_TIMEOUT = 300
DATABASE_FILE = "jinzi.sqlite3"  # the settings' embedded database under JINZI_VAR_DIR

# Taken from the caller's environment by no subprocess: they choose the database, the
# broker, the settings and the paths, which the run sets itself.
_OWN_PREFIXES = ("DJANGO_", "JINZI_", "CELERY_", "DATABASE_")
_OWN_NAMES = {"PYTHONPATH", "PYTHONSTARTUP", "MPLCONFIGDIR"}


def why_no_previous_commit() -> str | None:
    """Why the previous commit cannot be checked out here, or None if it can."""
    if shutil.which("git") is None:
        return f"needs git to extract commit {BEFORE_SHORT} (the code before accounts per holder)"
    found = subprocess.run(
        ["git", "-C", str(ROOT), "cat-file", "-e", f"{BEFORE}^{{commit}}"],
        capture_output=True,
        text=True,
        check=False,
    )
    if found.returncode != 0:
        return (
            f"commit {BEFORE_SHORT} (the code before accounts per holder) is not in this "
            "checkout's history (a shallow clone, or not a git checkout): compare against it "
            "from a full clone of main"
        )
    return None


def extract_previous_commit(dest: Path) -> Path:
    """The previous commit's tree, as ``git archive`` gives it, in ``dest``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", BEFORE],
        capture_output=True,
        check=True,
        timeout=COMMAND_TIMEOUT,
    )
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        if hasattr(tarfile, "data_filter"):
            tar.extractall(dest, filter="data")
        else:  # Python before 3.11.4: our own repository's archive
            tar.extractall(dest)  # noqa: S202
    return dest


def environment(var_dir: Path) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(_OWN_PREFIXES) and name not in _OWN_NAMES
    }
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "portal.settings",
            "DJANGO_DEBUG": "1",
            "JINZI_DEMO": "1",
            "JINZI_REQUIRE_2FA": "0",
            # The scenario locks a name out: after 2 failures rather than 5, fewer hashes.
            "JINZI_SIGN_IN_FAILURE_LIMIT": "2",
            "JINZI_VAR_DIR": str(var_dir),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
    )
    return env


@dataclass(frozen=True)
class Tree:
    """One copy of the portal: ``label`` names it in messages."""

    label: str
    root: Path

    def run(
        self, var_dir: Path, *args: str, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """``manage.py *args`` of this tree on the database in ``var_dir``."""
        var_dir.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [sys.executable, str(self.root / "manage.py"), *args],
            cwd=self.root,
            env=environment(var_dir),
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT,
            check=False,
        )
        if check and done.returncode != 0:
            raise AssertionError(f"{self.label}: {failure(done)}")
        return done

    def script(self, var_dir: Path, *names: str) -> str:
        """Run ``scripts/<name>.py`` for each name, one after the other in one process of
        this tree's ``manage.py shell`` (one start-up, not one a command); their output."""
        code = "\n".join((SCRIPTS / f"{name}.py").read_text() for name in names)
        return self.run(var_dir, "shell", "-c", code).stdout


def imported_portal(root: Path) -> Path:
    """The folder ``import portal`` finds when run from ``root``, as its ``manage.py`` runs:
    the tree's own, ahead of the editable install of the checkout this suite runs from."""
    done = subprocess.run(
        [sys.executable, "-c", "import portal; print(portal.__path__[0])"],
        cwd=root,
        env=environment(root / "var"),
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
        check=True,
    )
    return Path(done.stdout.strip()).resolve()


def failure(done: subprocess.CompletedProcess[str]) -> str:
    """A failed command, readably: what ran, its exit status and the end of its output."""
    command = " ".join(done.args[1:2] + done.args[2:3])  # manage.py and the command
    tail = (done.stdout[-3000:] + "\n" + done.stderr[-3000:]).strip()
    return f"{command} exited {done.returncode}:\n{tail}"


def marked_json(output: str, marker: str):
    """The JSON a script printed after its ``=== marker ===`` line."""
    head = f"=== {marker} ===\n"
    if head not in output:
        raise AssertionError(f"no {marker!r} in the script's output:\n{output[-3000:]}")
    return json.loads(output.split(head, 1)[1].strip().splitlines()[0])


def copy_var(src_var: Path, dest_var: Path) -> Path:
    """``src_var`` as a new var folder: its uploads and report files, and a consistent copy
    of its database (the WAL included)."""
    shutil.copytree(
        src_var,
        dest_var,
        ignore=shutil.ignore_patterns(f"{DATABASE_FILE}*", "static", "broker", "matplotlib"),
    )
    source = sqlite3.connect(src_var / DATABASE_FILE)
    copy = sqlite3.connect(dest_var / DATABASE_FILE)
    try:
        source.backup(copy)
    finally:
        copy.close()
        source.close()
    return dest_var


def audit_table(connection: sqlite3.Connection) -> str:
    """The audit trail's table, found by its columns (a model's app may change its name)."""
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    tables = [row[0] for row in rows]
    for table in tables:
        columns = {row[1] for row in connection.execute(f'PRAGMA table_info("{table}")')}
        if {"sequence", "action", "object_type", "prev_hash", "hash"} <= columns:
            return table
    raise AssertionError(f"no audit trail table among {sorted(tables)}")


def _read_only(var_dir: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{var_dir / DATABASE_FILE}?mode=ro", uri=True)


def audit_actions(var_dir: Path) -> set[str]:
    """Every distinct action of the audit events the database in ``var_dir`` holds."""
    connection = _read_only(var_dir)
    try:
        table = audit_table(connection)
        return {row[0] for row in connection.execute(f'SELECT DISTINCT action FROM "{table}"')}
    finally:
        connection.close()


@dataclass(frozen=True)
class Stored:
    """What a database made by the previous commit holds (its own tables, read directly)."""

    head: tuple[int, str]  # the audit chain's last event: sequence and hash
    events: int
    rounds: int
    ledger_entries: int


def stored(var_dir: Path) -> Stored:
    connection = _read_only(var_dir)
    try:
        table = audit_table(connection)
        head = connection.execute(
            f'SELECT sequence, hash FROM "{table}" ORDER BY sequence DESC LIMIT 1'
        ).fetchone()

        def count(name: str) -> int:
            return connection.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0]

        return Stored(
            head=(head[0], head[1]),
            events=count(table),
            rounds=count("game_round"),
            ledger_entries=count("game_ledgerentry"),
        )
    finally:
        connection.close()
