"""A small history to export: decisions in the audit trail, two players' rounds and ledgers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal.access.roles import Role
from portal.accounts.services import holder_create
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round
from tests.portal.integrity.legacy_money import carry_over, legacy_top_up

RED_AND_ZERO = [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [0], "stake": 400}]


@pytest.fixture
def history(funded_player, live_offering, payments_a):
    """Approvals (JSON before/after), a system event with no actor and a non-ASCII name, a
    single wallet's top-up from before accounts per holder carried over into its account,
    two players' rounds: zeros, wins and losses, a deposit between rounds, a paid and a
    pending withdrawal."""
    holder_create(actor=None, name="Café Zéro ☘ Gaming", licence_number="PA-Ω-003")
    second = make_user("player2", Role.PLAYER)
    legacy_top_up(second, 30_000)
    carry_over()  # the upgrade, before anyone played
    account = wallet_top_up(player=second, amount=50_000)
    for number, outcome in enumerate((0, 5, 12, 0)):
        play_round(funded_player, live_offering, f"first-round-{number}", RED_AND_ZERO, outcome)
    for number, outcome in enumerate((3, 0)):
        play_round(second, live_offering, f"second-round-{number}", outcome=outcome)
    wallet_top_up(player=second, amount=1_000)
    paid = withdrawal_request(player=second, account_id=account.pk, amount=7_000)
    withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH 77")
    withdrawal_request(player=second, account_id=account.pk, amount=3_000)
    play_round(second, live_offering, "second-round-2", RED_AND_ZERO, 1)
    return funded_player, second


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, records: list[dict]) -> None:
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    path.write_text(text, encoding="utf-8")
