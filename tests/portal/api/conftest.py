"""Clients for the API tests: one signed in per user, with a login cookie as a browser is;
and the players' accounts the accounts API tests act on."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from portal.access.roles import Role
from portal.game.models import GamingAccount
from tests.portal.factories import make_user
from tests.portal.funding import wallet_top_up


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
