"""People and records shared by the portal tests: two holders, one user per role, and
``login`` (a test client signed in as a given user)."""

from __future__ import annotations

import pytest
from celery.result import allow_join_result

from portal.access.roles import Role
from portal.accounts.services import holder_create
from tests.portal.browser import page  # noqa: F401  (the browser tests' fixture)
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
