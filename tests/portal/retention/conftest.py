"""A small history to export: decisions in the audit trail, two players' rounds and ledgers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from portal.access.roles import Role
from portal.accounts.services import holder_create
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

RED_AND_ZERO = [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [0], "stake": 400}]


@pytest.fixture
def history(funded_player, live_offering):
    """Approvals (JSON before/after), a system event with no actor and a non-ASCII name, and
    two players' rounds: zeros, wins and losses, and a top-up between rounds."""
    holder_create(actor=None, name="Café Zéro ☘ Gaming", licence_number="PA-Ω-003")
    second = make_user("player2", Role.PLAYER)
    wallet_top_up(player=second, amount=50_000)
    for number, outcome in enumerate((0, 5, 12, 0)):
        play_round(funded_player, live_offering, f"first-round-{number}", RED_AND_ZERO, outcome)
    for number, outcome in enumerate((3, 0)):
        play_round(second, live_offering, f"second-round-{number}", outcome=outcome)
    wallet_top_up(player=second, amount=1_000)
    play_round(second, live_offering, "second-round-2", RED_AND_ZERO, 1)
    return funded_player, second


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_lines(path: Path, records: list[dict]) -> None:
    text = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    path.write_text(text, encoding="utf-8")
