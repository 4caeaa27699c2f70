"""Fixtures for the portal page tests: signing in."""

from __future__ import annotations

import pytest


@pytest.fixture
def login(client):
    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in
