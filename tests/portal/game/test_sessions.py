"""Player sessions (§ 812a.3(a)(5)-(6), § 812a.9(a)(4)-(5)) and the daily time limit they
count (§ 814a.2(4), reading:time-limit-sessions), on the pages and through the API, with the
clock moved."""

from __future__ import annotations

import datetime

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from portal.access.roles import Role
from portal.accounts.tokens import api_token_issue
from portal.audit.models import AuditEvent
from portal.game.models import GamingAccount, PlaySession, Round, SessionChannel
from portal.game.money.services.limit_changes import limit_set
from portal.game.sessions.lifecycle import time_played, union_length
from portal.notifications.sources.actions import notices_for
from tests.portal.factories import PASSWORD, in_session, make_user, signed_in_api
from tests.portal.game.conftest import SESSION_START, at

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
RED = [{"kind": "red", "stake": 200}]
T0 = SESSION_START  # 10:00 EST


def _sign_in(client, username="player"):
    return client.post("/accounts/login/", {"username": username, "password": PASSWORD})


def _api_round(client, offering, key):
    body = {"offering": offering.pk, "wagers": RED, "idempotency_key": key}
    return client.post("/api/rounds/", body, format="json")


def _api_sign_in(client, username="player", password=PASSWORD):
    return client.post(
        "/api/sessions/", {"username": username, "password": password}, format="json"
    )


# The pages --------------------------------------------------------------------------------


def test_812a3_a_6_a_page_session_ends_after_15_minutes_without_activity(funded_player):
    client = Client()
    with at(0):
        _sign_in(client)
    session = PlaySession.objects.get(user=funded_player)
    with at(14):
        assert client.get("/play/").status_code == 200
    with at(28):  # 14 minutes after the last request: still running
        assert client.get("/play/").status_code == 200
    with at(43.5):  # 15.5 minutes without a request
        answer = client.get("/play/", follow=True)
    assert answer.redirect_chain[0][0].startswith("/accounts/login/?next=%2Fplay%2F")
    assert "15 minutes without activity" in answer.content.decode()
    session.refresh_from_db()
    assert session.ended_at == T0 + datetime.timedelta(minutes=28)  # its last activity
    with at(44):
        assert client.get("/play/").status_code == 302  # signed out: sign in again
        _sign_in(client)
        assert client.get("/play/").status_code == 200
    assert PlaySession.objects.filter(user=funded_player).count() == 2


def test_812a3_a_6_pages_move_the_last_activity_at_most_once_a_minute(funded_player):
    client = Client()
    with at(0):
        _sign_in(client)
    session = PlaySession.objects.get(user=funded_player)
    with at(0.5):
        client.get("/play/")
    session.refresh_from_db()
    assert session.last_activity_at == T0
    with at(1.5):
        client.get("/play/")
    session.refresh_from_db()
    assert session.last_activity_at == T0 + datetime.timedelta(minutes=1.5)


def test_812a3_a_6_staff_sessions_keep_their_own_idle_time(officer, settings):
    settings.JINZI_STAFF_IDLE = datetime.timedelta(minutes=30)
    client = Client()
    with at(0):
        _sign_in(client, "officer")
    with at(29):
        assert client.get("/compliance/").status_code == 200
    with at(60):
        answer = client.get("/compliance/", follow=True)
    assert "after 30 minutes without activity" in answer.content.decode()
    assert not PlaySession.objects.filter(user=officer).exists()  # staff do not play


def test_812a9_a_5_a_page_round_records_the_browser_session(funded_player, live_offering):
    client = APIClient()
    client.force_login(funded_player)
    answer = _api_round(client, live_offering, "page-round-0001")
    assert answer.status_code == 201
    session = PlaySession.objects.get(user=funded_player)
    assert answer.json()["session"] == str(session.public_id)
    assert session.channel == SessionChannel.PAGES


# The API ----------------------------------------------------------------------------------


def test_812a9_a_4_the_api_sign_in_starts_a_session_and_names_the_previous_one(
    funded_player,
):
    client = APIClient()
    with at(0):
        first = _api_sign_in(client)
    assert first.status_code == 201
    assert first.json()["previous"] is None
    with at(5):
        client.post(f"/api/sessions/{first.json()['session']}/end/")  # no token: refused
    with at(30):
        second = _api_sign_in(client).json()
    assert second["previous"] == {
        "id": first.json()["session"],
        "started_at": "2027-03-03T15:00:00+00:00",
        "ended_at": "2027-03-03T15:00:00+00:00",  # idle: ended at its last activity
    }
    assert AuditEvent.objects.filter(action="session.api_start").count() == 2


def test_812a3_a_6_a_players_token_works_only_inside_a_running_api_session(
    funded_player, live_offering
):
    client = APIClient()
    with at(0):
        _, secret = api_token_issue(user=funded_player, name="script", days=7)
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        refused = _api_round(client, live_offering, "no-session-01")
    assert refused.status_code == 401
    assert "POST /api/sessions/" in refused.json()["detail"]
    assert refused["WWW-Authenticate"].startswith("Bearer")
    with at(1):
        session = _api_sign_in(client).json()["session"]
        assert _api_round(client, live_offering, "in-session-01").status_code == 201
    with at(15):  # the round was the last activity, 14 minutes ago
        played = _api_round(client, live_offering, "in-session-02")
    assert played.status_code == 201 and played.json()["session"] == session
    with at(30.5):  # 15.5 minutes idle
        lapsed = _api_round(client, live_offering, "lapsed-00001")
        listed = client.get("/api/rounds/")
    assert lapsed.status_code == 401 and listed.status_code == 401
    assert "15 minutes without activity" in lapsed.json()["detail"]
    assert Round.objects.count() == 2
    with at(31):
        _api_sign_in(client)
        assert _api_round(client, live_offering, "again-000001").status_code == 201


def test_812a3_a_6_the_api_sign_in_is_under_the_pages_lock_out(funded_player, settings):
    client = APIClient()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        wrong = _api_sign_in(client, password="not-the-password")
        assert wrong.status_code == 401
        assert "do not match" in wrong.json()["detail"]
    assert _api_sign_in(client, password="not-the-password").status_code == 429
    locked = _api_sign_in(client)  # the right password, too late
    assert locked.status_code == 429
    assert "too many failed sign-ins" in locked.json()["detail"]
    assert not PlaySession.objects.exists()
    assert AuditEvent.objects.filter(action="auth.sign_in_failed").count() >= 5


def test_812a3_a_6_staff_open_no_play_session_and_keep_their_tokens(officer, funded_player):
    answer = _api_sign_in(APIClient(), "officer")
    assert answer.status_code == 403
    _, secret = api_token_issue(user=officer, name="script", days=7)
    staff = APIClient()
    staff.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert staff.get("/api/rounds/").status_code == 200


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"username": "player"}, 400),
        ({"username": "player", "password": 7}, 400),
        ({"username": "player", "password": PASSWORD, "extra": 1}, 400),
        ({"username": "nobody", "password": PASSWORD}, 401),
    ],
)
def test_812a3_a_6_a_malformed_sign_in_is_refused_and_starts_nothing(funded_player, body, status):
    answer = APIClient().post("/api/sessions/", body, format="json")
    assert answer.status_code == status
    assert not PlaySession.objects.exists()


def test_812a3_a_6_a_session_id_not_the_players_or_malformed_is_a_404(funded_player, officer):
    client = signed_in_api(funded_player)
    other = make_user("other-player", Role.PLAYER)
    theirs = in_session(other)
    their_id = PlaySession.objects.get(pk=theirs).public_id
    assert client.get(f"/api/sessions/{their_id}/").status_code == 404
    assert client.post(f"/api/sessions/{their_id}/end/").status_code == 404
    assert client.get("/api/sessions/not-a-session/").status_code == 404
    assert PlaySession.objects.get(pk=theirs).ended_at is None


def test_812a3_a_6_signing_out_through_the_api_ends_the_session(funded_player, live_offering):
    client = signed_in_api(funded_player)
    ended = client.post(f"/api/sessions/{client.session_id}/end/")
    assert ended.status_code == 200 and ended.json()["running"] is False
    assert _api_round(client, live_offering, "after-end-01").status_code == 401


# The daily time limit: the union of the sessions ------------------------------------------


def test_814a2_4_union_length_counts_overlaps_once():
    t = [T0 + datetime.timedelta(minutes=m) for m in range(0, 100, 10)]
    assert union_length([]) == datetime.timedelta()
    assert union_length([(t[0], t[3]), (t[1], t[2]), (t[2], t[4]), (t[6], t[7])]) == (
        datetime.timedelta(minutes=50)
    )
    assert union_length([(t[3], t[1])]) == datetime.timedelta()


@pytest.mark.clause("reading:time-limit-sessions", kind="proves")
def test_814a2_4_an_idle_night_uses_nothing_of_the_next_days_time_limit(
    funded_player, live_offering
):
    """Signed in at 20:00, played, closed the browser: the next day's first round plays."""
    account = GamingAccount.objects.get(player=funded_player)
    limit_set(player=funded_player, account_id=account.pk, kind="time_day", value=60)
    client = APIClient()
    evening = datetime.datetime(2027, 3, 4, 1, 0, tzinfo=UTC)  # 20:00 EST, 3 March
    with time_machine.travel(evening, tick=False):
        client.force_login(funded_player)
        assert _api_round(client, live_offering, "evening-0001").status_code == 201
    morning = datetime.datetime(2027, 3, 4, 15, 0, tzinfo=UTC)  # 10:00 EST, 4 March
    with time_machine.travel(morning, tick=False):
        again = APIClient()
        again.force_login(funded_player)
        answer = _api_round(again, live_offering, "morning-0001")
        assert answer.status_code == 201, answer.json()
        used = time_played(funded_player.pk, morning - datetime.timedelta(hours=10), morning)
    assert used == datetime.timedelta()


@pytest.mark.clause("reading:time-limit-sessions", kind="proves")
def test_814a2_4_api_play_counts_against_the_daily_time_limit(funded_player, live_offering):
    account = GamingAccount.objects.get(player=funded_player)
    limit_set(player=funded_player, account_id=account.pk, kind="time_day", value=1)
    client = APIClient()
    with at(0):
        _, secret = api_token_issue(user=funded_player, name="script", days=7)
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        _api_sign_in(client)
        assert _api_round(client, live_offering, "api-time-01").status_code == 201
    with at(0.5):
        assert _api_round(client, live_offering, "api-time-02").status_code == 201
    with at(1.5):
        refused = _api_round(client, live_offering, "api-time-03")
    assert refused.status_code == 409
    assert "daily time limit of 1 minutes is used up" in refused.json()["detail"]


@pytest.mark.clause("reading:time-limit-sessions", kind="proves")
def test_814a2_4_two_browsers_and_a_token_at_once_count_their_time_once(
    funded_player, live_offering
):
    account = GamingAccount.objects.get(player=funded_player)
    limit_set(player=funded_player, account_id=account.pk, kind="time_day", value=20)
    first, second = APIClient(), APIClient()
    token = APIClient()
    with at(0):
        _, secret = api_token_issue(user=funded_player, name="script", days=7)
        token.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        first.force_login(funded_player)
        second.force_login(funded_player)
        _api_sign_in(token)
    for minute in (5, 10, 15):  # all three active at once: 15 minutes, not 45
        with at(minute):
            for number, client in enumerate((first, second, token)):
                answer = _api_round(client, live_offering, f"overlap-{minute}-{number}")
                assert answer.status_code == 201, answer.json()
    with at(15):
        assert time_played(funded_player.pk, T0 - datetime.timedelta(hours=1), T0) == (
            datetime.timedelta()
        )
        counted = time_played(funded_player.pk, T0, T0 + datetime.timedelta(minutes=15))
    assert counted == datetime.timedelta(minutes=15)
    with at(21):
        refused = _api_round(token, live_offering, "overlap-late-01")
    assert refused.status_code == 409 and "daily time limit" in refused.json()["detail"]


# Told of every access (§ 812a.3(a)(5)) ----------------------------------------------------


def test_812a3_a_5_a_player_who_chose_is_told_of_every_sign_in(funded_player, client):
    from portal.game.sessions.notice import session_choices_set

    _sign_in(Client())
    assert notices_for(AuditEvent.objects.filter(action="auth.sign_in").last()) == []
    session_choices_set(player=funded_player, notice_minutes=60, tell_every_access=True)
    _sign_in(Client())
    _api_sign_in(APIClient())
    pages = notices_for(AuditEvent.objects.filter(action="auth.sign_in").last())
    api = notices_for(AuditEvent.objects.get(action="session.api_start"))
    assert [n.recipients for n in pages + api] == [frozenset({funded_player.pk})] * 2
    assert "on the portal" in pages[0].body and "through the API" in api[0].body
    assert pages[0].kind.default == "email"
