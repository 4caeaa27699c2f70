"""The portal tests' fixtures (``tests.portal.fixtures``), shared with the system tests."""

from tests.portal.fixtures import *  # noqa: F403
