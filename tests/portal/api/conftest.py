"""Clients for the API tests: one signed in per user, with a login cookie as a browser is."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


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
