"""§ 810a.11: ``verify_round_chain`` on the database reads wallets, rounds and ledger entries
from one snapshot, so a round played while it walks is no false break (PostgreSQL: the
round is committed on a connection of its own)."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from portal.game import retention
from portal.game.models import Round
from tests.portal.concurrency import run_together
from tests.portal.game.conftest import play_round
from tests.system.retention.conftest import RED_AND_ZERO

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


class _Sink:
    text = ""

    def write(self, text):
        self.text += text


def test_810a11_round_played_during_the_check_is_no_break(history, live_offering, monkeypatch):
    player, _ = history
    stored_rounds = retention.stored_rounds
    played = []

    def rounds_with_play_meanwhile():
        # The wallets (and their chain heads) are read by now; a round is committed before
        # the rounds are.
        outcome = run_together(
            lambda: play_round(player, live_offering, "during-the-check", RED_AND_ZERO, 5)
        )
        played.extend(outcome)
        yield from stored_rounds()

    monkeypatch.setattr(retention, "stored_rounds", rounds_with_play_meanwhile)
    out = _Sink()
    call_command("verify_round_chain", stdout=out)

    assert not isinstance(played[0], Exception), played
    assert "round chains intact: 7 rounds verified" in out.text
    assert Round.objects.count() == 8
