"""§ 811a.7 (game play reconstructable for ten years) and § 810a.11 (the game records): every
round with its bets, every wallet and holder account with its ledger, every deposit
(§ 812a.7) and withdrawal (§ 812a.10) exported, and verified from the file alone."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from portal.core.archive_files import values_of
from portal.game.models import (
    Bet,
    Deposit,
    GamingAccount,
    LedgerEntry,
    Round,
    Wallet,
    Withdrawal,
)
from tests.system.retention.conftest import read_lines, write_lines

pytestmark = pytest.mark.django_db


class _Sink:
    text = ""

    def write(self, text):
        self.text += text


def export(tmp_path, name="rounds.jsonl"):
    path = tmp_path / name
    call_command("export_rounds", output=path, stdout=_Sink())
    return path


def verify_export(path) -> str:
    out = _Sink()
    call_command("verify_round_chain", from_export=path, stdout=out)
    return out.text


TYPES = ("wallet", "account", "round", "entry", "deposit", "withdrawal")


def sections(path):
    header, *records, end = read_lines(path)
    by_type = {kind: [] for kind in TYPES}
    for record in records:
        by_type[record["type"]].append(record)
    return header, by_type, end


def in_order(found) -> list[dict]:
    return [record for kind in TYPES for record in found[kind]]


def test_811a7_exported_rounds_verify_with_no_database_query(
    history, tmp_path, django_assert_num_queries
):
    path = export(tmp_path)

    with django_assert_num_queries(0):
        said = verify_export(path)

    entries = LedgerEntry.objects.count()
    assert f"intact: 7 rounds verified; {entries} ledger entries add up" in said


def test_810a11_export_holds_every_round_bet_wallet_and_entry_column(history, tmp_path):
    path = export(tmp_path)

    header, found, end = sections(path)
    assert header["format"] == "jinzi-roulette/game-records"
    assert found["wallet"] == [
        {"type": "wallet", **values_of(wallet)} for wallet in Wallet.objects.order_by("pk")
    ]
    rounds = Round.objects.order_by("player_id", "sequence")
    assert found["round"] == [
        {
            "type": "round",
            **values_of(round_obj),
            "bets": [values_of(bet) for bet in Bet.objects.filter(round=round_obj)],
        }
        for round_obj in rounds
    ]
    assert found["entry"] == [
        {"type": "entry", **values_of(entry)}
        for entry in LedgerEntry.objects.order_by("wallet_id", "pk")
    ]
    for kind, model in (
        ("account", GamingAccount),
        ("deposit", Deposit),
        ("withdrawal", Withdrawal),
    ):
        assert found[kind] == [
            {"type": kind, **values_of(record)} for record in model.objects.order_by("pk")
        ]
    assert end == {
        "type": "end",
        "wallet": 2,
        "account": 2,
        "round": 7,
        "entry": len(found["entry"]),
        "deposit": 3,
        "withdrawal": 2,
    }
    # The single wallet's entries name no account; the accounts' do, with their kinds.
    kinds = {(e["kind"], e["account_id"] is None) for e in found["entry"]}
    assert kinds == {
        ("top_up", True),
        ("carried_out", True),
        ("carried_in", False),
        ("deposit", False),
        ("withdrawal", False),
        ("stake", False),
        ("return", False),
    }
    # Each round's money: its stake and return entries name it.
    first = found["round"][0]
    moves = [e for e in found["entry"] if e["round_id"] == first["id"]]
    assert [e["kind"] for e in moves] == ["stake", "return"]
    assert first["started_at"].endswith("+00:00")


def test_811a7_a_compressed_round_export_verifies(history, tmp_path):
    assert "7 rounds verified" in verify_export(export(tmp_path, "rounds.jsonl.gz"))


def _alter_a_bet(found):
    found["round"][1]["bets"][0]["returned"] += 200


def _remove_a_round(found):
    found["round"].pop(1)  # the first player's second round


def _swap_rounds(found):
    found["round"][0], found["round"][1] = found["round"][1], found["round"][0]


def _remove_the_latest_round(found):
    """The first player's latest round, its bets and the ledger entries that name it."""
    latest = found["round"].pop(3)
    found["entry"][:] = [e for e in found["entry"] if e["round_id"] != latest["id"]]


def _forge_an_entry(found):
    found["entry"][0]["amount"] += 100_000  # the first deposit


def _forge_a_legacy_entry(found):
    next(e for e in found["entry"] if e["kind"] == "top_up")["amount"] += 100


def _forge_an_account_balance(found):
    found["account"][0]["balance"] += 500


def _forge_a_deposit(found):
    found["deposit"][0]["amount"] += 100


def _forge_a_payout(found):
    paid = next(w for w in found["withdrawal"] if w["status"] == "paid")
    paid["amount"] -= 100


def _release_a_hold(found):
    next(a for a in found["account"] if a["held"])["held"] = 0


def _drop_a_deposit(found):
    found["deposit"].pop(0)


def _carry_out_more(found):
    """The single wallet's top-up and its carry-over both raised: the wallet still adds up
    to 0, its account received less than left it."""
    for entry in found["entry"]:
        if entry["kind"] == "top_up":
            entry["amount"] += 100
            entry["balance_after"] += 100
        elif entry["kind"] == "carried_out":
            entry["amount"] -= 100


def _forge_a_balance(found):
    found["wallet"][0]["balance"] = 9_999_900


def _name_a_round_not_there(found):
    next(e for e in found["entry"] if e["round_id"] is not None)["round_id"] = 987_654


@pytest.mark.parametrize(
    ("forge", "named"),
    [
        pytest.param(_alter_a_bet, r"chain broken at round \d+: .*altered", id="altered-bet"),
        pytest.param(_remove_a_round, r"player \d+'s round 2 is missing", id="removed"),
        pytest.param(_swap_rounds, r"player \d+'s round 1 is missing", id="reordered"),
        pytest.param(
            _remove_the_latest_round,
            r"wallet says 4 rounds .*\(a round is missing\)",
            id="latest-removed",
        ),
        pytest.param(
            _forge_an_entry,
            r"ledger broken: account \d+: ledger entry #\d+ says the balance is \d+, the "
            r"entries up to it add up to \d+$",
            id="forged-entry",
        ),
        pytest.param(
            _forge_a_legacy_entry,
            r"ledger broken: wallet \d+: ledger entry #\d+ says the balance is \d+, the "
            r"entries up to it add up to \d+$",
            id="legacy-entry",
        ),
        pytest.param(_forge_a_balance, "holds 9999900, its ledger adds up to", id="balance"),
        pytest.param(
            _forge_an_account_balance,
            r"account \d+ holds \d+, its ledger adds up to",
            id="account-balance",
        ),
        pytest.param(
            _forge_a_deposit, r"deposit \d+: ledger entry \d+ is not its deposit", id="deposit"
        ),
        pytest.param(
            _forge_a_payout,
            r"withdrawal \d+ \(paid\): ledger entry \d+ is not its payout",
            id="payout",
        ),
        pytest.param(
            _release_a_hold, r"holds back 0, its pending withdrawals add up to 3000", id="held"
        ),
        pytest.param(_drop_a_deposit, r"a deposit, has no deposit record", id="no-deposit"),
        pytest.param(
            _carry_out_more, r"what was carried out of it is not what its accounts", id="carried"
        ),
        pytest.param(
            _name_a_round_not_there,
            r"ledger broken: account \d+: ledger entry #\d+ names round 987654, which is not "
            r"there$",
            id="orphan",
        ),
    ],
)
def test_810a11_forged_round_export_names_its_first_break(history, tmp_path, forge, named):
    path = export(tmp_path)
    header, found, end = sections(path)
    forge(found)
    write_lines(path, [header, *in_order(found), end])

    with pytest.raises(CommandError, match=named):
        verify_export(path)


def test_811a7_a_round_export_cut_short_is_caught(history, tmp_path):
    path = export(tmp_path)
    header, found, _ = sections(path)
    write_lines(path, [header, *in_order(found)[:-1]])

    with pytest.raises(CommandError, match="without its closing line: it was cut short"):
        verify_export(path)


def test_811a7_a_round_export_with_a_line_of_the_wrong_kind_is_refused(history, tmp_path):
    path = export(tmp_path)
    lines = read_lines(path)
    lines[0]["format"] = "jinzi-roulette/audit-trail"
    write_lines(path, lines)

    with pytest.raises(CommandError, match="line 1: not a jinzi-roulette/game-records archive"):
        verify_export(path)


def test_810a11_the_stored_records_still_verify_without_an_export(history):
    out = _Sink()
    call_command("verify_round_chain", stdout=out)

    assert "round chains intact: 7 rounds verified" in out.text


def test_811a7_an_export_from_before_accounts_per_holder_still_verifies(player, tmp_path):
    """A file as the portal wrote it before accounts per holder: wallets with balances, their
    entries without an account, no accounts, deposits or withdrawals, a closing line that
    counts only wallets, rounds and entries."""
    from tests.portal.integrity.legacy_money import legacy_top_up

    legacy_top_up(player, 4_000)
    legacy_top_up(player, 1_000)
    path = export(tmp_path)
    header, found, _ = sections(path)
    for entry in found["entry"]:
        del entry["account_id"]
    older = [*found["wallet"], *found["round"], *found["entry"]]
    end = {"type": "end", "wallet": 1, "round": 0, "entry": 2}
    write_lines(path, [header, *older, end])

    assert "intact: 0 rounds verified; 2 ledger entries add up" in verify_export(path)

    found["wallet"][0]["balance"] += 1
    write_lines(path, [header, *found["wallet"], *found["entry"], end])
    with pytest.raises(CommandError, match="holds 5001, its ledger adds up to 5000"):
        verify_export(path)


def test_811a7_an_export_from_before_the_limits_were_rows_still_verifies(history, tmp_path):
    """A file as the portal wrote it while each account kept its limits (§ 814a.2) as JSON
    columns of its own: they are read past, and the file verifies as it did."""
    path = export(tmp_path)
    header, found, end = sections(path)
    for account in found["account"]:
        account["limits"] = {"deposit_day": 5_000, "time_day": 120}
        account["pending_limits"] = {
            "loss_week": {"value": None, "from": "2027-03-08T05:00:00+00:00"}
        }
    write_lines(path, [header, *in_order(found), end])

    assert "intact: 7 rounds verified" in verify_export(path)

    found["account"][0]["balance"] += 500
    write_lines(path, [header, *in_order(found), end])
    with pytest.raises(CommandError, match="its ledger adds up to"):
        verify_export(path)
