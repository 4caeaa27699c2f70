"""The world every route is walked in: holder A's live table with a round, a void waiting
for a decision, a draft of each record (``world.build_world``)."""

from __future__ import annotations

import pytest

from portal.access.roles import Role
from portal.game.corrections.services import correction_propose
from tests.portal.access.world import build_world
from tests.portal.factories import make_user


@pytest.fixture
def world(holder_a, holder_b, officer, manager_a, manager_b, auditor, superuser):
    world = build_world(holder_a, holder_b, officer, manager_a, manager_b, auditor, superuser)
    # A void of the world's round waiting for a decision, proposed by a supervisor of holder
    # A who is none of the roles walked: each role's answer is its own, never four-eyes'.
    proposer = make_user("supervisor_world", Role.SUPERVISOR, holder_a)
    world["correction"] = correction_propose(
        actor=proposer, round_id=world["round"].pk, kind="void", reason="The world's void"
    )
    return world
