"""The notice of time and money played since sign-in (§ 814a.1, reading:play-notice): every
60 minutes (or 15 or 30, as the player chooses) the next round waits on it until the player
acknowledges it; pages, API and service alike, with the clock moved."""

from __future__ import annotations

import datetime

import pytest
from rest_framework.test import APIClient

from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, ValidationFailed
from portal.game.models import PlaySession, Round, Wallet
from portal.game.sessions.notice import (
    NoticePending,
    notice_acknowledge,
    session_choices_set,
)
from tests.portal.factories import in_session
from tests.portal.game.conftest import SESSION_START, at, play_round

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
RED = [{"kind": "red", "stake": 200}]
T0 = SESSION_START  # 10:00 EST


def _play(player, offering, key, session, outcome=3):
    return play_round(player, offering, key, wagers=RED, outcome=outcome, session=session)


@pytest.mark.clause("reading:play-notice", kind="proves")
def test_814a1_the_next_round_waits_on_the_hourly_notice_until_it_is_acknowledged(
    funded_player, live_offering
):
    with at(0):
        session = in_session(funded_player)
    for minute in range(10, 60, 10):  # red on 3 wins: $2 staked, $4 back, each
        with at(minute):
            _play(funded_player, live_offering, f"notice-play-{minute}", session)
    with at(60), pytest.raises(NoticePending) as waiting:
        _play(funded_player, live_offering, "notice-refused", session)
    notice = waiting.value.notice
    assert (notice.number, notice.rounds, notice.wagered, notice.won, notice.net) == (
        1,
        5,
        1_000,
        2_000,
        1_000,
    )
    assert notice.elapsed_seconds == 3600
    assert notice.words == (
        "You signed in at 10:00 EST: 1 hour 0 minutes ago. Since then you played 5 rounds, "
        "wagered $10.00 and were paid $20.00: $10.00 won overall."
    )
    assert Round.objects.count() == 5
    stored = PlaySession.objects.get(pk=session)
    with at(61):
        with pytest.raises(Conflict, match="the notice waiting is number 1, not 2"):
            notice_acknowledge(player=funded_player, session=stored, number=2)
        notice_acknowledge(player=funded_player, session=stored, number=1)
        _play(funded_player, live_offering, "notice-after-1", session)
    event = AuditEvent.objects.get(action="session.notice_acknowledged")
    assert event.after["number"] == 1 and event.after["wagered"] == 1_000
    for minute in range(71, 121, 10):
        with at(minute):
            _play(funded_player, live_offering, f"notice-play-{minute}", session)
    with at(121), pytest.raises(NoticePending):  # the next, an hour after the last one read
        _play(funded_player, live_offering, "notice-refused-2", session)
    with at(122):
        stored = PlaySession.objects.get(pk=session)
        with pytest.raises(Conflict, match="the notice waiting is number 2, not 1"):
            notice_acknowledge(player=funded_player, session=stored, number=1)


@pytest.mark.clause("reading:play-notice", kind="proves")
def test_814a1_the_player_may_choose_the_notice_every_15_or_30_minutes(
    funded_player, live_offering
):
    session_choices_set(player=funded_player, notice_minutes=15, tell_every_access=False)
    with at(0):
        session = in_session(funded_player)
    with at(14):
        _play(funded_player, live_offering, "fifteen-play-1", session, outcome=2)
    with at(15), pytest.raises(NoticePending) as waiting:
        _play(funded_player, live_offering, "fifteen-refused", session)
    assert waiting.value.notice.net == -200  # red on 2 (black) loses
    assert "were paid $0.00: $2.00 lost overall" in waiting.value.notice.words


@pytest.mark.parametrize("minutes", [0, 10, 45, 90, "60", 60.0, None, True])
def test_814a1_a_notice_interval_other_than_15_30_or_60_is_refused(funded_player, minutes):
    with pytest.raises(ValidationFailed, match="every 15, 30 or 60 minutes"):
        session_choices_set(player=funded_player, notice_minutes=minutes, tell_every_access=False)
    assert not AuditEvent.objects.filter(action="session.choices").exists()


def test_814a1_no_notice_is_waiting_before_its_time(funded_player):
    with at(0):
        session = PlaySession.objects.get(pk=in_session(funded_player))
    with at(10), pytest.raises(Conflict, match="no notice is waiting"):
        notice_acknowledge(player=funded_player, session=session, number=1)
    with at(10), pytest.raises(ValidationFailed, match="notice's number"):
        notice_acknowledge(player=funded_player, session=session, number="1")


@pytest.mark.clause("reading:play-notice", kind="proves")
def test_814a1_an_api_round_answers_409_with_the_notice_and_how_to_acknowledge_it(
    funded_player, live_offering
):
    from tests.portal.factories import signed_in_api

    with at(0):
        client = signed_in_api(funded_player)
    body = {"offering": live_offering.pk, "wagers": RED}
    for minute in range(10, 70, 10):  # each round keeps the session active
        with at(minute):
            answer = client.post(
                "/api/rounds/", body | {"idempotency_key": f"api-notice-{minute}"}, format="json"
            )
    assert answer.status_code == 409
    notice = answer.json()["notice"]
    assert notice["number"] == 1 and notice["session"] == client.session_id
    assert notice["wagered"] == 1_000 and notice["rounds"] == 5
    assert "acknowledge" in answer.json()["detail"]
    acknowledge = f"/api/sessions/{client.session_id}/notice/"
    with at(61):
        assert client.get(f"/api/sessions/{client.session_id}/").json()["notice"]["number"] == 1
        wrong = client.post(acknowledge, {"number": 3}, format="json")
        assert wrong.status_code == 409
        malformed = client.post(acknowledge, {"number": "one"}, format="json")
        assert malformed.status_code == 400
        done = client.post(acknowledge, {"number": 1}, format="json")
        assert done.status_code == 200 and done.json()["number"] == 1
        again = client.post(acknowledge, {"number": 1}, format="json")
        assert again.status_code == 409
        played = client.post(
            "/api/rounds/", body | {"idempotency_key": "api-notice-after"}, format="json"
        )
    assert played.status_code == 201


@pytest.mark.clause("reading:play-notice", kind="proves")
def test_814a1_the_table_page_shows_the_notice_first_and_acknowledges_it(
    funded_player, live_offering
):
    client = APIClient()
    with at(0):
        client.force_login(funded_player)
    for minute in range(10, 70, 10):
        with at(minute):
            page = client.get(f"/play/{live_offering.pk}/").content.decode()
    assert "Your time and money played" in page
    assert "Confirm bets and spin" not in page
    assert 'name="number" value="1"' in page
    with at(61):
        wrong = client.post(f"/play/{live_offering.pk}/", {"number": "2"})
        assert wrong.status_code == 409
        done = client.post(f"/play/{live_offering.pk}/", {"number": "1"}, follow=True)
    page = done.content.decode()
    assert "Thank you. You may play on." in page and "Confirm bets and spin" in page


def test_814a1_the_account_page_saves_the_players_session_choices(funded_player, client):
    client.force_login(funded_player)
    saved = client.post(
        "/play/account/",
        {"action": "sessions", "notice_minutes": "30", "tell_every_access": "on"},
        follow=True,
    )
    assert "shown every 30 minutes; you are told of each sign-in" in saved.content.decode()
    wallet = Wallet.objects.get(player=funded_player)
    assert (wallet.notice_minutes, wallet.tell_every_access) == (30, True)
    refused = client.post("/play/account/", {"action": "sessions", "notice_minutes": "45"})
    assert refused.status_code == 400
    assert "Choose 15, 30 or 60 minutes" in refused.content.decode()
    wallet.refresh_from_db()
    assert wallet.notice_minutes == 30
