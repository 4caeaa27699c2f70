"""Four-eyes by content: nobody decides a version whose content they wrote, in it or in a
version never approved that it carries on (an amendment after changes were asked for, or
after a rejection, copies the content)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from portal.compliance import messages as msg
from portal.compliance.models import RecordStatus
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_reject,
    paytable_request_changes,
    paytable_submit,
)
from portal.core.errors import NotPermitted
from tests.portal.factories import make_paytable

pytestmark = pytest.mark.django_db


def amended_by_someone_else(author, officer, manager, holder, decide):
    """``author`` writes and submits v1; ``officer`` decides it (``decide``); ``manager``
    amends it, changing nothing, and submits v2."""
    first = paytable_submit(actor=author, paytable=make_paytable(author, holder))
    decide(actor=officer, paytable=first, reason="please look again")
    second = paytable_amend(actor=manager, paytable=first)
    return paytable_submit(actor=manager, paytable=second)


@pytest.mark.parametrize(
    "decide",
    [paytable_request_changes, paytable_reject],
    ids=["changes", "reject"],
)
def test_four_eyes_the_author_of_a_version_never_approved_cannot_approve_its_amendment(
    superuser, officer, officer2, manager_a, holder_a, decide
):
    second = amended_by_someone_else(superuser, officer, manager_a, holder_a, decide)
    assert superuser.pk in second.author_ids  # v1's author, carried on

    with pytest.raises(NotPermitted, match="four-eyes"):
        paytable_approve(actor=superuser, paytable=second)
    second.refresh_from_db()
    assert second.status == RecordStatus.SUBMITTED

    approved = paytable_approve(actor=officer2, paytable=second)
    assert approved.status == RecordStatus.APPROVED


def test_four_eyes_an_approved_versions_author_may_decide_its_amendment(
    superuser, officer, manager_a, holder_a
):
    first = paytable_submit(actor=superuser, paytable=make_paytable(superuser, holder_a))
    paytable_approve(actor=officer, paytable=first)
    second = paytable_submit(
        actor=manager_a, paytable=paytable_amend(actor=manager_a, paytable=first)
    )

    # v1's content was decided by a second person; v2 is the manager's alone.
    assert second.author_ids == [manager_a.pk]
    assert paytable_approve(actor=superuser, paytable=second).status == "approved"


def test_four_eyes_by_content_holds_over_the_api(superuser, officer, manager_a, holder_a):
    second = amended_by_someone_else(
        superuser, officer, manager_a, holder_a, paytable_request_changes
    )

    client = APIClient()
    client.force_login(superuser)
    answer = client.post(f"/api/paytables/{second.pk}/approve/", {}, format="json")

    assert answer.status_code == 403
    assert answer.json()["detail"] == msg.FOUR_EYES_OWN_WORK.format(kind="paytable")
    second.refresh_from_db()
    assert second.status == RecordStatus.SUBMITTED


def test_four_eyes_by_content_holds_on_the_page_and_in_the_admin(
    client, superuser, officer, manager_a, holder_a
):
    second = amended_by_someone_else(superuser, officer, manager_a, holder_a, paytable_reject)
    client.force_login(superuser)

    page = client.post(f"/compliance/paytables/{second.pk}/", {"step": "approve", "reason": "ok"})
    admin = client.post(
        "/admin/compliance/paytable/",
        {"action": "workflow_approve", "_selected_action": [second.pk], "apply": "1"},
        follow=True,
    )

    assert page.status_code == 403 and "four-eyes" in page.content.decode()
    assert "four-eyes" in admin.content.decode()
    second.refresh_from_db()
    assert second.status == RecordStatus.SUBMITTED


def test_four_eyes_a_bulk_admin_approval_refuses_each_version_its_author_touched(
    client, superuser, officer, manager_a, holder_a
):
    """Three paytables chosen at once: one the superuser wrote, one that carries the
    superuser's content under a manager's amendment, one the manager alone wrote. Only the
    last is approved; each refusal is named."""
    own = paytable_submit(actor=superuser, paytable=make_paytable(superuser, holder_a))
    carried = amended_by_someone_else(
        superuser, officer, manager_a, holder_a, paytable_request_changes
    )
    others = paytable_submit(
        actor=manager_a, paytable=make_paytable(manager_a, holder_a, name="Other")
    )
    client.force_login(superuser)

    answer = client.post(
        "/admin/compliance/paytable/",
        {
            "action": "workflow_approve",
            "_selected_action": [own.pk, carried.pk, others.pk],
            "apply": "1",
            "reason": "bulk",
        },
        follow=True,
    )

    page = answer.content.decode()
    refusal = msg.FOUR_EYES_OWN_WORK.format(kind="paytable")
    assert answer.status_code == 200
    assert page.count(refusal) == 2 and f"{own}: {refusal}" in page
    for record in (own, carried, others):
        record.refresh_from_db()
    assert own.status == carried.status == RecordStatus.SUBMITTED
    assert others.status == RecordStatus.APPROVED


def test_four_eyes_versions_amended_before_authors_were_carried_get_them_by_migration(
    superuser, officer, manager_a, holder_a
):
    from importlib import import_module

    from django.apps import apps

    from portal.compliance.models import Paytable

    migration = import_module(
        "portal.compliance.migrations.0005_carry_authors_over_unreviewed_versions"
    )
    carried = amended_by_someone_else(superuser, officer, manager_a, holder_a, paytable_reject)
    reviewed_first = paytable_submit(
        actor=superuser, paytable=make_paytable(superuser, holder_a, name="Reviewed")
    )
    paytable_approve(actor=officer, paytable=reviewed_first)
    after_review = paytable_amend(actor=manager_a, paytable=reviewed_first)
    # As the code before carrying authors left them: the amender alone.
    Paytable.objects.filter(pk=carried.pk).update(author_ids=[manager_a.pk])

    migration.carry_authors_on(apps, None)

    carried.refresh_from_db()
    after_review.refresh_from_db()
    assert carried.author_ids == sorted({superuser.pk, manager_a.pk})
    assert after_review.author_ids == [manager_a.pk]  # v1 was approved by a second person
    with pytest.raises(NotPermitted, match="four-eyes"):
        paytable_approve(actor=superuser, paytable=carried)
