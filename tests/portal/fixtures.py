"""People, records and clients shared by the portal's tests and the system tests: two
holders, one user per role, ``login`` (a test client signed in as a given user), API clients
(``api_as``, ``anonymous``), the players' accounts the account tests act on, and an approved
paytable and layout to list (``parts``), and the browser (``chromium``, ``page``). The suite's
conftest loads it as a plugin; a test module may still define its own of the same name."""

from __future__ import annotations

import pytest
from celery.result import allow_join_result
from rest_framework.test import APIClient

from portal.access.roles import Role
from portal.accounts.services import holder_create
from portal.game.models import GamingAccount
from tests.portal.browser import chromium, page  # noqa: F401  (the browser tests' fixtures)
from tests.portal.factories import PASSWORD, approved_offering, make_user
from tests.portal.funding import wallet_top_up


@pytest.fixture(autouse=True)
def celery_joins_allowed():
    """Every test starts with Celery's "never wait on a result inside a task" guard off, as
    in any process that is not a worker. The guard is one flag for the whole process, set
    and put back around each task run in-process (eager): two runs at once in the live
    server's threads can put back a stale value and leave it set for the tests after.
    This process is never a worker, so each test asks for joins to be allowed."""
    with allow_join_result():
        yield


@pytest.fixture
def login(client):
    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in


@pytest.fixture
def holder_a(db):
    return holder_create(actor=None, name="Keystone Casino", licence_number="PA-001")


@pytest.fixture
def holder_b(db):
    return holder_create(actor=None, name="Susquehanna Gaming", licence_number="PA-002")


@pytest.fixture
def officer(db):
    return make_user("officer", Role.COMPLIANCE)


@pytest.fixture
def officer2(db):
    return make_user("officer2", Role.COMPLIANCE)


@pytest.fixture
def manager_a(holder_a):
    return make_user("manager_a", Role.MANAGER, holder_a)


@pytest.fixture
def manager_b(holder_b):
    return make_user("manager_b", Role.MANAGER, holder_b)


@pytest.fixture
def auditor(db):
    return make_user("auditor", Role.AUDITOR)


@pytest.fixture
def payments_a(holder_a):
    return make_user("payments_a", Role.PAYMENTS, holder_a)


@pytest.fixture
def payments_b(holder_b):
    return make_user("payments_b", Role.PAYMENTS, holder_b)


@pytest.fixture
def supervisor_a(holder_a):
    return make_user("supervisor_a", Role.SUPERVISOR, holder_a)


@pytest.fixture
def supervisor_b(holder_b):
    return make_user("supervisor_b", Role.SUPERVISOR, holder_b)


@pytest.fixture
def player(db):
    return make_user("player", Role.PLAYER)


@pytest.fixture
def superuser(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)


@pytest.fixture
def funded_player(player, holder_a):
    """The player with $1,000 in their account with holder A, whose tables the tests play."""
    wallet_top_up(player=player, amount=100_000, holder=holder_a)
    return player


@pytest.fixture
def live_offering(manager_a, officer, holder_a):
    return approved_offering(manager_a, officer, holder_a)


@pytest.fixture
def anonymous() -> APIClient:
    return APIClient()


@pytest.fixture
def api_as():
    """``api_as(user)``: a client signed in as ``user``."""

    def signed_in(user) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    return signed_in


@pytest.fixture
def account_a(funded_player, holder_a) -> GamingAccount:
    """The player's account with holder A: $1,000 deposited."""
    return GamingAccount.objects.get(player=funded_player, holder=holder_a)


@pytest.fixture
def other_player(db, holder_a, holder_b):
    """Another player, with $500 in an account with each holder."""
    other = make_user("other_player", Role.PLAYER)
    wallet_top_up(player=other, amount=50_000, holder=holder_a)
    wallet_top_up(player=other, amount=50_000, holder=holder_b)
    return other


@pytest.fixture
def no_role(db):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("nobody", password="x")


@pytest.fixture
def parts(manager_a, officer, holder_a):
    """An approved paytable and layout of holder A, ready to be listed."""
    from tests.portal.factories import approved_layout, approved_paytable

    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )
