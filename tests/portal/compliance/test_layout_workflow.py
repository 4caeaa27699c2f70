import datetime
import re

import pytest
from django.test import Client

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.models import Layout, RecordStatus
from tests.portal.factories import EFFECTIVE, EXPIRY, events_written, make_layout
from tests.portal.page_helpers import (
    approve_layout,
    field_errors,
    form_errors,
    submitted_layout,
    text,
)

pytestmark = pytest.mark.django_db

APPROVAL = {
    "reference_number": "BGO-2026-0007",
    "effective_date": EFFECTIVE.isoformat(),
    "expiry_date": EXPIRY.isoformat(),
    "conditions": "Spanish signage too",
    "reason": "Complete",
}


def _post(client, layout, action, data=None):
    """A workflow step as the record page posts it: to the record's own URL, by name."""
    return client.post(f"/compliance/layouts/{layout.pk}/", {**(data or {}), "step": action})


def test_601a10_a_a_manager_submits_a_draft(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    response = _post(login(manager_a), layout, "submit")

    layout.refresh_from_db()
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/layouts/{layout.pk}/"
    assert (layout.status, layout.submitted_by) == (RecordStatus.SUBMITTED, manager_a)
    assert AuditEvent.objects.filter(action="layout.submit", object_id=str(layout.pk)).exists()


def test_601a10_a_a_layout_without_artwork_cannot_be_submitted(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a, artwork=None)

    response = _post(login(manager_a), layout, "submit")

    assert response.status_code == 400
    assert msg.ARTWORK_REQUIRED in form_errors(response)
    layout.refresh_from_db()
    assert layout.status == RecordStatus.DRAFT


def test_601a10_a_an_officer_approves_with_reference_dates_and_conditions(
    login, manager_a, officer, holder_a
):
    layout = submitted_layout(manager_a, holder_a)

    response = _post(login(officer), layout, "approve", APPROVAL)

    layout.refresh_from_db()
    assert response.status_code == 302
    assert (layout.status, layout.decided_by, layout.reference_number) == (
        RecordStatus.APPROVED,
        officer,
        "BGO-2026-0007",
    )
    assert (layout.effective_date, layout.expiry_date) == (EFFECTIVE, EXPIRY)
    assert (layout.conditions, layout.decision_reason) == ("Spanish signage too", "Complete")
    assert AuditEvent.objects.get(action="layout.approve").actor == officer


def test_617b8_sunset_layout_approval_after_2028_06_14_is_refused(
    login, manager_a, officer, holder_a
):
    layout = submitted_layout(manager_a, holder_a)

    response = _post(login(officer), layout, "approve", {**APPROVAL, "expiry_date": "2028-06-15"})

    assert response.status_code == 400
    errors = field_errors(response, "id_approve_expiry_date")
    assert "§ 617b.8 expires on 2028-06-14" in errors
    assert "2028-06-15" in errors
    layout.refresh_from_db()
    assert (layout.status, layout.expiry_date) == (RecordStatus.SUBMITTED, None)


def test_the_approve_form_cites_the_sunset(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    page = text(login(officer).get(f"/compliance/layouts/{layout.pk}/"))

    assert 'id="id_approve_expiry_date"' in page
    assert "No later than 2028-06-14" in page


def test_601a10_a_approval_needs_the_bureau_reference(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    response = _post(login(officer), layout, "approve", {**APPROVAL, "reference_number": " "})

    assert response.status_code == 400
    assert msg.REFERENCE_REQUIRED in field_errors(response, "id_approve_reference_number")
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


@pytest.mark.parametrize(
    ("action", "status", "event"),
    [
        ("reject", RecordStatus.REJECTED, "layout.reject"),
        ("request-changes", RecordStatus.CHANGES_REQUESTED, "layout.request_changes"),
    ],
)
def test_an_officer_rejects_or_sends_back_with_a_reason(
    login, manager_a, officer, holder_a, action, status, event
):
    layout = submitted_layout(manager_a, holder_a)

    response = _post(login(officer), layout, action, {"reason": "Signage too small"})

    layout.refresh_from_db()
    assert response.status_code == 302
    assert (layout.status, layout.decision_reason) == (status, "Signage too small")
    assert AuditEvent.objects.get(action=event).reason == "Signage too small"


def test_a_rejection_without_a_reason_is_refused_inline(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    response = _post(login(officer), layout, "reject", {"reason": "  "})

    assert response.status_code == 400
    assert msg.REASON_REQUIRED in field_errors(response, "id_reject_reason")
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


def test_an_amendment_is_a_new_draft_version(login, manager_a, officer, holder_a):
    first = approve_layout(officer, submitted_layout(manager_a, holder_a))

    response = _post(login(manager_a), first, "amend")

    second = Layout.objects.get(series=first.series, version=2)
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/layouts/{second.pk}/"
    assert (second.status, second.title) == (RecordStatus.DRAFT, first.title)
    first.refresh_from_db()
    assert first.status == RecordStatus.APPROVED  # until the amendment is approved


@pytest.mark.parametrize("role", ["officer", "manager_a"])
def test_an_approval_is_withdrawn_with_a_reason(login, request, manager_a, officer, holder_a, role):
    layout = approve_layout(officer, submitted_layout(manager_a, holder_a))

    response = _post(login(request.getfixturevalue(role)), layout, "withdraw", {"reason": "Sold"})

    layout.refresh_from_db()
    assert response.status_code == 302
    assert layout.status == RecordStatus.WITHDRAWN


def test_four_eyes_a_superuser_cannot_decide_what_they_submitted(login, superuser, holder_a):
    layout = submitted_layout(superuser, holder_a)
    client = login(superuser)

    page = text(client.get(f"/compliance/layouts/{layout.pk}/"))
    response = _post(client, layout, "approve", APPROVAL)

    assert 'value="approve"' not in page
    assert response.status_code == 403
    assert "four-eyes" in text(response)
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


@pytest.mark.parametrize(
    ("role", "action"),
    [
        ("manager_a", "approve"),
        ("manager_a", "reject"),
        ("auditor", "approve"),
        ("auditor", "withdraw"),
        ("officer", "amend"),
    ],
)
def test_a_step_outside_the_users_role_is_forbidden(
    login, request, manager_a, officer, holder_a, role, action
):
    client = login(request.getfixturevalue(role))
    submitted = submitted_layout(manager_a, holder_a)
    approved = approve_layout(officer, submitted_layout(manager_a, holder_a, title="Approved"))
    layout = submitted if action in ("approve", "reject") else approved
    before = (layout.status, events_written())

    response = _post(client, layout, action, {**APPROVAL, "reason": "no"})

    assert response.status_code == 403
    layout.refresh_from_db()
    assert (layout.status, events_written()) == before


def test_an_auditor_and_an_officer_cannot_submit_a_managers_draft(
    login, auditor, officer, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a)

    assert _post(login(auditor), layout, "submit").status_code == 403
    assert _post(login(officer), layout, "submit").status_code == 403
    layout.refresh_from_db()
    assert layout.status == RecordStatus.DRAFT


def test_a_step_the_status_does_not_allow_is_a_conflict(login, manager_a, officer, holder_a):
    draft = make_layout(manager_a, holder_a)
    submitted = submitted_layout(manager_a, holder_a)

    approving_a_draft = _post(login(officer), draft, "approve", APPROVAL)
    submitting_twice = _post(login(manager_a), submitted, "submit")

    assert approving_a_draft.status_code == 409
    assert "only a submitted layout can be approved" in text(approving_a_draft)
    assert submitting_twice.status_code == 409
    draft.refresh_from_db()
    assert draft.status == RecordStatus.DRAFT


def test_forged_fields_in_a_decision_are_ignored(login, manager_a, officer, holder_a, holder_b):
    layout = submitted_layout(manager_a, holder_a)

    _post(
        login(officer),
        layout,
        "approve",
        {**APPROVAL, "holder": holder_b.pk, "version": 7, "title": "Forged", "status": "rejected"},
    )

    layout.refresh_from_db()
    assert (layout.status, layout.holder, layout.version, layout.title) == (
        RecordStatus.APPROVED,
        holder_a,
        1,
        "Main floor layout",
    )


def test_an_unknown_step_is_a_400_that_changes_nothing(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    client = login(manager_a)
    before = events_written()

    unknown = _post(client, layout, "publish")
    missing = client.post(f"/compliance/layouts/{layout.pk}/", {})

    assert unknown.status_code == 400 and "There is no step “publish” for a layout." in text(
        unknown
    )
    assert missing.status_code == 400 and "There is no step “” for a layout." in text(missing)
    assert events_written() == before
    layout.refresh_from_db()
    assert layout.status == RecordStatus.DRAFT


def test_the_old_step_addresses_are_gone(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    client = login(manager_a)

    assert client.get(f"/compliance/layouts/{layout.pk}/submit/").status_code == 404
    assert _post(client, layout, "submit").status_code == 302


def test_steps_need_the_csrf_token(manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    client = Client(enforce_csrf_checks=True)
    client.force_login(manager_a)

    response = _post(client, layout, "submit")

    assert response.status_code == 403
    layout.refresh_from_db()
    assert layout.status == RecordStatus.DRAFT


def test_each_role_sees_only_the_buttons_it_may_use(
    login, client, manager_a, officer, auditor, holder_a
):
    draft = make_layout(manager_a, holder_a)
    submitted = submitted_layout(manager_a, holder_a)

    def actions(user, layout):
        page = text(login(user).get(f"/compliance/layouts/{layout.pk}/"))
        edit = {"edit"} if f"/compliance/layouts/{layout.pk}/edit/" in page else set()
        return edit | set(re.findall(r'name="step" value="([a-z-]+)"', page))

    assert actions(manager_a, draft) == {"edit", "submit"}
    assert actions(officer, draft) == set()
    assert actions(manager_a, submitted) == set()
    assert actions(officer, submitted) == {"approve", "reject", "request-changes"}
    assert actions(auditor, submitted) == set()


def test_the_approval_date_fields_are_date_inputs(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    page = text(login(officer).get(f"/compliance/layouts/{layout.pk}/"))

    assert 'type="date" name="effective_date"' in page
    assert datetime.date(2028, 6, 14).isoformat() in page


def test_a_refused_step_answers_with_the_records_own_page_and_its_status(
    login, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a, title="Refused twice")
    client = login(manager_a)
    _post(client, layout, "submit")
    before = events_written()

    again = _post(client, layout, "submit")

    page = text(again)
    assert again.status_code == 409
    assert "<h1>Refused twice" in page  # the record's own page, at its own address
    assert 'class="alert danger" role="alert"><p><strong>Not done.</strong>' in page
    assert events_written() == before
    assert client.get(f"/compliance/layouts/{layout.pk}/").status_code == 200
