"""Everything stored before the refactor still verifies after it (§ 811a.7, § 810a.11).

A database made by commit 73df469's own commands (``old_world``) is copied, migrated by the
current code, and walked by the current verifiers (``manage.py`` commands, run by name): the
audit chain, every player's chain of rounds with the wallets' ledger, and the records
beside the chains.
"""

from __future__ import annotations

import pytest

from tests.portal.compat.trees import copy_var, marked_json

pytestmark = pytest.mark.compat


def _counted(output: str, number: int) -> bool:
    """``number`` appears in ``output``, written with or without thousands separators."""
    return str(number) in output.replace(",", "")


def verdicts(current, var_dir) -> dict:
    """The current code's migrate, then its three verifiers, on the database in ``var_dir``."""
    return marked_json(current.script(var_dir, "verify"), "verify")


def passed(verdict: dict) -> str:
    assert verdict["ok"], verdict["error"]
    return verdict["output"]


def test_811a7_810a11_chains_and_records_stored_before_the_refactor_verify_now(
    old_world, current, compat_dir
):
    kept = old_world.clean_stored
    now = verdicts(current, copy_var(old_world.clean, compat_dir / "now-clean"))

    chain = passed(now["verify_audit_chain"])
    assert kept.head[1] in chain, chain  # the same chain, to its last event
    assert _counted(chain, kept.events), chain

    rounds = passed(now["verify_round_chain"])
    assert _counted(rounds, kept.rounds), rounds
    assert _counted(rounds, kept.ledger_entries), rounds

    records = passed(now["verify_records"])
    assert _counted(records, kept.rounds), records


def test_811a7_history_generated_before_the_refactor_reads_the_same_now(
    old_world, current, compat_dir
):
    """Expiry history is written in bulk beside the services (no audit events): the chains
    still verify, and the records check finds exactly what the previous commit found."""
    kept = old_world.bench_stored
    now = verdicts(current, copy_var(old_world.bench, compat_dir / "now-bench"))

    chain = passed(now["verify_audit_chain"])
    assert kept.head[1] in chain, chain
    rounds = passed(now["verify_round_chain"])
    assert _counted(rounds, kept.rounds), rounds

    then = old_world.bench_verdicts["verify_records"]
    assert not then["ok"], f"the previous commit found nothing to report: {then['output']}"
    assert now["verify_records"] == then
