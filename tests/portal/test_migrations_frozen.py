"""Migrations import none of the portal's code: each keeps a frozen copy of what it needs.

The apps' code keeps changing after a migration is written; a migration that imported it
would run differently on each upgrade, or stop importing at all. The copies must still do
exactly what the apps do today: install the same append-only triggers (§ 810a.11,
§ 811a.7), and hash the audit events they write as the trail does, so every chain verifies.
"""

from __future__ import annotations

import ast
import datetime
import importlib
from pathlib import Path

import pytest

import portal
from portal.audit import chain as audit_chain
from portal.audit import services as audit_services
from portal.core import append_only

PORTAL = Path(portal.__file__).resolve().parent
MIGRATIONS = sorted(path for path in PORTAL.glob("*/migrations/*.py") if path.name != "__init__.py")
# The migrations that install or drop append-only triggers.
TRIGGERS = (
    "portal.audit.migrations.0002_append_only_triggers",
    "portal.compliance.migrations.0004_availability_log",
    "portal.game.migrations.0002_append_only_records",
    "portal.game.migrations.0003_no_redundant_indexes",
    "portal.game.migrations.0004_round_record_closing_status_versions_colour",
)
TOP_UPS = importlib.import_module("portal.game.migrations.0006_audit_top_ups_made_before_auditing")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module.endswith(".migrations"):  # a module of a migrations package
                names.update(f"{node.module}.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


def _frozen_helper(name: str) -> bool:
    """A module beside the migrations that Django does not load as one (``_…``): frozen
    history like them, shared by them. Its own imports are checked like a migration's."""
    parts = name.split(".")
    return len(parts) == 4 and parts[2] == "migrations" and parts[3].startswith("_")


def test_no_migration_imports_the_portals_code():
    assert MIGRATIONS
    assert any(path.name.startswith("_") for path in MIGRATIONS)  # the helpers are read too
    found = {
        str(path.relative_to(PORTAL.parent)): sorted(imported)
        for path in MIGRATIONS
        if (
            imported := {
                name
                for name in _imports(path)
                if name.split(".")[0] in ("portal", "jinzi", "tests") and not _frozen_helper(name)
            }
        )
    }
    assert found == {}


@pytest.mark.parametrize("module", TRIGGERS)
def test_811a7_810a11_migrations_install_the_append_only_triggers_as_the_portal_does(module):
    migration = importlib.import_module(module)

    assert migration.TABLES.items() <= append_only.TABLES.items()
    for table in migration.TABLES:
        for vendor in ("sqlite", "postgresql"):
            assert migration.install_statements(vendor, table) == (
                append_only.install_statements(vendor, table)
            )
            if hasattr(migration, "drop_statements"):
                assert migration.drop_statements(vendor, table) == (
                    append_only.drop_statements(vendor, table)
                )


def _event(**changes) -> dict:
    fields = {
        "sequence": 41,
        "occurred_at": datetime.datetime(2026, 3, 8, 6, 59, 59, 5, tzinfo=datetime.UTC),
        "actor_id": 7,
        "actor_username": "spieler-ü",
        "action": "wallet.top_up",
        "object_type": "wallet",
        "object_id": "3",
        "object_version": None,
        "before": {"balance": 1_000},
        "after": {"ledger_entry": 12, "amount": 5_000, "balance_after": 6_000},
        "reason": "Recorded at upgrade: top-up ledger entry #12 (§ 811a.7)",
        "request_id": "",
        "prev_hash": "ab" * 32,
    }
    return fields | changes


@pytest.mark.parametrize(
    "changes",
    [
        {},
        {"sequence": 1, "prev_hash": "0" * 64, "actor_id": None},
        # An instant in another zone, and one with no microseconds, hash as UTC text.
        {
            "occurred_at": datetime.datetime(
                2026, 11, 1, 1, 30, tzinfo=datetime.timezone(datetime.timedelta(hours=-4))
            )
        },
        {"before": {}, "after": {"nested": {"b": [1, 2], "a": "x"}}, "reason": "日本"},
    ],
)
def test_811a7_the_top_up_migration_hashes_an_event_as_the_audit_trail_does(changes):
    fields = _event(**changes)

    assert TOP_UPS._event_digest(dict(fields)) == audit_chain.event_digest(dict(fields))


def test_811a7_the_top_up_migration_chains_as_the_audit_trail_does():
    assert TOP_UPS.HASHED_FIELDS == audit_chain.HASHED_FIELDS
    assert TOP_UPS.GENESIS_HASH == audit_chain.GENESIS_HASH
    # The same lock as every other writer of the chain, or two could fork it.
    assert TOP_UPS.CHAIN_LOCK_KEY == audit_services._CHAIN_LOCK_KEY
