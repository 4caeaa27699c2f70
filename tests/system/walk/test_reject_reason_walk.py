"""Rejecting asks for its reason before it asks to confirm: with the reason empty the
browser posts at once and the page says a reason is needed, nothing rejected; with one, the
officer confirms and the record is rejected."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.compliance.models import Layout, RecordStatus
from tests.portal.browser import needs_chromium
from tests.portal.page_helpers import submitted_layout

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def test_reject_checks_the_reason_before_asking_to_confirm(walk, axe, officer, manager_a, holder_a):
    layout = submitted_layout(manager_a, holder_a)
    page = walk.page
    asked: list[str] = []

    def answer(dialog):
        asked.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    walk.sign_in("officer")
    walk.open(f"/compliance/layouts/{layout.pk}/")
    panel = page.get_by_role("group", name="Decide this layout")

    panel.get_by_role("button", name="Reject").click()
    expect(page.get_by_role("alert").first).to_contain_text("reason")
    assert asked == []  # nothing to confirm: the server refused, nothing changed
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED
    axe.check("reject-without-reason")

    panel = page.get_by_role("group", name="Decide this layout")
    panel.get_by_label("Reason").fill("The artwork is not the approved schematic")
    panel.get_by_role("button", name="Reject").click()
    expect(walk.status_badge()).to_have_text("Rejected")
    assert len(asked) == 1
    assert Layout.objects.get(pk=layout.pk).status == RecordStatus.REJECTED
    axe.assert_no_serious_violations()
