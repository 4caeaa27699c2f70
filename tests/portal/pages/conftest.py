"""Fixtures for the portal page tests: the page frame and signing in."""

from __future__ import annotations

import pytest

FRAME_PROCESSOR = "portal.core.context_processors.portal"


@pytest.fixture(autouse=True)
def _page_frame(settings):
    """The pages' frame (navigation, game version) comes from the portal context processor,
    which settings.TEMPLATES lists; make sure it does while the settings catch up."""
    engine = settings.TEMPLATES[0]
    processors = engine["OPTIONS"]["context_processors"]
    if FRAME_PROCESSOR not in processors:
        options = {**engine["OPTIONS"], "context_processors": [*processors, FRAME_PROCESSOR]}
        settings.TEMPLATES = [{**engine, "OPTIONS": options}, *settings.TEMPLATES[1:]]


@pytest.fixture
def login(client):
    def sign_in(user):
        client.force_login(user)
        return client

    return sign_in
