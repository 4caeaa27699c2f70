"""A spend limit counts the money the player really lost (§ 814a.2, reading:spend-limit-net):
stakes less returns as they moved, each void and adjustment counted on the day it was
applied."""

from __future__ import annotations

import pytest

from portal.core.errors import ValidationFailed
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.models import LimitKind
from portal.game.money.services.limit_changes import limit_set
from tests.portal.factories import finding_on
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

WINNING = [{"kind": "straight", "numbers": [3], "stake": 200}]  # 3 comes up: $24.00 back
LOSING = [{"kind": "straight", "numbers": [5], "stake": 200}]  # 7 comes up: $2.00 lost
REASON = "The draw repeated a segment of the wheel: a malfunction"


def _void(round_id: int, proposer, decider) -> None:
    proposed = correction_propose(actor=proposer, round_id=round_id, kind="void", reason=REASON)
    correction_approve(actor=decider, correction_id=proposed.pk)


@pytest.mark.clause("reading:spend-limit-net", kind="proves")
def test_814a2_a_voided_win_followed_by_losses_stops_play_at_the_daily_spend_limit(
    account_a, live_offering, supervisor_a, officer
):
    player = account_a.player
    limit_set(player=player, account_id=account_a.pk, kind=LimitKind.SPEND_DAY, value=2_000)
    won = play_round(player, live_offering, "spend-net-win", wagers=WINNING, outcome=3).round
    _void(won.pk, supervisor_a, officer)  # its $24.00 taken back, its $2.00 stake given back

    for n in range(10):  # $20.00 lost: the limit
        play_round(player, live_offering, f"spend-net-loss-{n}", wagers=LOSING, outcome=7)
    with pytest.raises(ValidationFailed) as refused:
        play_round(player, live_offering, "spend-net-loss-over", wagers=LOSING, outcome=7)
    assert "daily spend limit" in str(refused.value)


@pytest.mark.clause("reading:spend-limit-net", kind="proves")
def test_814a2_an_adjustment_credited_today_counts_against_todays_loss(
    account_a, live_offering, supervisor_a, officer
):
    player = account_a.player
    limit_set(player=player, account_id=account_a.pk, kind=LimitKind.SPEND_DAY, value=1_000)
    four = [{"kind": "straight", "numbers": [5], "stake": 800}]  # $8.00 lost
    lost = play_round(player, live_offering, "spend-adj-loss", wagers=four, outcome=7).round
    proposed = correction_propose(
        actor=supervisor_a,
        round_id=lost.pk,
        kind="adjustment",
        finding_id=finding_on(lost.pk),
        reason="A split was paid short",
        amount=400,
        notice="We credited $4.00 to your account for a split paid short.",
    )
    correction_approve(actor=officer, correction_id=proposed.pk)
    # $8.00 lost, $4.00 given back: $4.00 of the $10.00 used, so $6.00 more may be lost,
    # three losing rounds of $2.00, and no fourth.
    for n in range(3):
        play_round(player, live_offering, f"spend-adj-more-{n}", wagers=LOSING, outcome=7)
    with pytest.raises(ValidationFailed):
        play_round(player, live_offering, "spend-adj-over", wagers=LOSING, outcome=7)
