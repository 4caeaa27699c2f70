"""Responsible gaming (§ 814a.2): limits a player sets on their account with a holder, in
Pennsylvania periods; a lower limit at once, a higher one after the period and a second
confirmation; refusals that name the limit and when it resets."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.test import Client

from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import GamingAccount, PlaySession, Round
from portal.game.money.limits import LimitKind, Period, period_span
from portal.game.money.services.deposits import deposit_record
from portal.game.money.services.limit_changes import limit_confirm, limit_set, pause_play
from portal.game.sessions.lifecycle import previous_session_text
from tests.portal.factories import PASSWORD, in_session
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

UTC = datetime.UTC
RED = [{"kind": "red", "stake": 1000}]
STRAIGHT = [{"kind": "straight", "numbers": [5], "stake": 1000}]


def utc(*parts) -> datetime.datetime:
    return datetime.datetime(*parts, tzinfo=UTC)


@pytest.fixture
def account(funded_player, holder_a):
    return GamingAccount.objects.get(player=funded_player, holder=holder_a)


@pytest.mark.clause("reading:limit-periods", kind="proves")
def test_814a2_periods_are_pennsylvania_day_monday_week_and_calendar_month():
    at = utc(2027, 3, 3, 4, 30)  # Tuesday 2 March 2027, 23:30 EST
    assert period_span(Period.DAY, at) == (utc(2027, 3, 2, 5), utc(2027, 3, 3, 5))
    assert period_span(Period.WEEK, at) == (utc(2027, 3, 1, 5), utc(2027, 3, 8, 5))
    # March 2027's clocks go forward on the 14th: the month ends at 00:00 EDT (04:00 UTC).
    assert period_span(Period.MONTH, at) == (utc(2027, 3, 1, 5), utc(2027, 4, 1, 4))


def test_814a2_a_lower_limit_takes_effect_at_once_and_is_audited(funded_player, account):
    change = limit_set(player=funded_player, account_id=account.pk, kind="loss_day", value=5_000)
    assert change.applied
    account.refresh_from_db()
    assert account.limits == {"loss_day": 5_000}
    event = AuditEvent.objects.get(action="account.limit")
    assert event.after["limits"] == {"loss_day": 5_000} and event.before["limits"] == {}


@pytest.mark.clause("reading:limit-raises", kind="proves")
def test_814a2_a_higher_limit_waits_for_the_period_and_a_second_confirmation(
    funded_player, account
):
    with time_machine.travel(utc(2027, 3, 3, 15), tick=False):  # Wednesday, 10:00 EST
        limit_set(player=funded_player, account_id=account.pk, kind="deposit_week", value=1_000)
        change = limit_set(
            player=funded_player, account_id=account.pk, kind="deposit_week", value=9_000
        )
        assert not change.applied
        assert change.effective_from == utc(2027, 3, 8, 5)  # Monday 00:00 EST
        with pytest.raises(Conflict, match=r"§ 814a\.2: a higher weekly deposit limit"):
            limit_confirm(player=funded_player, account_id=account.pk, kind="deposit_week")
    account.refresh_from_db()
    assert account.limits["deposit_week"] == 1_000

    with time_machine.travel(utc(2027, 3, 8, 5, 1), tick=False):
        limit_confirm(player=funded_player, account_id=account.pk, kind="deposit_week")
    account.refresh_from_db()
    assert account.limits["deposit_week"] == 9_000 and account.pending_limits == {}


@pytest.mark.clause("reading:limit-raises", kind="proves")
def test_814a2_removing_a_limit_is_a_raise_and_waits_too(funded_player, account):
    limit_set(player=funded_player, account_id=account.pk, kind="wager", value=500)
    change = limit_set(player=funded_player, account_id=account.pk, kind="wager", value=None)
    assert not change.applied
    account.refresh_from_db()
    assert account.limits == {"wager": 500}
    assert account.pending_limits["wager"]["value"] is None


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("loss_year", 5),
        ("deposit_day", 0),
        ("time_day", 24 * 60 + 1),
        ("wager", 1.5),
        ("wager", "100"),
    ],
)
def test_814a2_a_limit_that_is_not_one_the_rule_names_or_not_whole_is_refused(
    funded_player, account, kind, value
):
    with pytest.raises(ValidationFailed):
        limit_set(player=funded_player, account_id=account.pk, kind=kind, value=value)
    account.refresh_from_db()
    assert account.limits == {} and not AuditEvent.objects.filter(action="account.limit")


def test_814a2_a_deposit_over_a_deposit_limit_is_refused_naming_it_and_its_reset(
    funded_player, account, holder_a
):
    with time_machine.travel(utc(2027, 3, 3, 15), tick=False):
        limit_set(player=funded_player, account_id=account.pk, kind="deposit_day", value=3_000)
        wallet_top_up(player=funded_player, amount=2_000, holder=holder_a)
        with pytest.raises(
            ValidationFailed,
            match=r"§ 814a\.2: your daily deposit limit of \$30\.00 allows \$10\.00 more until "
            r"it resets at 2027-03-04 00:00 EST",
        ):
            wallet_top_up(player=funded_player, amount=1_002, holder=holder_a)
    account.refresh_from_db()
    assert account.balance == 102_000


@pytest.mark.clause("reading:limit-periods", kind="proves")
def test_814a2_a_round_over_the_spend_limit_is_refused_and_a_started_round_finishes(
    funded_player, account, live_offering
):
    limit_set(player=funded_player, account_id=account.pk, kind="loss_day", value=2_500)
    play_round(funded_player, live_offering, "spend-0001", wagers=STRAIGHT, outcome=7)  # lost 10
    play_round(funded_player, live_offering, "spend-0002", wagers=STRAIGHT, outcome=7)  # lost 20
    with pytest.raises(ValidationFailed, match=r"daily spend limit of \$25\.00 allows \$5\.00"):
        play_round(funded_player, live_offering, "spend-0003", wagers=STRAIGHT, outcome=7)
    assert Round.objects.count() == 2
    account.refresh_from_db()
    assert account.balance == 98_000


def test_814a2_a_wager_over_the_largest_single_wager_is_refused(
    funded_player, account, live_offering
):
    limit_set(player=funded_player, account_id=account.pk, kind="wager", value=800)
    with pytest.raises(ValidationFailed, match=r"largest single wager is \$8\.00; Red stakes"):
        play_round(funded_player, live_offering, "wager-limit-1", wagers=RED)
    assert not Round.objects.exists()


def test_814a2_a_temporary_suspension_stops_play_and_deposits_until_it_ends(
    funded_player, account, live_offering, holder_a
):
    with time_machine.travel(utc(2027, 3, 3, 15), tick=False):
        pause_play(player=funded_player, account_id=account.pk, hours=24)
        with pytest.raises(
            Conflict,
            match=r"§ 814a\.2: you suspended your own play .* until "
            r"2027-03-04 10:00 EST",
        ):
            play_round(funded_player, live_offering, "paused-00001", wagers=RED)
        with pytest.raises(Conflict, match="suspended your own play"):
            wallet_top_up(player=funded_player, amount=1_000, holder=holder_a)
        with pytest.raises(Conflict, match="only lengthens"):
            pause_play(player=funded_player, account_id=account.pk, hours=1)
    with time_machine.travel(utc(2027, 3, 4, 15, 1), tick=False):
        play_round(funded_player, live_offering, "paused-00002", wagers=RED)
    assert Round.objects.count() == 1


@pytest.mark.clause("reading:limit-periods", kind="proves")
@pytest.mark.clause("reading:time-limit-sessions", kind="proves")
def test_814a2_4_the_daily_time_limit_counts_session_time_and_resets_at_midnight(
    funded_player, account, live_offering
):
    limit_set(player=funded_player, account_id=account.pk, kind="time_day", value=30)
    with time_machine.travel(utc(2027, 3, 3, 15), tick=False):  # 10:00 EST
        session = in_session(funded_player)
    for minute in (10, 20, 29):  # each round keeps the session active
        with time_machine.travel(utc(2027, 3, 3, 15, minute), tick=False):
            play_round(
                funded_player, live_offering, f"time-limit-{minute}", wagers=RED, session=session
            )
    with (
        time_machine.travel(utc(2027, 3, 3, 15, 31), tick=False),
        pytest.raises(
            Conflict,
            match=r"daily time limit of 30 minutes is used up; it "
            r"resets at 2027-03-04 00:00 EST",
        ),
    ):
        play_round(funded_player, live_offering, "time-limit-2", wagers=RED, session=session)
    with time_machine.travel(utc(2027, 3, 4, 5, 10), tick=False):  # 00:10 EST, the next day
        play_round(funded_player, live_offering, "time-limit-3", wagers=RED)
    assert Round.objects.count() == 4


def test_812a9_a_4_at_sign_in_a_player_is_told_when_the_previous_session_was(player):
    first = Client()
    with time_machine.travel(utc(2027, 3, 3, 15), tick=False):
        answer = first.post(
            "/accounts/login/", {"username": "player", "password": PASSWORD}, follow=True
        )
        assert "this is your first session" in answer.content.decode()
    with time_machine.travel(utc(2027, 3, 3, 15, 10), tick=False):
        first.post("/accounts/logout/")
    with time_machine.travel(utc(2027, 3, 5, 20), tick=False):
        answer = Client().post(
            "/accounts/login/", {"username": "player", "password": PASSWORD}, follow=True
        )
    page = answer.content.decode()
    assert "Your previous session began Wednesday 03 March 2027 at 10:00 EST" in page
    assert "and ended Wednesday 03 March 2027 at 10:10 EST" in page
    assert PlaySession.objects.filter(user=player).count() == 2
    assert previous_session_text(None, at=utc(2027, 3, 5)).endswith("first session.")


def test_814a2_every_limit_kind_has_a_label_and_a_pennsylvania_period():
    assert {kind.period for kind in LimitKind} == set(Period)
    assert all(kind.label for kind in LimitKind)


def test_814a2_promotional_credit_from_the_holder_counts_against_no_deposit_limit(
    funded_player, account, payments_a, holder_a
):
    # $1,000 was deposited today (the fixture): the limit leaves $10 more.
    limit_set(player=funded_player, account_id=account.pk, kind="deposit_day", value=101_000)
    deposit_record(
        actor=payments_a,
        account_id=account.pk,
        amount=5_000,
        method="promotional",
        reference="welcome offer",
    )
    wallet_top_up(player=funded_player, amount=1_000, holder=holder_a)  # the rest of it
    with pytest.raises(ValidationFailed, match="daily deposit limit"):
        deposit_record(
            actor=payments_a, account_id=account.pk, amount=2, method="cash", reference="cage"
        )
    account.refresh_from_db()
    assert account.balance == 100_000 + 5_000 + 1_000


@pytest.mark.parametrize("kind", [["loss_day"], {"k": 1}, None, 3])
def test_814a2_a_limit_kind_that_is_not_a_name_is_refused_clearly(funded_player, account, kind):
    with pytest.raises(ValidationFailed, match="the limits are"):
        limit_set(player=funded_player, account_id=account.pk, kind=kind, value=100)
