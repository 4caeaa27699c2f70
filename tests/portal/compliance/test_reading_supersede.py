"""reading:supersede: a table plays on under the versions its approved rules submission lists
until that submission's amendment is approved, which moves it over in one step; a version
leaves play when withdrawn, expired or at the sunset; and every decision shows, before it is
taken, which tables it takes dark or brings live, refusing (409) when that has changed."""

from __future__ import annotations

import datetime

import pytest

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.models import (
    AvailabilityCause,
    AvailabilityChange,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
)
from portal.compliance.selectors import (
    expiry_impacts,
    offering_is_live,
    offerings_with_parts,
    step_impact,
    superseded_in_play,
)
from portal.compliance.services import workflow as workflow_service
from portal.compliance.services.layouts import layout_withdraw
from portal.compliance.services.offerings import offering_retire
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_submit,
    paytable_update,
    paytable_withdraw,
)
from portal.compliance.services.rules import (
    rules_submission_amend,
    rules_submission_approve,
    rules_submission_submit,
    rules_submission_update,
)
from portal.compliance.workflow import RECORD_WORKFLOW, titled_version
from portal.core.errors import Conflict, ValidationFailed
from portal.core.padates import pa_today
from tests.portal.factories import approved_offering, events_written, listing

pytestmark = pytest.mark.django_db

TABLE = "Jinzi Table 1"


@pytest.fixture
def table(manager_a, officer, holder_a) -> Offering:
    return approved_offering(manager_a, officer, holder_a, name=TABLE)


def _paytable_v2(table, manager, officer) -> Paytable:
    """Paytable v2, approved: v1, which the rules submission lists, is superseded."""
    draft = paytable_amend(actor=manager, paytable=table.paytable)
    draft = paytable_update(actor=manager, paytable=draft, name="Standard, 2nd edition")
    return paytable_approve(actor=officer, paytable=paytable_submit(actor=manager, paytable=draft))


def _rules_v2(table, manager, paytable, **changes) -> RulesSubmission:
    """The rules submission's amendment, listing ``paytable``, submitted."""
    draft = rules_submission_amend(actor=manager, submission=table.rules_submission)
    draft = rules_submission_update(
        actor=manager, submission=draft, games=[listing(paytable, table.layout)], **changes
    )
    return rules_submission_submit(actor=manager, submission=draft)


def _fresh(offering) -> Offering:
    return offerings_with_parts().get(pk=offering.pk)


def _closings(offering) -> list[AvailabilityChange]:
    return list(AvailabilityChange.objects.filter(offering=offering, opened=False))


def test_reading_supersede_approving_paytable_v2_keeps_the_live_table_live(
    table, manager_a, officer
):
    draft = paytable_submit(
        actor=manager_a, paytable=paytable_amend(actor=manager_a, paytable=table.paytable)
    )
    assert not step_impact(draft, "approve")  # shown before: no table opens or closes

    paytable_approve(actor=officer, paytable=draft)

    table = _fresh(table)
    assert table.paytable.status == RecordStatus.SUPERSEDED
    liveness = offering_is_live(table)
    assert (liveness.live, liveness.reasons) == (True, ())
    assert _closings(table) == []  # the availability log never saw it close
    in_play = superseded_in_play([table])
    assert in_play == {("paytable", table.paytable_id): [table]}


def test_reading_supersede_a_superseded_version_is_not_chosen_anew(
    table, manager_a, officer, holder_a
):
    # New choices use the new version: a rules submission listing v1 is not approved.
    v2 = _paytable_v2(table, manager_a, officer)
    old = rules_submission_amend(actor=manager_a, submission=table.rules_submission)
    old = rules_submission_submit(actor=manager_a, submission=old)  # still lists v1
    with pytest.raises(ValidationFailed, match="601a.2.*superseded"):
        rules_submission_approve(actor=officer, submission=old)
    assert v2.status == RecordStatus.APPROVED


def test_reading_supersede_approving_the_amendment_moves_the_table_in_one_step(
    table, manager_a, officer, holder_a
):
    retired = approved_offering(manager_a, officer, holder_a, name="Old table")
    # Put the retired table on the same rules submission series.
    Offering.objects.filter(pk=retired.pk).update(
        rules_submission=table.rules_submission, layout=table.layout, paytable=table.paytable
    )
    offering_retire(actor=manager_a, offering=retired, reason="Closed for good")
    v2 = _paytable_v2(table, manager_a, officer)
    amendment = _rules_v2(table, manager_a, v2)
    impact = step_impact(amendment, "approve")
    assert not (impact.opens or impact.closes)  # it stays live, now on v2
    [change] = impact.changes  # the retired table does not move
    assert change.offering == table
    assert change.parts == (
        ("Rules submission", titled_version(table.rules_submission), titled_version(amendment)),
        ("Paytable", titled_version(table.paytable), titled_version(v2)),
    )
    before = AvailabilityChange.objects.count()

    rules_submission_approve(actor=officer, submission=amendment)

    table_now = _fresh(table)
    assert (table_now.rules_submission_id, table_now.paytable_id) == (amendment.pk, v2.pk)
    assert table_now.layout_id == table.layout_id
    assert offering_is_live(table_now).live
    assert RulesSubmission.objects.get(pk=table.rules_submission_id).status == (
        RecordStatus.SUPERSEDED
    )
    event = AuditEvent.objects.get(
        action="offering.update", object_type="offering", object_id=str(table.pk)
    )
    assert event.before["paytable_id"] == table.paytable_id
    assert event.after["paytable_id"] == v2.pk
    assert event.after["rules_submission_id"] == amendment.pk
    assert "reading:supersede" in event.reason and "v2" in event.reason
    assert AvailabilityChange.objects.count() == before  # live before and after: no entry
    # A retired table stays where it was.
    assert Offering.objects.get(pk=retired.pk).rules_submission_id == table.rules_submission_id


def test_reading_supersede_a_move_that_changes_availability_is_logged(table, manager_a, officer):
    v2 = _paytable_v2(table, manager_a, officer)
    later = pa_today() + datetime.timedelta(days=40)
    # The amendment takes effect later: moving onto it closes the table until then.
    amendment = _rules_v2(table, manager_a, v2, effective_date=later)
    impact = step_impact(amendment, "approve")
    assert [o.pk for o in impact.closes] == [table.pk] and not impact.opens

    rules_submission_approve(actor=officer, submission=amendment, impact=impact.fingerprint)

    (closed,) = _closings(table)
    assert closed.cause == AvailabilityCause.APPROVAL_SUPERSEDED
    assert f"takes effect on {later.isoformat()}" in closed.reason
    assert _fresh(table).rules_submission_id == amendment.pk


def test_reading_supersede_the_move_and_the_approval_are_one_transaction(
    table, manager_a, officer, monkeypatch
):
    v2 = _paytable_v2(table, manager_a, officer)
    amendment = _rules_v2(table, manager_a, v2)
    written = events_written()

    def failing(**kwargs):
        raise RuntimeError("the audit trail is unavailable")

    monkeypatch.setattr(workflow_service, "audit_record", failing)
    with pytest.raises(RuntimeError):
        rules_submission_approve(actor=officer, submission=amendment)

    assert RulesSubmission.objects.get(pk=amendment.pk).status == RecordStatus.SUBMITTED
    assert RulesSubmission.objects.get(pk=table.rules_submission_id).status == (
        RecordStatus.APPROVED
    )
    assert Offering.objects.get(pk=table.pk).rules_submission_id == table.rules_submission_id
    assert events_written() == written


def test_reading_supersede_withdrawing_a_superseded_version_in_play_takes_its_tables_dark(
    table, manager_a, officer
):
    _paytable_v2(table, manager_a, officer)
    v1 = Paytable.objects.get(pk=table.paytable_id)
    assert RECORD_WORKFLOW["withdraw"].allows(v1.status)
    impact = step_impact(v1, "withdraw")
    assert [o.name for o in impact.closes] == [TABLE] and not impact.opens

    paytable_withdraw(actor=officer, paytable=v1, reason="Recalled", impact=impact.fingerprint)

    assert Paytable.objects.get(pk=v1.pk).status == RecordStatus.WITHDRAWN
    liveness = offering_is_live(_fresh(table))
    assert not liveness.live
    assert "the paytable v1 is not approved (it is withdrawn)" in liveness.reasons
    (closed,) = _closings(table)
    assert closed.cause == AvailabilityCause.APPROVAL_WITHDRAWN


def test_reading_supersede_a_changed_impact_refuses_the_step_and_changes_nothing(
    table, manager_a, officer
):
    shown = step_impact(table.layout, "withdraw")
    assert [o.pk for o in shown.closes] == [table.pk]
    offering_retire(actor=manager_a, offering=table, reason="Closed")  # meanwhile
    written = events_written()

    with pytest.raises(Conflict) as refused:
        layout_withdraw(
            actor=officer, layout=table.layout, reason="Recalled", impact=shown.fingerprint
        )

    assert refused.value.http_status == 409
    assert refused.value.message == msg.IMPACT_CHANGED
    table.layout.refresh_from_db()
    assert table.layout.status == RecordStatus.APPROVED
    assert events_written() == written
    # Shown again, the impact as it now is goes through.
    now = step_impact(table.layout, "withdraw")
    assert not now
    layout_withdraw(actor=officer, layout=table.layout, reason="Recalled", impact=now.fingerprint)
    table.layout.refresh_from_db()
    assert table.layout.status == RecordStatus.WITHDRAWN


def test_reading_supersede_the_dashboard_and_record_foretell_what_an_expiry_takes_dark(
    table, holder_a, django_assert_num_queries
):
    layout = table.layout
    with django_assert_num_queries(2):  # the tables and their listings, however many records
        impacts = expiry_impacts([layout, table.paytable, table.rules_submission])
    assert [o.name for o in impacts["layout", layout.pk].closes] == [TABLE]
    assert step_impact(layout, "expire").closes == impacts["layout", layout.pk].closes
    Offering.objects.filter(pk=table.pk).update(status=OfferingStatus.RETIRED)
    assert not expiry_impacts([layout])["layout", layout.pk]
