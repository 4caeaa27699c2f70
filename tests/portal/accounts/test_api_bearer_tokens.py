"""``/api/tokens/`` and signing in with ``Authorization: Bearer``."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from portal.accounts.api import authentication as auth
from portal.accounts.models import ApiToken
from portal.accounts.tokens import TOKEN_CANNOT_ISSUE, api_token_issue
from portal.game.models import Round, SessionChannel
from portal.game.sessions.lifecycle import session_start

pytestmark = pytest.mark.django_db


def api_signed_in(player) -> None:
    """The player's API session, as ``POST /api/sessions/`` starts it: their token works
    inside it (§ 812a.3(a)(6))."""
    session_start(user=player, channel=SessionChannel.API, at=timezone.now())


def bearer(secret: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def test_a_signed_in_user_issues_a_token_and_sees_its_secret_once(api_as, player):
    client = api_as(player)

    issued = client.post("/api/tokens/", {"name": "Game client", "days": 30}, format="json")

    assert issued.status_code == 201
    body = issued.json()
    assert body["token"].startswith("jzt_")
    assert body["prefix"] == body["token"][:12]
    assert body["active"] is True
    listed = client.get("/api/tokens/").json()["results"]
    assert [token["id"] for token in listed] == [body["id"]]
    assert "token" not in listed[0] and "digest" not in listed[0]
    assert body["token"] not in client.get(f"/api/tokens/{body['id']}/").content.decode()


def test_a_token_signs_in_as_its_user_with_their_roles(player, auditor, live_offering):
    _, player_secret = api_token_issue(user=player, name="Game client")
    api_signed_in(player)
    _, auditor_secret = api_token_issue(user=auditor, name="Reports script")

    assert bearer(player_secret).get("/api/wallet/").status_code == 200
    assert bearer(player_secret).get("/api/audit-events/").status_code == 403  # a player
    assert bearer(auditor_secret).get("/api/audit-events/").status_code == 200
    assert bearer(auditor_secret).get("/api/wallet/").status_code == 403  # not a player


def test_a_token_plays_a_round_without_a_csrf_token(funded_player, live_offering):
    _, secret = api_token_issue(user=funded_player, name="Game client")
    api_signed_in(funded_player)
    client = APIClient(enforce_csrf_checks=True)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")

    response = client.post(
        "/api/rounds/",
        {
            "offering": live_offering.pk,
            "wagers": [{"kind": "red", "stake": 200}],
            "idempotency_key": "token-round-0001",
        },
        format="json",
    )

    assert response.status_code == 201
    assert Round.objects.get().player == funded_player


def test_the_session_still_needs_its_csrf_token(funded_player, live_offering):
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(funded_player)

    response = client.post("/api/rounds/", {}, format="json")

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]


def test_a_token_cannot_issue_tokens(player):
    _, secret = api_token_issue(user=player, name="Game client")
    api_signed_in(player)

    response = bearer(secret).post("/api/tokens/", {"name": "another"}, format="json")

    assert response.status_code == 403
    assert response.json()["detail"] == TOKEN_CANNOT_ISSUE
    assert ApiToken.objects.count() == 1


def test_a_revoked_token_stops_working_at_once(api_as, player):
    token, secret = api_token_issue(user=player, name="Game client")
    api_signed_in(player)
    assert bearer(secret).get("/api/wallet/").status_code == 200

    assert api_as(player).delete(f"/api/tokens/{token.pk}/").status_code == 204

    refused = bearer(secret).get("/api/wallet/")
    assert refused.status_code == 401
    assert refused.json()["detail"] == auth.REVOKED
    assert refused["WWW-Authenticate"].startswith("Bearer")


def test_a_token_revokes_itself(player):
    token, secret = api_token_issue(user=player, name="Game client")
    api_signed_in(player)

    assert bearer(secret).delete(f"/api/tokens/{token.pk}/").status_code == 204
    assert bearer(secret).get("/api/tokens/").status_code == 401


def test_someone_elses_token_is_not_found(api_as, player, auditor):
    token, _ = api_token_issue(user=player, name="Game client")

    assert api_as(auditor).get(f"/api/tokens/{token.pk}/").status_code == 404
    assert api_as(auditor).delete(f"/api/tokens/{token.pk}/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


@pytest.mark.parametrize(
    "pk", ["99999999999999999999999", "9223372036854775808", "abc", "-1", "١٢"]
)
def test_an_unreadable_token_id_is_not_found(api_as, player, pk):
    token, _ = api_token_issue(user=player, name="Game client")

    assert api_as(player).delete(f"/api/tokens/{pk}/").status_code == 404
    assert api_as(player).get(f"/api/tokens/{pk}/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_an_expired_token_is_refused_with_the_time_it_expired(player):
    token, secret = api_token_issue(user=player, name="Game client", days=1)
    ApiToken.objects.filter(pk=token.pk).update(
        created_at=timezone.now() - datetime.timedelta(days=3),
        expires_at=timezone.now() - datetime.timedelta(days=2),
    )

    refused = bearer(secret).get("/api/wallet/")

    assert refused.status_code == 401
    assert refused.json()["detail"].startswith("this API token expired at ")


def test_the_token_of_a_disabled_account_is_refused(player):
    _, secret = api_token_issue(user=player, name="Game client")
    player.is_active = False
    player.save()

    refused = bearer(secret).get("/api/wallet/")

    assert refused.status_code == 401
    assert refused.json()["detail"] == auth.INACTIVE


@pytest.mark.parametrize(
    ("header", "detail"),
    [
        ("Bearer jzt_" + "x" * 43, auth.UNKNOWN),
        ("Bearer", auth.MALFORMED),
        ("Bearer one two", auth.MALFORMED),
        ("Bearer not-a-jinzi-token", auth.MALFORMED),
        ("Bearer jzt_" + "x" * 200, auth.MALFORMED),
        ("Bearer jzt_é", auth.MALFORMED),
    ],
)
def test_a_bad_bearer_header_is_a_401_naming_the_problem(db, header, detail):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)

    refused = client.get("/api/offerings/")

    assert refused.status_code == 401
    assert refused.json()["detail"] == detail
    assert 'error="invalid_token"' in refused["WWW-Authenticate"]


def test_a_request_with_no_credentials_is_still_a_403(db):
    assert APIClient().get("/api/offerings/").status_code == 403


def test_issuing_checks_the_body(api_as, player):
    client = api_as(player)

    assert client.post("/api/tokens/", {}, format="json").status_code == 400
    assert client.post("/api/tokens/", {"name": "x", "days": 0}, format="json").status_code == 400
    assert client.post("/api/tokens/", {"name": "x", "days": "7"}, format="json").status_code == 400
    unknown = client.post("/api/tokens/", {"name": "x", "scope": "all"}, format="json")
    assert unknown.status_code == 400
    assert "scope" in unknown.json()["errors"]
    assert not ApiToken.objects.exists()


def test_a_token_request_costs_three_queries_for_its_user_roles_and_session(
    funded_player, live_offering, django_assert_num_queries
):
    _, secret = api_token_issue(user=funded_player, name="Game client")
    api_signed_in(funded_player)
    client = bearer(secret)
    client.get("/api/wallet/")  # first use

    # The token with its user; their roles and holder; a player's API session that runs
    # (§ 812a.3(a)(6)); then the wallet and its entries.
    with django_assert_num_queries(5):
        assert client.get("/api/wallet/").status_code == 200


def test_a_password_change_ends_the_users_tokens(player):
    _, secret = api_token_issue(user=player, name="Game client")
    player.set_password("a-new-passphrase-2026")
    player.save()

    refused = bearer(secret).get("/api/wallet/")

    assert refused.status_code == 401
    assert refused.json()["detail"] == auth.PASSWORD_CHANGED
