"""A signed-in request loads its user, roles and holder in one query, with Django's checks."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.utils import timezone

from portal.access.roles import Role, has_role, holder_id_of, roles_of
from tests.portal.factories import PASSWORD, sign_in

pytestmark = pytest.mark.django_db


def test_sign_in_is_djangos_own_session_engine_and_backend_behind_the_lockout(settings):
    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.db"
    assert settings.AUTHENTICATION_BACKENDS == [
        "axes.backends.AxesStandaloneBackend",
        "django.contrib.auth.backends.ModelBackend",
    ]


def test_roles_and_holder_are_read_in_one_query_and_kept_for_the_request(
    manager_a, holder_a, django_assert_num_queries
):
    user = get_user_model().objects.get(pk=manager_a.pk)

    with django_assert_num_queries(1):
        assert roles_of(user) == {Role.MANAGER}
        assert holder_id_of(user) == holder_a.pk
    with django_assert_num_queries(0):
        assert has_role(user, Role.MANAGER)
        assert holder_id_of(user) == holder_a.pk


def test_the_holder_alone_is_read_in_the_same_one_query(manager_a, holder_a):
    user = get_user_model().objects.get(pk=manager_a.pk)

    assert holder_id_of(user) == holder_a.pk
    assert roles_of(user) == {Role.MANAGER}


def test_it_reads_every_group_of_a_user_in_several(officer):
    officer.groups.add(Group.objects.get(name=Role.AUDITOR.value))

    user = get_user_model().objects.get(pk=officer.pk)

    assert roles_of(user) == {Role.COMPLIANCE, Role.AUDITOR}
    assert holder_id_of(user) is None


def test_a_user_in_no_group_has_no_role(db, django_user_model):
    lone = django_user_model.objects.create_user("lone", password=PASSWORD)

    assert roles_of(lone) == frozenset()
    assert holder_id_of(lone) is None


def test_an_inactive_user_has_no_role(player):
    player.is_active = False

    assert roles_of(player) == frozenset()


def test_signing_in_costs_a_request_three_queries_session_user_and_roles(
    client, player, django_assert_num_queries
):
    sign_in(client, "player")

    with django_assert_num_queries(4) as queries:  # and the view's own: the player's tokens
        response = client.get("/api/tokens/")

    assert response.status_code == 200
    reads = [query["sql"] for query in queries.captured_queries]
    assert "django_session" in reads[0]
    assert "auth_user" in reads[1]
    assert "auth_group" in reads[2] and "accounts_profile" in reads[2]


def test_a_signed_in_page_is_served_and_a_disabled_account_is_signed_out(client, player):
    sign_in(client, "player")
    assert client.get("/play/").status_code == 200

    player.is_active = False
    player.save()

    assert client.get("/play/").status_code == 302  # to the sign-in page


def test_changing_the_password_ends_other_sessions(client, player):
    sign_in(client, "player")
    player.set_password("a-new-passphrase-2026")
    player.save()

    assert client.get("/play/").status_code == 302


def test_an_expired_session_is_not_read(client, player):
    sign_in(client, "player")
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))

    assert client.get("/play/").status_code == 302


def test_a_deleted_session_is_not_read(client, player):
    sign_in(client, "player")
    Session.objects.all().delete()

    assert client.get("/play/").status_code == 302


def test_signing_out_deletes_the_session(client, player):
    sign_in(client, "player")
    key = client.cookies["sessionid"].value

    client.post("/accounts/logout/")

    assert not Session.objects.filter(session_key=key).exists()
    client.cookies["sessionid"] = key  # replaying the old cookie signs nobody in
    assert client.get("/play/").status_code == 302


def test_roles_come_from_the_same_query_as_the_user(client, player):
    sign_in(client, "player")
    response = client.get("/play/")

    assert has_role(response.wsgi_request.user, Role.PLAYER)
