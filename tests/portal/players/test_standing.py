"""A player's standing at every holder: nothing deposited or played before the identity is
verified (§ 812a.2), nor while excluded (§ 815a.3), and what they hold always withdrawable."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.utils import timezone

from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import DepositMethod, Wallet, WithdrawalStatus
from portal.game.money import standing
from portal.game.money.services.deposits import deposit_make
from portal.game.money.services.withdrawals import withdrawal_request
from portal.players import messages as msg
from portal.players.models import ExclusionPeriod, PlayerExclusion
from portal.players.services.exclusion import period_end, self_exclusion_request
from tests.portal.game.account_helpers import nothing_moved
from tests.portal.game.conftest import TEN_STRAIGHTS, play_round

pytestmark = pytest.mark.django_db


def _deposit(player, holder):
    return deposit_make(player=player, holder_id=holder.pk, amount=1_000, method=DepositMethod.DEMO)


def test_812a2_an_unverified_player_neither_deposits_nor_plays_but_withdraws(
    account_a, live_offering, holder_a
):
    player = account_a.player
    Wallet.objects.filter(player=player).update(identity_verified_at=None)  # as migrated
    with nothing_moved(), pytest.raises(Conflict) as refused:
        _deposit(player, holder_a)
    assert str(refused.value) == standing.NOT_VERIFIED
    with nothing_moved(), pytest.raises(Conflict) as refused:
        play_round(player, live_offering, "unverified-1")
    assert str(refused.value) == standing.NOT_VERIFIED
    withdrawal = withdrawal_request(player=player, account_id=account_a.pk, amount=10_000)
    assert withdrawal.status == WithdrawalStatus.PENDING


def test_812a2_an_unverified_player_opens_no_account_by_depositing(player, holder_b):
    Wallet.objects.filter(player=player).update(identity_verified_at=None)
    with nothing_moved(), pytest.raises(Conflict):
        _deposit(player, holder_b)
    assert not player.gaming_accounts.filter(holder=holder_b).exists()


@pytest.mark.clause("reading:self-exclusion", kind="proves")
def test_815a3_a_self_excluded_player_is_refused_at_every_holder_and_still_withdraws(
    other_player, live_offering, holder_a, holder_b
):
    exclusion = self_exclusion_request(
        player=other_player, period=ExclusionPeriod.ONE_YEAR, confirmed=True
    )
    wallet = Wallet.objects.get(player=other_player)
    assert wallet.excluded_since == exclusion.starts_at
    assert wallet.excluded_until == exclusion.ends_at
    for holder in (holder_a, holder_b):
        with nothing_moved(), pytest.raises(Conflict) as refused:
            _deposit(other_player, holder)
        assert str(refused.value).startswith("§ 815a.4: you are excluded")
    with nothing_moved(), pytest.raises(Conflict):
        play_round(other_player, live_offering, "excluded-1", wagers=TEN_STRAIGHTS[:1])
    account = other_player.gaming_accounts.get(holder=holder_b)
    withdrawal = withdrawal_request(player=other_player, account_id=account.pk, amount=50_000)
    assert withdrawal.status == WithdrawalStatus.PENDING


@pytest.mark.parametrize(
    ("period", "years"),
    [(ExclusionPeriod.ONE_YEAR, 1), (ExclusionPeriod.FIVE_YEARS, 5), (ExclusionPeriod.LIFE, None)],
)
def test_815a3_c_a_self_exclusion_lasts_1_year_5_years_or_life(player, period, years):
    exclusion = self_exclusion_request(player=player, period=period, confirmed=True)
    if years is None:
        assert exclusion.ends_at is None
    else:
        start, end = exclusion.starts_at, exclusion.ends_at
        assert end.year - start.year == years
        assert (end.month, end.day, end.hour) == (start.month, start.day, start.hour)


def test_815a3_c_a_leap_day_exclusion_ends_on_the_first_of_march():
    start = datetime.datetime(2028, 2, 29, 17, 0, tzinfo=datetime.UTC)
    end = period_end(ExclusionPeriod.ONE_YEAR, start)
    assert (end.month, end.day) == (3, 1)


def test_815a3_the_exclusion_ends_with_its_period_and_play_may_resume(account_a, holder_a):
    player = account_a.player
    self_exclusion_request(player=player, period=ExclusionPeriod.ONE_YEAR, confirmed=True)
    with time_machine.travel(timezone.now() + datetime.timedelta(days=367), tick=False):
        deposit = _deposit(player, holder_a)
    assert deposit.amount == 1_000


def test_815a3_a_self_exclusion_needs_the_confirmation_and_a_known_period(player):
    with nothing_moved(), pytest.raises(ValidationFailed) as refused:
        self_exclusion_request(player=player, period=ExclusionPeriod.LIFE, confirmed=False)
    assert refused.value.field_errors["confirmed"] == [msg.CONFIRM_NEEDED]
    with nothing_moved(), pytest.raises(ValidationFailed) as refused:
        self_exclusion_request(player=player, period="2_years", confirmed=True)
    assert refused.value.field_errors["period"] == [msg.PERIOD_UNKNOWN]
    assert not PlayerExclusion.objects.exists()


@pytest.mark.clause("reading:self-exclusion", kind="proves")
def test_815a3_a_self_exclusion_is_never_shortened_but_may_be_lengthened(player):
    self_exclusion_request(player=player, period=ExclusionPeriod.FIVE_YEARS, confirmed=True)
    with pytest.raises(ValidationFailed) as refused:
        self_exclusion_request(player=player, period=ExclusionPeriod.ONE_YEAR, confirmed=True)
    assert "never shorter" in refused.value.field_errors["period"][0]
    self_exclusion_request(player=player, period=ExclusionPeriod.LIFE, confirmed=True)
    assert Wallet.objects.get(player=player).excluded_until is None  # for life now
    with pytest.raises(ValidationFailed):
        self_exclusion_request(player=player, period=ExclusionPeriod.LIFE, confirmed=True)
