"""The players' pages through HTTP: registering, the player file and its verification, the
players waiting for it, and self-exclusion."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from portal.audit.models import AuditEvent
from portal.game.models import Wallet
from portal.players.models import PlayerExclusion, PlayerFile
from tests.portal.factories import PASSWORD

pytestmark = pytest.mark.django_db


def form(chosen, **overrides) -> dict:
    values = {
        "holder": str(chosen.pk),
        "given_names": "Jo",
        "surname": "Kowalski",
        "date_of_birth": "1985-07-09",
        "address": "5 Liberty Avenue, Pittsburgh, PA 15222",
        "email": "jo@example.com",
        "telephone": "+1 412 555 0123",
        "ssn_last4": "",
        "username": "jo",
        "password": PASSWORD,
    }
    values.update(overrides)
    return values


def test_812a2_a_person_registers_is_signed_in_and_told_their_identity_waits(client, holder_a):
    response = client.post("/players/register/", form(holder_a))
    assert response.status_code == 302
    assert response["Location"] == "/players/welcome/"
    page = client.get("/players/welcome/").content.decode()
    assert "waiting to be verified" in page
    player_file = PlayerFile.objects.get(player__username="jo")
    assert player_file.verified_at is None


def test_812a3_a_3_registration_offers_the_second_factor(client, holder_a):
    client.post("/players/register/", form(holder_a))
    page = client.get("/players/welcome/").content.decode()
    assert 'href="/accounts/2fa/"' in page
    assert "authenticator app" in client.get("/accounts/2fa/").content.decode()


def test_814a1_e_4_registration_offers_the_limits(client, holder_a):
    client.post("/players/register/", form(holder_a))
    page = client.get("/players/welcome/").content.decode()
    assert "Set deposit, spending and time limits" in page
    assert "limit" in client.get("/play/account/").content.decode()


def test_812a2_an_under_age_registrant_is_refused_on_the_field_and_nothing_is_stored(
    client, holder_a
):
    users = get_user_model().objects.count()
    response = client.post("/players/register/", form(holder_a, date_of_birth="2020-01-01"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "you must be 21 or older" in page
    assert get_user_model().objects.count() == users
    assert not PlayerFile.objects.exists()


def test_812a2_a_forged_holder_is_refused_and_nothing_is_stored(client, holder_a):
    response = client.post("/players/register/", form(holder_a, holder="99999"))
    assert response.status_code == 400
    assert not PlayerFile.objects.exists()


@pytest.fixture
def registered(client, holder_a):
    client.post("/players/register/", form(holder_a))
    client.logout()
    return get_user_model().objects.get(username="jo")


def test_812a2_c_payments_staff_read_and_verify_from_the_players_page(
    client, registered, payments_a
):
    client.force_login(payments_a)
    waiting = client.get("/players/waiting/").content.decode()
    assert f"/players/{registered.pk}/" in waiting
    assert "Kowalski" not in waiting  # lists name players by username and id only
    page = client.get(f"/players/{registered.pk}/")
    assert page.status_code == 200
    assert "Kowalski" in page.content.decode()
    assert AuditEvent.objects.filter(action="player.identity_view", actor_id=payments_a.pk).exists()
    response = client.post(
        f"/players/{registered.pk}/",
        {"method": "in_person", "document_reference": "PA-DL 99887766"},
    )
    assert response.status_code == 302
    assert Wallet.objects.get(player=registered).identity_verified_at is not None


def test_812a2_c_a_refused_verification_says_why_on_the_field(client, registered, payments_a):
    client.force_login(payments_a)
    response = client.post(
        f"/players/{registered.pk}/", {"method": "in_person", "document_reference": "x" * 150}
    )
    assert response.status_code == 400
    assert "give the reference of the document checked" in response.content.decode()
    assert Wallet.objects.get(player=registered).identity_verified_at is None


def test_812a2_d_another_holders_staff_and_other_players_find_no_player(
    client, registered, payments_b, other_player, manager_a
):
    for stranger in (payments_b, other_player, manager_a):
        client.force_login(stranger)
        assert client.get(f"/players/{registered.pk}/").status_code == 404
        response = client.post(
            f"/players/{registered.pk}/",
            {"method": "in_person", "document_reference": "PA-DL 1"},
        )
        assert response.status_code == 404
    assert Wallet.objects.get(player=registered).identity_verified_at is None


def test_812a2_d_the_player_reads_their_own_file_but_cannot_verify_it(client, registered):
    client.force_login(registered)
    page = client.get(f"/players/{registered.pk}/").content.decode()
    assert "Kowalski" in page
    assert "Record as verified" not in page
    response = client.post(
        f"/players/{registered.pk}/", {"method": "in_person", "document_reference": "x"}
    )
    assert response.status_code == 403
    assert Wallet.objects.get(player=registered).identity_verified_at is None


def test_812a2_the_waiting_list_is_for_payments_staff_and_officers_only(client, player, manager_a):
    for user in (player, manager_a):
        client.force_login(user)
        assert client.get("/players/waiting/").status_code == 403


@pytest.mark.clause("reading:self-exclusion", kind="proves")
def test_815a3_a_player_excludes_themselves_after_confirming(client, funded_player):
    client.force_login(funded_player)
    page = client.get("/players/exclude/").content.decode()
    assert "Gaming Control Board" in page  # how to file the Board's own request
    refused = client.post("/players/exclude/", {"period": "life"})
    assert refused.status_code == 400
    assert not PlayerExclusion.objects.exists()
    done = client.post("/players/exclude/", {"period": "life", "confirmed": "on"})
    assert done.status_code == 302
    assert "excluded from interactive gaming" in client.get("/players/exclude/").content.decode()
    assert Wallet.objects.get(player=funded_player).excluded_since is not None
