"""What an adjustment rests on (reading:adjustment-grounds, § 812a.7(a)(9)): a credit on an
upheld dispute or a recorded payout error, a debit only on a recorded payout error: an
officer's written finding on the round, or the round settling otherwise when settled again.
Adjustments made before grounds were kept stay as they are."""

from __future__ import annotations

import pytest
from django.db import connection

from portal.core import append_only
from portal.core.errors import NotFound, NotPermitted, ValidationFailed
from portal.game.corrections import grounds
from portal.game.corrections.services import correction_propose, payout_finding_record
from portal.game.models import AdjustmentGround, Bet, RoundCorrection
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(player, live_offering, holder_a):
    wallet_top_up(player=player, amount=10_000, holder=holder_a)
    return play_round(player, live_offering, "grounds-round-1").round


def _adjust(actor, round_obj, amount, **more):
    return correction_propose(
        actor=actor,
        round_id=round_obj.pk,
        kind="adjustment",
        reason="Paid at the wrong odds",
        amount=amount,
        notice="We corrected the payout of this round.",
        **more,
    )


@pytest.mark.parametrize(("amount", "words"), [(250, "credit rests on"), (-250, "debit rests")])
def test_812a7_a_9_an_adjustment_with_nothing_to_rest_on_is_refused(
    played, supervisor_a, amount, words
):
    with pytest.raises(ValidationFailed, match=words) as refused:
        _adjust(supervisor_a, played, amount)
    assert "finding" in refused.value.field_errors
    assert not RoundCorrection.objects.exists()


@pytest.mark.clause("reading:adjustment-grounds", kind="proves")
def test_812a7_a_9_an_officers_finding_is_a_recorded_payout_error_for_a_credit_or_a_debit(
    played, supervisor_a, officer
):
    finding = payout_finding_record(actor=officer, round_id=played.pk, text="Split paid 4 to 1")
    debit = _adjust(supervisor_a, played, -250, finding_id=finding.pk)
    assert (debit.ground, debit.finding) == (AdjustmentGround.FINDING, finding)


def test_812a7_a_9_a_round_that_settles_otherwise_is_a_recorded_payout_error(played, supervisor_a):
    # A bet's recorded return no longer what jinzi pays (as a wrong payout would be).
    append_only.drop_all(connection)
    try:
        Bet.objects.filter(round=played, spot="straight:3").update(returned=0)
    finally:
        append_only.install_all(connection)
    assert grounds.resettles_otherwise(played)
    credit = _adjust(supervisor_a, played, 250)
    assert credit.ground == AdjustmentGround.RESETTLED


def test_812a7_a_9_a_finding_is_an_officers_on_another_round_it_is_not_found(
    played, live_offering, player, supervisor_a, officer
):
    with pytest.raises(NotPermitted):
        payout_finding_record(actor=supervisor_a, round_id=played.pk, text="Paid short")
    with pytest.raises(ValidationFailed, match="write the finding"):
        payout_finding_record(actor=officer, round_id=played.pk, text="  ")
    other = play_round(player, live_offering, "grounds-round-2").round
    finding = payout_finding_record(actor=officer, round_id=other.pk, text="Paid short")
    with pytest.raises(NotFound, match=f"no payout finding {finding.pk} on round {played.pk}"):
        _adjust(supervisor_a, played, 250, finding_id=finding.pk)
    with pytest.raises(NotFound):
        _adjust(supervisor_a, played, 250, finding_id="1")


def test_812a7_a_9_an_officer_records_a_finding_through_the_api_and_an_adjustment_rests_on_it(
    api_as, played, supervisor_a, officer
):
    found = api_as(officer).post(
        f"/api/rounds/{played.pk}/findings/", {"text": "Split paid 4 to 1"}, format="json"
    )
    assert found.status_code == 201 and found.json()["found_by"] == officer.username
    refused = api_as(supervisor_a).post(
        f"/api/rounds/{played.pk}/findings/", {"text": "Mine"}, format="json"
    )
    assert refused.status_code == 403
    body = {"round": played.pk, "kind": "adjustment", "reason": "Paid short", "amount": -100}
    body |= {"notice": "We took back $1.00.", "finding": found.json()["id"]}
    proposed = api_as(supervisor_a).post("/api/corrections/", body, format="json")
    assert proposed.status_code == 201 and proposed.json()["ground"] == "finding"
