"""The workflow rules every kind of record shares, through each kind's own pages."""

import pytest

from portal.compliance.models import RecordStatus
from portal.compliance.services.layouts import layout_submit
from portal.compliance.services.paytables import paytable_submit
from portal.compliance.services.rules import rules_submission_submit
from tests.portal.factories import events_written, make_layout, make_paytable, make_rules
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db


def _layout(manager, holder):
    return "layouts", make_layout(manager, holder)


def _paytable(manager, holder):
    return "paytables", make_paytable(manager, holder)


def _rules(manager, holder):
    paytable, layout = make_paytable(manager, holder), make_layout(manager, holder)
    return "rules", make_rules(manager, holder, paytable, layout)


SUBMIT = {
    "layouts": lambda actor, record: layout_submit(actor=actor, layout=record),
    "paytables": lambda actor, record: paytable_submit(actor=actor, paytable=record),
    "rules": lambda actor, record: rules_submission_submit(actor=actor, submission=record),
}
KINDS = [_layout, _paytable, _rules]


@pytest.mark.parametrize("draft", KINDS)
def test_four_eyes_whoever_submitted_cannot_decide(login, superuser, holder_a, draft):
    path, record = draft(superuser, holder_a)
    SUBMIT[path](superuser, record)
    client = login(superuser)

    for step in ("approve", "reject", "request-changes"):
        response = client.post(f"/compliance/{path}/{record.pk}/", {"step": step, "reason": "mine"})
        assert response.status_code == 403
        assert "four-eyes" in text(response)
    record.refresh_from_db()
    assert record.status == RecordStatus.SUBMITTED


@pytest.mark.parametrize("draft", KINDS)
def test_an_officer_sends_a_submission_back_for_changes(login, manager_a, officer, holder_a, draft):
    path, record = draft(manager_a, holder_a)
    SUBMIT[path](manager_a, record)

    response = login(officer).post(
        f"/compliance/{path}/{record.pk}/",
        {"step": "request-changes", "reason": "Needs more detail"},
    )

    record.refresh_from_db()
    assert response.status_code == 302
    assert (record.status, record.decision_reason) == (
        RecordStatus.CHANGES_REQUESTED,
        "Needs more detail",
    )


@pytest.mark.parametrize("draft", KINDS)
def test_a_draft_cannot_be_decided_or_withdrawn(login, manager_a, officer, holder_a, draft):
    path, record = draft(manager_a, holder_a)
    events = events_written()
    client = login(officer)

    for step in ("approve", "reject", "withdraw"):
        response = client.post(f"/compliance/{path}/{record.pk}/", {"step": step, "reason": "x"})
        assert response.status_code == 409
    record.refresh_from_db()
    assert (record.status, events_written()) == (RecordStatus.DRAFT, events)


@pytest.mark.parametrize("draft", KINDS)
def test_auditors_read_every_record_and_change_none(login, auditor, manager_a, holder_a, draft):
    path, record = draft(manager_a, holder_a)
    client = login(auditor)

    page = text(client.get(f"/compliance/{path}/{record.pk}/"))
    for step in ("submit", "amend", "approve"):
        assert client.post(f"/compliance/{path}/{record.pk}/", {"step": step}).status_code == 403
    assert client.get(f"/compliance/{path}/{record.pk}/edit/").status_code == 403

    assert 'name="step"' not in page
    record.refresh_from_db()
    assert record.status == RecordStatus.DRAFT


@pytest.mark.parametrize("draft", KINDS)
def test_another_holders_manager_finds_nothing(login, manager_a, manager_b, holder_a, draft):
    path, record = draft(manager_a, holder_a)
    client = login(manager_b)

    assert client.get(f"/compliance/{path}/{record.pk}/").status_code == 404
    assert client.get(f"/compliance/{path}/{record.pk}/?tab=history").status_code == 404
    assert client.post(f"/compliance/{path}/{record.pk}/", {"step": "submit"}).status_code == 404
    assert record.title_for_display not in text(client.get(f"/compliance/{path}/"))


@pytest.mark.parametrize("draft", KINDS)
def test_the_history_tab_lists_each_kinds_events(login, manager_a, holder_a, draft):
    path, record = draft(manager_a, holder_a)
    SUBMIT[path](manager_a, record)

    page = text(login(manager_a).get(f"/compliance/{path}/{record.pk}/?tab=history"))

    assert "<td>Created</td>" in page
    assert "<td>Submitted for review</td>" in page
    assert f"{record.kind}.create" not in page
