"""A signed-in request loads its user, roles and holder in one query, with Django's checks."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.utils import timezone

from portal.accounts.backends import PortalBackend
from portal.accounts.models import Role
from portal.accounts.roles import has_role, holder_id_of, roles_of
from tests.portal.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_it_loads_the_user_with_roles_and_holder_in_one_query(
    manager_a, holder_a, django_assert_num_queries
):
    with django_assert_num_queries(1):
        user = PortalBackend().get_user(str(manager_a.pk))

    with django_assert_num_queries(0):
        assert roles_of(user) == {Role.MANAGER}
        assert holder_id_of(user) == holder_a.pk
    assert user == manager_a
    assert user.password == manager_a.password  # the session check hashes it
    assert user.last_login == manager_a.last_login  # datetimes come back as datetimes
    assert user.is_active is True


def test_it_reads_every_group_of_a_user_in_several(officer):
    officer.groups.add(Group.objects.get(name=Role.AUDITOR.value))

    user = PortalBackend().get_user(officer.pk)

    assert roles_of(user) == {Role.COMPLIANCE, Role.AUDITOR}
    assert holder_id_of(user) is None


def test_a_user_in_no_group_has_no_role(db, django_user_model):
    lone = django_user_model.objects.create_user("lone", password=PASSWORD)

    user = PortalBackend().get_user(lone.pk)

    assert user == lone
    assert roles_of(user) == frozenset()


@pytest.mark.parametrize("user_id", ["999999", "not-a-number", "", None])
def test_an_unknown_or_malformed_id_is_nobody(db, user_id):
    assert PortalBackend().get_user(user_id) is None


def test_an_inactive_user_is_not_signed_in(player):
    player.is_active = False
    player.save()

    assert PortalBackend().get_user(player.pk) is None


def test_a_signed_in_page_is_served_and_a_disabled_account_is_signed_out(client, player):
    assert client.login(username="player", password=PASSWORD)
    assert client.get("/play/").status_code == 200

    player.is_active = False
    player.save()

    assert client.get("/play/").status_code == 302  # to the sign-in page


def test_changing_the_password_ends_other_sessions(client, player):
    assert client.login(username="player", password=PASSWORD)
    player.set_password("a-new-passphrase-2026")
    player.save()

    assert client.get("/play/").status_code == 302


def test_an_expired_session_is_not_read(client, player):
    assert client.login(username="player", password=PASSWORD)
    Session.objects.update(expire_date=timezone.now() - datetime.timedelta(seconds=1))

    assert client.get("/play/").status_code == 302


def test_a_deleted_session_is_not_read(client, player):
    assert client.login(username="player", password=PASSWORD)
    Session.objects.all().delete()

    assert client.get("/play/").status_code == 302


def test_signing_out_deletes_the_session(client, player):
    assert client.login(username="player", password=PASSWORD)
    key = client.cookies["sessionid"].value

    client.post("/accounts/logout/")

    assert not Session.objects.filter(session_key=key).exists()
    client.cookies["sessionid"] = key  # replaying the old cookie signs nobody in
    assert client.get("/play/").status_code == 302


def test_roles_come_from_the_same_query_as_the_user(client, player):
    assert client.login(username="player", password=PASSWORD)
    response = client.get("/play/")

    assert has_role(response.wsgi_request.user, Role.PLAYER)
