"""Fixtures for the portal page tests (signing in is the portal's ``login``)."""

from __future__ import annotations

import pytest


@pytest.fixture
def parts(manager_a, officer, holder_a):
    """An approved paytable and layout of holder A, ready to be listed."""
    from tests.portal.factories import approved_layout, approved_paytable

    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )
