import pytest

from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, RecordStatus
from portal.compliance.services.layouts import layout_submit
from portal.compliance.services.paytables import paytable_submit
from portal.compliance.services.rules import rules_submission_submit
from tests.portal.factories import (
    MINIMUM_ODDS,
    acknowledged,
    approved_layout,
    approved_paytable,
    make_layout,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, superuser):
    client.force_login(superuser)
    return client


def test_admin_lists_every_model(admin_client, manager_a, holder_a):
    make_layout(manager_a, holder_a)
    for path in (
        "layout",
        "paytable",
        "rulessubmission",
        "offering",
    ):
        assert admin_client.get(f"/admin/compliance/{path}/").status_code == 200
    assert admin_client.get("/admin/audit/auditevent/").status_code == 200
    assert admin_client.get("/admin/accounts/certificateholder/").status_code == 200


def test_admin_cannot_change_or_delete_audit_events(admin_client, holder_a):
    event = AuditEvent.objects.first()

    page = admin_client.get(f"/admin/audit/auditevent/{event.pk}/change/")
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    assert admin_client.post(f"/admin/audit/auditevent/{event.pk}/delete/").status_code == 403


def test_admin_records_are_read_only(admin_client, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    response = admin_client.post(
        f"/admin/compliance/layout/{layout.pk}/change/", {"title": "Changed in admin"}
    )

    assert response.status_code == 403
    layout.refresh_from_db()
    assert layout.title == "Main floor layout"


def test_admin_approve_action_calls_the_service_with_its_rules(admin_client, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    admin_client.post(
        "/admin/compliance/layout/", {"action": "workflow_submit", "_selected_action": [layout.pk]}
    )
    layout.refresh_from_db()
    assert layout.status == "submitted"  # the superuser submitted it...

    response = admin_client.post(
        "/admin/compliance/layout/",
        {
            "action": "workflow_approve",
            "_selected_action": [layout.pk],
            "apply": "1",
            "reference_number": "BGO-9",
            "effective_date": "2026-01-01",
            "expiry_date": "2028-01-01",
        },
        follow=True,
    )

    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED  # ...so four-eyes stops them approving it
    assert "four-eyes" in response.content.decode()


def test_admin_reject_action_asks_for_a_reason_first(admin_client, manager_a, officer, holder_a):

    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    first = admin_client.post(
        "/admin/compliance/layout/", {"action": "workflow_reject", "_selected_action": [layout.pk]}
    )
    assert first.status_code == 200
    assert b'name="reason"' in first.content

    admin_client.post(
        "/admin/compliance/layout/",
        {
            "action": "workflow_reject",
            "_selected_action": [layout.pk],
            "apply": "1",
            "reason": "Signage missing",
        },
    )
    assert Layout.objects.get(pk=layout.pk).status == RecordStatus.REJECTED
    assert AuditEvent.objects.filter(action="layout.reject", reason="Signage missing").exists()


def test_admin_role_and_holder_changes_are_audited(admin_client, manager_a, holder_b):
    from django.contrib.auth.models import Group

    from portal.access.roles import Role

    compliance = Group.objects.get(name=Role.COMPLIANCE.value)
    manager = Group.objects.get(name=Role.MANAGER.value)
    page = admin_client.get(f"/admin/auth/user/{manager_a.pk}/change/")
    form = page.context["adminform"].form
    data = {
        key: value
        for key, value in form.initial.items()
        if value is not None and key not in ("groups", "user_permissions", "password")
    }
    data.update(
        {
            "username": "manager_a",
            "groups": [compliance.pk, manager.pk],
            "last_login_0": "",
            "last_login_1": "",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "00:00:00",
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "1",
            "profile-MIN_NUM_FORMS": "0",
            "profile-MAX_NUM_FORMS": "1",
            "profile-0-id": manager_a.profile.pk,
            "profile-0-user": manager_a.pk,
            "profile-0-holder": holder_b.pk,
        }
    )

    response = admin_client.post(f"/admin/auth/user/{manager_a.pk}/change/", data)

    assert response.status_code == 302, response.context and response.context["errors"]
    event = AuditEvent.objects.get(action="user.update", object_id=str(manager_a.pk))
    assert event.before["groups"] == ["Manager"]
    assert event.after["groups"] == ["Compliance", "Manager"]
    assert event.before["holder_id"] == manager_a.profile.holder_id != holder_b.pk
    assert event.after["holder_id"] == holder_b.pk


LAYOUT_APPROVAL_INPUTS = ("reference_number", "effective_date", "expiry_date", "conditions")


def _approve_form(admin_client, path, record):
    """The page the admin's approve action shows before it is applied."""
    response = admin_client.post(
        f"/admin/compliance/{path}/",
        {"action": "workflow_approve", "_selected_action": [record.pk]},
    )
    assert response.status_code == 200
    return response.content.decode()


def _approve(admin_client, path, record, **fields):
    return admin_client.post(
        f"/admin/compliance/{path}/",
        {"action": "workflow_approve", "_selected_action": [record.pk], "apply": "1", **fields},
        follow=True,
    )


def test_admin_approve_form_for_a_paytable_asks_only_what_paytable_approval_takes(
    admin_client, manager_a, holder_a
):
    paytable = make_paytable(manager_a, holder_a)

    page = _approve_form(admin_client, "paytable", paytable)

    assert 'name="override_reason"' in page
    assert 'name="reason"' in page
    for name in LAYOUT_APPROVAL_INPUTS:
        assert f'name="{name}"' not in page


def test_admin_approve_form_for_a_layout_asks_only_what_layout_approval_takes(
    admin_client, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a)

    page = _approve_form(admin_client, "layout", layout)

    for name in (*LAYOUT_APPROVAL_INPUTS, "reason"):
        assert f'name="{name}"' in page
    assert 'name="override_reason"' not in page


def test_admin_approve_form_for_a_rules_submission_asks_only_for_a_reason(
    admin_client, manager_a, officer, holder_a
):
    rules = make_rules(
        manager_a,
        holder_a,
        approved_paytable(manager_a, officer, holder_a),
        approved_layout(manager_a, officer, holder_a),
    )

    page = _approve_form(admin_client, "rulessubmission", rules)

    assert 'name="reason"' in page
    for name in (*LAYOUT_APPROVAL_INPUTS, "override_reason"):
        assert f'name="{name}"' not in page


def test_admin_approves_a_layout_with_the_bureaus_approval(admin_client, manager_a, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    response = _approve(
        admin_client,
        "layout",
        layout,
        reference_number="BGO-2026-0042",
        effective_date="2026-01-01",
        expiry_date="2028-01-01",
        conditions="Signage at the table",
    )

    assert response.status_code == 200
    layout.refresh_from_db()
    assert layout.status == RecordStatus.APPROVED
    assert layout.reference_number == "BGO-2026-0042"
    assert str(layout.expiry_date) == "2028-01-01"
    assert layout.conditions == "Signage at the table"


def test_admin_layout_approval_without_a_reference_number_is_refused_by_the_service(
    admin_client, manager_a, holder_a
):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    _approve(admin_client, "layout", layout, effective_date="2026-01-01", expiry_date="2028-01-01")

    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


def test_admin_approves_a_paytable(admin_client, manager_a, holder_a):
    paytable = paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a))

    response = _approve(admin_client, "paytable", paytable)

    assert response.status_code == 200
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.APPROVED


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_admin_approves_a_flagged_paytable_only_acknowledged_with_a_reason(
    admin_client, manager_a, holder_a
):
    odds = {**MINIMUM_ODDS, "straight": 12}
    paytable = paytable_submit(
        actor=manager_a, paytable=make_paytable(manager_a, holder_a, odds=odds)
    )

    refused = _approve(admin_client, "paytable", paytable)
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.SUBMITTED
    assert "617b.8(f)" in refused.content.decode()

    # A reason alone does not count (reading:edge-acknowledgement): the action's page lists
    # the wagers with their box.
    _approve(admin_client, "paytable", paytable, override_reason="Promotional table")
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.SUBMITTED
    page = _approve_form(admin_client, "paytable", paytable)
    assert "Straight up: in the player&#x27;s favour" in page
    assert f'name="edge_acknowledged_{paytable.pk}" value="{acknowledged(paytable)}"' in page

    _approve(
        admin_client,
        "paytable",
        paytable,
        override_reason="Promotional table",
        **{f"edge_acknowledged_{paytable.pk}": acknowledged(paytable)},
    )
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.APPROVED
    assert paytable.edge_override_reason == "Promotional table"


def test_admin_approves_a_rules_submission(admin_client, manager_a, officer, holder_a):
    rules = make_rules(
        manager_a,
        holder_a,
        approved_paytable(manager_a, officer, holder_a),
        approved_layout(manager_a, officer, holder_a),
    )
    rules = rules_submission_submit(actor=manager_a, submission=rules)

    response = _approve(admin_client, "rulessubmission", rules, reason="Checked")

    assert response.status_code == 200
    rules.refresh_from_db()
    assert rules.status == RecordStatus.APPROVED
