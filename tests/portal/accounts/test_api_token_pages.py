"""The API tokens page: issue a token (its secret shown once), list and revoke one's own."""

from __future__ import annotations

import pytest

from portal.accounts.models import ApiToken
from portal.accounts.tokens import api_token_issue

pytestmark = pytest.mark.django_db


def test_issuing_shows_the_secret_once_and_never_again(client, player):
    client.force_login(player)

    issued = client.post("/accounts/tokens/", {"name": "Game client", "days": 30})

    assert issued.status_code == 200
    assert "no-store" in issued["Cache-Control"]
    token = ApiToken.objects.get()
    secret = issued.context["issued"][1]
    assert secret.startswith(token.prefix)
    assert secret in issued.content.decode()
    again = client.get("/accounts/tokens/")
    assert secret not in again.content.decode()
    assert token.prefix in again.content.decode()


def test_a_bad_form_is_a_400_and_issues_nothing(client, player):
    client.force_login(player)

    for data in ({"name": "", "days": 30}, {"name": "x", "days": 0}, {"name": "x", "days": 400}):
        assert client.post("/accounts/tokens/", data).status_code == 400
    assert not ApiToken.objects.exists()


def test_the_page_lists_only_ones_own_tokens(client, player, auditor):
    api_token_issue(user=auditor, name="Auditor's script")
    api_token_issue(user=player, name="Player's client")
    client.force_login(player)

    page = client.get("/accounts/tokens/").content.decode()

    assert "Player&#x27;s client" in page
    assert "Auditor&#x27;s script" not in page


def test_revoking_from_the_page(client, player):
    token, _ = api_token_issue(user=player, name="Game client")
    client.force_login(player)

    response = client.post(f"/accounts/tokens/{token.pk}/revoke/", follow=True)

    assert response.status_code == 200
    assert "is revoked" in response.content.decode()
    token.refresh_from_db()
    assert token.revoked_at is not None


def test_someone_elses_token_cannot_be_revoked_from_the_page(client, player, auditor):
    token, _ = api_token_issue(user=auditor, name="Auditor's script")
    client.force_login(player)

    assert client.post(f"/accounts/tokens/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_the_page_needs_a_signed_in_user(client):
    assert client.get("/accounts/tokens/").status_code == 302


@pytest.mark.parametrize("pk", ["99999999999999999999999", "9223372036854775808"])
def test_a_token_id_beyond_any_row_is_not_found(client, player, pk):
    token, _ = api_token_issue(user=player, name="Game client")
    client.force_login(player)

    assert client.post(f"/accounts/tokens/{pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None
