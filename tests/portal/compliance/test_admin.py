import pytest

from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, RecordStatus
from tests.portal.factories import make_layout

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
    from portal.compliance import services

    layout = services.layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

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
