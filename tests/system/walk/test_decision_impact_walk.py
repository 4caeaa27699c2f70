"""A compliance officer approves paytable v2 while the table on v1 is live: the decision
panel says, before approving, that no table goes dark, and the table plays on under v1
(reading:supersede). Withdrawing the superseded v1 names the table it would take dark, and
does."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from portal.compliance.models import Paytable, RecordStatus
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.compliance.services.paytables import paytable_amend, paytable_submit, paytable_update
from tests.portal.browser import needs_chromium
from tests.portal.factories import approved_offering

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

TABLE = "Jinzi Table 1"


@pytest.fixture
def table(manager_a, officer2, holder_a):
    """A live table on paytable v1, and v2 submitted by the holder's manager."""
    offering = approved_offering(manager_a, officer2, holder_a, name=TABLE)
    draft = paytable_amend(actor=manager_a, paytable=offering.paytable)
    draft = paytable_update(actor=manager_a, paytable=draft, name="Standard, 2nd edition")
    return offering, paytable_submit(actor=manager_a, paytable=draft)


def test_reading_supersede_an_officer_sees_what_each_decision_takes_dark(walk, officer, table):
    offering, v2 = table
    page = walk.page
    walk.sign_in("officer")

    walk.open(f"/compliance/paytables/{v2.pk}/")
    expect(page.get_by_role("heading", name="Standard, 2nd edition v2", level=1)).to_be_visible()
    panel = page.get_by_role("group", name="Decide this paytable")
    impact = panel.get_by_role("note", name="Approve: what it changes at the tables")
    expect(impact).to_have_text("Approve: No table changes: none opens, closes or moves.")
    impact.screenshot(path=str(walk.folder / "impact-panel-approve.png"))
    walk.shot("approve-panel-no-table-goes-dark")

    panel.get_by_role("button", name="Approve").click()
    expect(page.get_by_role("status")).to_contain_text("approved")
    expect(walk.status_badge()).to_have_text("Approved")
    assert offering_is_live(offerings_with_parts().get(pk=offering.pk)).live  # plays on v1
    walk.shot("v2-approved-table-plays-on-v1")

    walk.open(f"/compliance/paytables/{offering.paytable_id}/")
    expect(walk.status_badge()).to_have_text("Superseded")
    withdraw = page.get_by_role("group", name="Withdraw approval")
    impact = withdraw.get_by_role("note", name="Withdraw approval: what it changes at the tables")
    expect(impact).to_have_text(
        f"Withdraw approval: Tables this decision takes dark: {TABLE} (Keystone Casino)."
    )
    impact.screenshot(path=str(walk.folder / "impact-panel-withdraw.png"))
    walk.shot("withdrawing-superseded-v1-names-the-table")

    withdraw.get_by_role("textbox", name="Reason").fill("Recalled by the Bureau")
    page.once("dialog", lambda dialog: dialog.accept())
    withdraw.get_by_role("button", name="Withdraw approval").click()
    expect(walk.status_badge()).to_have_text("Withdrawn")
    walk.shot("v1-withdrawn")
    assert Paytable.objects.get(pk=offering.paytable_id).status == RecordStatus.WITHDRAWN
    assert not offering_is_live(offerings_with_parts().get(pk=offering.pk)).live
