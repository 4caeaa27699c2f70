"""The code before accounts per holder, and what it stored, made once per test session.

``before`` is commit 0586113 (the last before accounts per holder, its players' money in
one wallet each) extracted from this checkout's history (the tests skip, saying why,
without git or that commit). ``old_world`` is a database that commit's own commands made:
migrated, the demo data seeded, a short scenario played through the pages and API
(sign-ins, a lock-out, a top-up, rounds, a token, a report, an export, a retired table),
round history generated, the expiry job run after the sunset, then expiry history
generated; the current code gets copies of it, never the original. ``published_before``
and ``published_now`` are each tree's URL patterns and OpenAPI schema.

Each is made once per run: in a parallel run (pytest-xdist) the first process to need one
makes it, under a lock, in a folder every process shares, and the others read it there.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from filelock import FileLock

from tests.system.compat.trees import (
    BEFORE_SHORT,
    ROOT,
    Stored,
    Tree,
    audit_actions,
    copy_var,
    extract_previous_commit,
    imported_portal,
    marked_json,
    stored,
    why_no_previous_commit,
)

# seed.py migrates and seeds; the scenario plays through the pages and API; round history;
# then the expiry job, run after the sunset, expires every approval.
WORLD = ("seed", "scenario", "history", "expire")


@pytest.fixture(scope="session")
def compat_dir(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Path:
    """The run's folder for the trees and worlds, shared by its processes."""
    base = tmp_path_factory.getbasetemp()
    folder = (base if worker_id == "master" else base.parent) / "compat"
    folder.mkdir(exist_ok=True)
    return folder


def made_once(folder: Path, make: Callable[[], Any]) -> Any:
    """What ``make`` answers (JSON) after filling ``folder``: made by the run's first process
    to ask, under a lock, and read back by the others. A make that failed is made again."""
    answer = folder.with_name(f"{folder.name}.json")
    with FileLock(folder.with_name(f"{folder.name}.lock")):
        if not answer.exists():
            shutil.rmtree(folder, ignore_errors=True)
            answer.write_text(json.dumps(make()))
    return json.loads(answer.read_text())


@pytest.fixture(scope="session")
def before(compat_dir: Path) -> Tree:
    """The portal as it was at the last commit before accounts per holder."""
    reason = why_no_previous_commit()
    if reason is not None:
        pytest.skip(reason)
    folder = compat_dir / f"before-{BEFORE_SHORT}"
    root = Path(made_once(folder, lambda: str(extract_previous_commit(folder).resolve())))
    found = imported_portal(root)
    assert found == root / "portal", f"the previous commit's commands would run {found}"
    return Tree(f"commit {BEFORE_SHORT} (before accounts per holder)", root)


@pytest.fixture(scope="session")
def current() -> Tree:
    return Tree("the current code", ROOT)


def build_world(tree: Tree, var_dir: Path) -> None:
    marked_json(tree.script(var_dir, *WORLD), "scenario")  # printed once it has finished


@dataclass(frozen=True)
class OldWorld:
    """What the previous commit stored, in two var folders to copy from."""

    clean: Path  # the demo data, the scenario, round history, the approvals expired
    clean_stored: Stored
    bench: Path  # the same, then expiry history written in bulk beside the services
    bench_stored: Stored
    # The previous commit's own verifiers on the bench data: the chains pass; the records
    # check finds the records written outside the services, as the current code must.
    bench_verdicts: dict = field(repr=False)
    actions: frozenset[str] = field(repr=False)  # every distinct audit action it holds


@pytest.fixture(scope="session")
def old_world(before: Tree, compat_dir: Path) -> OldWorld:
    var, clean = compat_dir / "old-world", compat_dir / "old-clean"

    def make() -> dict:
        build_world(before, var)
        shutil.rmtree(clean, ignore_errors=True)
        copy_var(var, clean)
        return marked_json(before.script(var, "expiry", "verify"), "verify")

    verdicts = made_once(var, make)
    world = OldWorld(
        clean=clean,
        clean_stored=stored(clean),
        bench=var,
        bench_stored=stored(var),
        bench_verdicts=verdicts,
        actions=frozenset(audit_actions(var)),
    )
    made = world.clean_stored
    assert made.events and made.rounds and made.ledger_entries, f"nothing to verify: {made}"
    for chain in ("verify_audit_chain", "verify_round_chain"):
        assert verdicts[chain]["ok"], f"{before.label} fails its own {chain}: {verdicts[chain]}"
    return world


@pytest.fixture(scope="session")
def current_world_actions(current: Tree, compat_dir: Path) -> frozenset[str]:
    """The audit actions the current code writes for the same seed, scenario and history."""
    var = compat_dir / "current-world"
    made_once(var, lambda: build_world(current, var))
    return frozenset(audit_actions(var))


@dataclass(frozen=True)
class Published:
    """What a tree publishes: its URL patterns (route, name) and its OpenAPI schema."""

    urls: frozenset[tuple[str, str]] = field(repr=False)
    schema: dict = field(repr=False)


def published(tree: Tree, var_dir: Path) -> Published:
    answer = made_once(var_dir, lambda: marked_json(tree.script(var_dir, "published"), "published"))
    ran = Path(answer["portal"]).resolve()
    assert ran == tree.root.resolve() / "portal", f"{tree.label} ran the code in {ran}"
    return Published(
        urls=frozenset((route, name) for route, name in answer["urls"]),
        schema=json.loads((var_dir / "schema.json").read_text()),
    )


@pytest.fixture(scope="session")
def published_before(before: Tree, compat_dir: Path) -> Published:
    return published(before, compat_dir / "published-before")


@pytest.fixture(scope="session")
def published_now(current: Tree, compat_dir: Path) -> Published:
    return published(current, compat_dir / "published-now")
