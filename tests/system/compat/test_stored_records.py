"""Everything stored before accounts per holder still verifies after it, and every player's
money is kept (§ 811a.7, § 810a.11, § 812a.4).

A database made by commit 0586113's own commands (``old_world``: the demo data, the
scenario's top-up and rounds, generated round history) is copied and migrated by the
current code, which carries each wallet's balance into the player's accounts per holder
(reading:one-account-per-holder). On that copy the current verifiers (``manage.py``
commands, run by name) walk the audit chain, every player's chain of rounds with the
ledger, and the records beside the chains; and the money each wallet held before is the
money the player's accounts hold after.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.system.compat.trees import Stored, copy_var, marked_json, stored

pytestmark = pytest.mark.compat

CARRIED_OUT, CARRIED_IN = "carried_out", "carried_in"


def _counted(output: str, number: int) -> bool:
    """``number`` appears in ``output``, written with or without thousands separators."""
    return str(number) in output.replace(",", "")


def verdicts(current, var_dir) -> dict:
    """The current code's migrate, then its three verifiers, on the database in ``var_dir``."""
    return marked_json(current.script(var_dir, "verify"), "verify")


def passed(verdict: dict) -> str:
    assert verdict["ok"], verdict["error"]
    return verdict["output"]


def dollars(cents: int) -> str:
    return f"${cents / 100:,.2f}"


@dataclass(frozen=True)
class CarriedOver:
    """The clean old world's copy, read by the previous commit, then migrated by the current
    code and read and verified by it."""

    var: Path
    kept: Stored  # what the previous commit stored
    money_before: dict  # scripts/money.py, run by the previous commit before migrating
    verdicts: dict  # scripts/verify.py, run by the current code: migrate, then verify
    money_after: dict  # scripts/money.py, run by the current code after migrating
    migrated: Stored


@pytest.fixture(scope="module")
def carried_over(old_world, before, current, tmp_path_factory) -> CarriedOver:
    # The shared old world, copied into this process's own folder: each process that runs
    # this module's tests migrates a copy of its own (the run's folder is shared by all).
    var = copy_var(old_world.clean, tmp_path_factory.mktemp("now-clean") / "var")
    money_before = marked_json(before.script(var, "money"), "money")
    assert money_before["accounts"] is None, f"{before.label} already has accounts per holder"
    said = current.script(var, "verify", "money")
    return CarriedOver(
        var=var,
        kept=old_world.clean_stored,
        money_before=money_before,
        verdicts=marked_json(said, "verify"),
        money_after=marked_json(said, "money"),
        migrated=stored(var),
    )


def test_811a7_810a11_chains_and_records_stored_before_accounts_per_holder_verify_now(
    carried_over,
):
    kept, now = carried_over.kept, carried_over.verdicts

    chain = passed(now["verify_audit_chain"])
    assert kept.head[1] in chain, chain  # the same chain, to its last event
    assert _counted(chain, kept.events), chain

    rounds = passed(now["verify_round_chain"])
    assert _counted(rounds, kept.rounds), rounds
    # Every entry stored before, and the ones carrying the balances over, add up.
    assert carried_over.migrated.ledger_entries >= kept.ledger_entries
    assert _counted(rounds, carried_over.migrated.ledger_entries), rounds

    records = passed(now["verify_records"])
    assert _counted(records, kept.rounds), records


def test_812a4_every_players_money_is_kept_in_their_accounts_per_holder(carried_over):
    """Each player's wallet balance before the upgrade is the sum of their accounts'
    balances after it; each account's balance is the sum of its ledger entries; every wallet
    is left at zero, its own entries (the carry-over out included) adding up to zero; and
    the only entries the upgrade wrote are one carried out per wallet with money and one
    carried in per account that received a share."""
    before, after = carried_over.money_before, carried_over.money_after
    wallets = {wallet["player"]: wallet for wallet in before["wallets"]}
    accounts = after["accounts"]
    assert wallets, "the previous commit's database holds no wallet"
    assert accounts is not None, "the current code has no accounts per holder"

    unbalanced = [w for w in before["wallets"] if w["balance"] != w["entries"]]
    assert not unbalanced, f"wallets not adding up before the upgrade: {unbalanced}"

    held: Counter[int] = Counter()
    for account in accounts:
        held[account["player"]] += account["balance"]
    lost = {
        player: {"wallet before": wallet["balance"], "accounts after": held[player]}
        for player, wallet in wallets.items()
        if held[player] != wallet["balance"]
    }
    assert not lost, f"players whose money was not carried over exactly: {lost}"
    strangers = set(held) - set(wallets)
    assert not strangers, f"accounts of players who had no wallet: {sorted(strangers)}"

    off = [account for account in accounts if account["balance"] != account["entries"]]
    assert not off, f"accounts whose balance is not the sum of their ledger entries: {off}"

    left = [w for w in after["wallets"] if w["balance"] != 0 or w["entries"] != 0]
    assert not left, f"wallets not emptied into their accounts by the upgrade: {left}"
    assert {w["player"] for w in after["wallets"]} == set(wallets)

    with_money = sum(1 for wallet in wallets.values() if wallet["balance"] > 0)
    receiving = sum(1 for account in accounts if account["balance"] > 0)
    written = Counter(after["kinds"])
    written.subtract(before["kinds"])
    assert +written == Counter({CARRIED_OUT: with_money, CARRIED_IN: receiving}), (
        f"the upgrade wrote other ledger entries than the carry-over: {dict(+written)}"
    )
    assert not -written, f"ledger entries gone in the upgrade: {dict(-written)}"

    total_before = sum(wallet["balance"] for wallet in wallets.values())
    total_after = sum(account["balance"] for account in accounts)
    assert total_after == total_before
    print(
        f"{len(wallets)} wallets ({with_money} with money) holding {dollars(total_before)} "
        f"carried into {len(accounts)} accounts ({receiving} with money, "
        f"{len({a['holder'] for a in accounts})} holders) holding {dollars(total_after)}"
    )


def test_811a7_history_generated_before_accounts_per_holder_reads_the_same_now(
    old_world, current, tmp_path
):
    """Expiry history is written in bulk beside the services (no audit events): the chains
    still verify, and the records check finds exactly the problems the previous commit
    found."""
    kept = old_world.bench_stored
    now = verdicts(current, copy_var(old_world.bench, tmp_path / "now-bench"))

    chain = passed(now["verify_audit_chain"])
    assert kept.head[1] in chain, chain
    rounds = passed(now["verify_round_chain"])
    assert _counted(rounds, kept.rounds), rounds

    then = old_world.bench_verdicts["verify_records"]
    assert not then["ok"], f"the previous commit found nothing to report: {then['output']}"
    found = now["verify_records"]
    assert (found["ok"], found["output"]) == (then["ok"], then["output"])
    assert findings(found["error"]) == findings(then["error"])


def findings(error: str) -> tuple[str, list[str]]:
    """What a failed records check found: how many problems, and each one; not what it
    checked (the carry-over's own entries and the accounts are counted since)."""
    summary, *problems = error.splitlines()
    return summary.split(" (checked", 1)[0], problems
