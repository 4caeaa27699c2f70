"""The demo's holder supervisors and the void waiting for a decision (§ 617a.6): each demo
holder has a supervisor, and a compliance officer signing in finds one void of the demo
player's rounds to decide, proposed by the first holder's supervisor."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from rest_framework.test import APIClient

from portal.access.roles import Role, holder_id_of, roles_of
from portal.compliance.models import CertificateHolder
from portal.demo.services import DEMO_PASSWORD
from portal.game.models import RoundCorrection

pytestmark = pytest.mark.django_db


def test_617a6_the_demo_has_a_supervisor_per_holder_and_a_void_waiting_for_an_officer(capsys):
    call_command("seed_demo")

    out = capsys.readouterr().out
    holders = {h.licence_number: h for h in CertificateHolder.objects.all()}
    users = get_user_model().objects
    for username, licence in (("supervisor", "PA-DEMO-001"), ("supervisor2", "PA-DEMO-002")):
        assert f"  {username:<10} {DEMO_PASSWORD}  Holder supervisor" in out
        supervisor = users.get(username=username)
        assert roles_of(supervisor) == {Role.SUPERVISOR}
        assert holder_id_of(supervisor) == holders[licence].pk
        assert supervisor.check_password(DEMO_PASSWORD)
    [void] = RoundCorrection.objects.select_related("round", "proposed_by", "account")
    assert (void.kind, void.status, void.proposed_by.username) == ("void", "proposed", "supervisor")
    assert (void.round.player.username, void.account.holder.licence_number) == (
        "player",
        "PA-DEMO-001",
    )
    assert void.amount == void.round.total_staked - void.round.total_returned

    officer = APIClient()
    officer.force_login(users.get(username="officer"))
    waiting = officer.get("/api/corrections/", {"status": "proposed"}).json()
    assert [c["id"] for c in waiting["results"]] == [void.pk]

    call_command("seed_demo")  # again: nothing more
    assert RoundCorrection.objects.count() == 1
