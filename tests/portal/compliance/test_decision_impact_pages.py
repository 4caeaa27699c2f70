"""A decision shows, before it is taken, the tables it takes dark or brings live, by table and
holder name (reading:supersede), on the record's page and in the API; it carries the
fingerprint of what it showed, and is refused (409, nothing changed) when that has changed."""

from __future__ import annotations

import html
import re

import pytest
from rest_framework.test import APIClient

from portal.compliance.models import Offering, OfferingStatus, Paytable, RecordStatus
from portal.compliance.selectors import step_impact
from portal.compliance.services.paytables import paytable_amend, paytable_submit
from tests.portal.factories import approved_offering, events_written

pytestmark = pytest.mark.django_db

TABLE = "Jinzi Table 1"
SHOWN = f"{TABLE} (Keystone Casino)"


@pytest.fixture
def table(manager_a, officer, holder_a) -> Offering:
    return approved_offering(manager_a, officer, holder_a, name=TABLE)


def _words(response) -> str:
    """The page as read: its text without tags, spaces collapsed; its hidden fields kept."""
    page = response.content.decode()
    hidden = " ".join(re.findall(r'<input type="hidden" name="impact_[^>]*>', page))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split()) + hidden


def _page(client, record) -> str:
    kind = "paytables" if isinstance(record, Paytable) else "layouts"
    return _words(client.get(f"/compliance/{kind}/{record.pk}/"))


def _hidden(page: str, name: str) -> str:
    found = re.search(rf'name="{name}" value="([0-9a-f]{{64}})"', page)
    assert found, f"no {name} on the page"
    return found.group(1)


def _v2_submitted(table, manager):
    return paytable_submit(
        actor=manager, paytable=paytable_amend(actor=manager, paytable=table.paytable)
    )


def test_reading_supersede_the_approval_panel_shows_no_table_goes_dark(
    login, table, manager_a, officer
):
    v2 = _v2_submitted(table, manager_a)
    client = login(officer)

    page = _page(client, v2)

    assert "Approve: No table changes: none opens, closes or moves." in page
    fingerprint = _hidden(page, "impact_approve")
    response = client.post(
        f"/compliance/paytables/{v2.pk}/", {"step": "approve", "impact_approve": fingerprint}
    )
    assert response.status_code == 302
    assert Paytable.objects.get(pk=v2.pk).status == RecordStatus.APPROVED
    assert Offering.objects.get(pk=table.pk).paytable_id == table.paytable_id  # plays on v1


def test_reading_supersede_withdrawing_the_superseded_version_names_the_table_it_takes_dark(
    login, table, manager_a, officer
):
    v2 = _v2_submitted(table, manager_a)
    client = login(officer)
    client.post(f"/compliance/paytables/{v2.pk}/", {"step": "approve"})
    v1 = Paytable.objects.get(pk=table.paytable_id)
    assert v1.status == RecordStatus.SUPERSEDED

    page = _page(client, v1)

    assert f"Withdraw approval: Tables this decision takes dark: {SHOWN}." in page
    response = client.post(
        f"/compliance/paytables/{v1.pk}/",
        {
            "step": "withdraw",
            "reason": "Recalled",
            "impact_withdraw": _hidden(page, "impact_withdraw"),
        },
    )
    assert response.status_code == 302
    assert Paytable.objects.get(pk=v1.pk).status == RecordStatus.WITHDRAWN


def test_reading_supersede_a_stale_impact_is_refused_and_the_decision_shown_again(
    login, table, manager_a, officer
):
    client = login(officer)
    stale = _hidden(_page(client, table.layout), "impact_withdraw")
    Offering.objects.filter(pk=table.pk).update(status=OfferingStatus.RETIRED)  # meanwhile
    written = events_written()

    response = client.post(
        f"/compliance/layouts/{table.layout_id}/",
        {"step": "withdraw", "reason": "Recalled", "impact_withdraw": stale},
    )

    assert response.status_code == 409
    page = _words(response)
    assert "Not done." in page and "have changed since it was shown" in page
    assert "Withdraw approval: No table changes: none opens, closes or moves." in page
    assert _hidden(page, "impact_withdraw") != stale
    assert "Recalled" in page  # what was typed is kept
    table.layout.refresh_from_db()
    assert table.layout.status == RecordStatus.APPROVED
    assert events_written() == written


def test_reading_supersede_the_record_shows_the_tables_its_expiry_takes_dark(login, table, officer):
    page = _page(login(officer), table.layout)

    assert (
        f"At its expiry on {table.layout.expiry_date.isoformat()}, applied by the midnight job: "
        f"Tables this decision takes dark: {SHOWN}." in page
    )


def test_reading_supersede_the_api_shows_each_steps_impact_and_refuses_a_stale_one(table, officer):
    client = APIClient()
    client.force_login(officer)
    url = f"/api/layouts/{table.layout_id}/"

    body = client.get(f"{url}impact/").json()

    withdraw = body["steps"]["withdraw"]
    assert withdraw["takes_dark"] == [
        {"id": table.pk, "name": TABLE, "holder_name": "Keystone Casino"}
    ]
    assert withdraw["brings_live"] == []
    assert withdraw["fingerprint"] == step_impact(table.layout, "withdraw").fingerprint
    assert set(body["steps"]) == {"withdraw", "expire"}

    Offering.objects.filter(pk=table.pk).update(status=OfferingStatus.RETIRED)
    written = events_written()
    refused = client.post(
        f"{url}withdraw/",
        {"reason": "Recalled", "impact": withdraw["fingerprint"]},
        format="json",
    )
    assert refused.status_code == 409
    assert events_written() == written
    assert (
        client.post(
            f"{url}withdraw/", {"reason": "Recalled", "impact": "x"}, format="json"
        ).status_code
        == 400
    )

    fresh = client.get(f"{url}impact/").json()["steps"]["withdraw"]
    done = client.post(
        f"{url}withdraw/", {"reason": "Recalled", "impact": fresh["fingerprint"]}, format="json"
    )
    assert done.status_code == 200
    assert done.json()["status"] == "withdrawn"


def test_reading_supersede_the_api_approval_takes_the_impact_too(table, manager_a, officer):
    v2 = _v2_submitted(table, manager_a)
    client = APIClient()
    client.force_login(officer)
    shown = client.get(f"/api/paytables/{v2.pk}/impact/").json()["steps"]["approve"]
    assert shown["takes_dark"] == [] and shown["brings_live"] == []

    done = client.post(
        f"/api/paytables/{v2.pk}/approve/", {"impact": shown["fingerprint"]}, format="json"
    )

    assert done.status_code == 200, done.json()
    assert Offering.objects.get(pk=table.pk).paytable_id == table.paytable_id
