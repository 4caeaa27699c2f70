"""§ 617b.8(d) and (e), and § 617a.5: wagers are placed before "no more bets"; only then,
with every wager in, does the RNG draw the outcome, and the winning number is shown.

A round is one request: its wagers are checked and fixed, betting closes (``bets_closed_at``),
the RNG draws, the round settles. So a wager that comes once betting has closed joins no
round, and an outcome is never drawn for wagers still open or refused.
"""

from __future__ import annotations

import datetime
import itertools

import pytest
from django.utils import timezone

import jinzi
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import Bet, GamingAccount, LedgerEntry, Round
from portal.game.play import messages as msg
from portal.game.play.services import round_play
from tests.portal.factories import in_session, signed_in_api
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db

RED = {"kind": "red", "stake": 1_000}
BLACK = {"kind": "black", "stake": 1_000}


def _play(player, offering, wagers, key, outcome=1):
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=key,
        rng=FixedBits(outcome),
    )


@pytest.fixture
def draws(monkeypatch):
    """Each instant the RNG was asked for an outcome, on a clock that moves one millisecond
    at every reading, so that "before" and "after" are the order things happened in."""
    start = datetime.datetime(2026, 11, 30, 17, 0, tzinfo=datetime.UTC)
    ticks = itertools.count()
    monkeypatch.setattr(
        timezone, "now", lambda: start + datetime.timedelta(milliseconds=next(ticks))
    )
    seen: list[datetime.datetime] = []
    draw = jinzi.draw

    def draw_and_note(rng=None):
        seen.append(timezone.now())
        return draw(rng)

    monkeypatch.setattr(jinzi, "draw", draw_and_note)
    return seen


def test_617b8_d_and_e_a_wager_sent_once_betting_has_closed_joins_no_round(
    funded_player, live_offering
):
    played = _play(funded_player, live_offering, [RED], key="closed-round-0001").round
    balance = GamingAccount.objects.get(player=funded_player).balance

    # The same round, now with one more wager: its betting closed when it was drawn.
    with pytest.raises(Conflict) as refused:
        _play(funded_player, live_offering, [RED, BLACK], key="closed-round-0001")

    assert str(refused.value) == msg.KEY_REUSED.format(key="closed-round-0001")
    assert list(Bet.objects.filter(round=played).values_list("spot", flat=True)) == ["red"]
    assert Round.objects.count() == 1
    assert GamingAccount.objects.get(player=funded_player).balance == balance
    assert LedgerEntry.objects.filter(kind="stake").count() == 1


def test_617b8_e_617a5_the_outcome_is_drawn_only_after_betting_has_closed(
    funded_player, live_offering, draws
):
    played = _play(funded_player, live_offering, [RED, BLACK], key="draw-order-0001").round

    (drawn_at,) = draws
    assert played.started_at < played.bets_closed_at < drawn_at < played.ended_at
    assert Bet.objects.filter(round=played).count() == 2  # every wager in before the draw


@pytest.mark.parametrize(
    "wagers",
    [
        [RED, {"kind": "split", "numbers": [1, 5], "stake": 1_000}],  # no such spot
        [RED, {"kind": "black", "stake": 150}],  # not a multiple of the chip unit
        [{"kind": "red", "stake": 100_000}],  # over the table's largest wager
    ],
    ids=["illegal-spot", "odd-chip", "over-the-limit"],
)
def test_617b8_d_and_e_the_rng_is_never_initiated_for_wagers_that_are_not_all_placed(
    funded_player, live_offering, draws, wagers
):
    with pytest.raises(ValidationFailed):
        _play(funded_player, live_offering, wagers, key="refused-bets-0001")

    assert draws == []
    assert not Round.objects.exists()
    assert GamingAccount.objects.get(player=funded_player).balance == 100_000


def test_617b8_e_617a5_the_winning_number_is_shown_to_the_player(
    funded_player, live_offering, login
):
    api = signed_in_api(funded_player)
    body = {"offering": live_offering.pk, "wagers": [RED], "idempotency_key": "shown-0001"}

    answer = api.post("/api/rounds/", body, format="json")

    assert answer.status_code == 201
    stored = Round.objects.get(pk=answer.json()["id"])
    assert answer.json()["outcome"] == stored.outcome
    page = login(funded_player).get(f"/play/rounds/{stored.pk}/")
    assert page.status_code == 200
    assert f"<dt>Outcome</dt><dd><strong>{stored.outcome}</strong>" in page.content.decode()
