"""The approvals history for timing the expiry report at scale: a demo app's command."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from portal.compliance.models import Layout, Offering, Paytable, RulesSubmission
from portal.game.models import Round

pytestmark = pytest.mark.django_db


def test_the_command_makes_the_offerings_versions_and_rounds_asked_for():
    out = io.StringIO()

    call_command(
        "generate_expiry_history", offerings=6, versions=20, holders=2, rounds=5, stdout=out
    )

    assert Offering.objects.count() == 6
    versions = Layout.objects.count() + Paytable.objects.count() + RulesSubmission.objects.count()
    assert versions == 20
    assert Round.objects.count() == 5
    assert out.getvalue().startswith("Bench data: holders 2, offerings 6, versions 20, rounds 5")
