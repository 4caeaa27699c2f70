"""A table suspended while a suspected malfunction is checked (reading:table-suspension): a
compliance officer or the holder's supervisor closes it at once with the reason; players
read that it is checked; someone else reopens it, and it plays again only if everything it
runs on still holds; retiring stays permanent; another holder's supervisor finds no table."""

from __future__ import annotations

import pytest

from portal.compliance.models import AvailabilityCause, AvailabilityChange, OfferingStatus
from portal.compliance.selectors import offering_is_live
from portal.compliance.services.layouts import layout_withdraw
from portal.compliance.services.offerings import (
    offering_reopen,
    offering_retire,
    offering_suspend,
)
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.game.models import Round
from portal.game.play.services import TableClosed
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

REASON = "The wheel showed 12 three times running; the RNG log is being read."


@pytest.mark.clause("reading:table-suspension", kind="proves")
def test_a_supervisor_suspends_a_table_at_once_and_another_person_reopens_it(
    funded_player, live_offering, supervisor_a, officer, client
):
    play_round(funded_player, live_offering, "before-suspension")
    table = offering_suspend(actor=supervisor_a, offering_id=live_offering.pk, reason=REASON)
    assert table.status == OfferingStatus.SUSPENDED and table.suspended_by == supervisor_a
    liveness = offering_is_live(table)
    assert not liveness.live and any("suspended" in reason for reason in liveness.reasons)
    closed = AvailabilityChange.objects.filter(offering=table).latest("at", "pk")
    assert (closed.opened, closed.cause) == (False, AvailabilityCause.TABLE_SUSPENDED)
    assert REASON in closed.reason

    with pytest.raises(TableClosed):
        play_round(funded_player, live_offering, "during-suspension")
    client.force_login(funded_player)
    assert "This table is closed while it is checked." in client.get("/play/").content.decode()
    page = client.get(f"/play/{live_offering.pk}/").content.decode()
    assert "This table is closed while it is checked." in page

    with pytest.raises(NotPermitted, match="someone other than who suspended it"):
        offering_reopen(actor=supervisor_a, offering_id=live_offering.pk, reason="Checked")
    offering_reopen(actor=officer, offering_id=live_offering.pk, reason="RNG log clean")
    opened = AvailabilityChange.objects.filter(offering=table).latest("at", "pk")
    assert (opened.opened, opened.cause) == (True, AvailabilityCause.TABLE_REOPENED)
    play_round(funded_player, live_offering, "after-reopening")
    assert Round.objects.count() == 2


def test_reopening_checks_everything_again(live_offering, supervisor_a, officer, manager_a):
    offering_suspend(actor=officer, offering_id=live_offering.pk, reason=REASON)
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Wrong artwork")
    table = offering_reopen(actor=supervisor_a, offering_id=live_offering.pk, reason="Fine")
    assert table.status == OfferingStatus.ACTIVE
    assert not offering_is_live(table).live  # its layout's approval was withdrawn meanwhile
    assert not AvailabilityChange.objects.filter(
        offering=table, cause=AvailabilityCause.TABLE_REOPENED
    ).exists()


def test_retiring_a_suspended_table_is_for_good(live_offering, supervisor_a, officer, manager_a):
    offering_suspend(actor=supervisor_a, offering_id=live_offering.pk, reason=REASON)
    offering_retire(actor=manager_a, offering=live_offering, reason="Malfunction confirmed")
    with pytest.raises(Conflict, match="not suspended"):
        offering_reopen(actor=officer, offering_id=live_offering.pk, reason="Checked")
    with pytest.raises(Conflict, match="only a table in service can be suspended"):
        offering_suspend(actor=officer, offering_id=live_offering.pk, reason=REASON)


@pytest.mark.parametrize("reason", ["", "   ", None, 7, "x" * 2001])
def test_a_suspension_needs_its_reason(live_offering, supervisor_a, reason):
    with pytest.raises(ValidationFailed):
        offering_suspend(actor=supervisor_a, offering_id=live_offering.pk, reason=reason)
    live_offering.refresh_from_db()
    assert live_offering.status == OfferingStatus.ACTIVE


def test_another_holders_supervisor_finds_no_table_and_others_may_not(
    live_offering, supervisor_b, manager_a, auditor, funded_player
):
    with pytest.raises(NotFound):
        offering_suspend(actor=supervisor_b, offering_id=live_offering.pk, reason=REASON)
    for someone in (manager_a, auditor, funded_player):
        with pytest.raises(NotPermitted):
            offering_suspend(actor=someone, offering_id=live_offering.pk, reason=REASON)
    with pytest.raises(NotFound):
        offering_suspend(actor=supervisor_b, offering_id=10**12, reason=REASON)
    live_offering.refresh_from_db()
    assert live_offering.status == OfferingStatus.ACTIVE


def test_the_tables_to_check_page_suspends_and_reopens(
    client, live_offering, supervisor_a, supervisor_b, officer
):
    client.force_login(supervisor_a)
    page = client.get("/play/checks/").content.decode()
    assert live_offering.name in page and "Suspend this table now" in page
    refused = client.post("/play/checks/", {"action": "suspend", "table": live_offering.pk})
    assert refused.status_code == 400 and "Give the reason" in refused.content.decode()
    done = client.post(
        "/play/checks/",
        {"action": "suspend", "table": live_offering.pk, "reason": REASON},
        follow=True,
    )
    assert "is suspended" in done.content.decode()
    own = client.post(
        "/play/checks/", {"action": "reopen", "table": live_offering.pk, "reason": "Checked"}
    )
    assert own.status_code == 403
    client.force_login(supervisor_b)
    assert live_offering.name not in client.get("/play/checks/").content.decode()
    other = client.post(
        "/play/checks/", {"action": "reopen", "table": live_offering.pk, "reason": "Checked"}
    )
    assert other.status_code == 404
    client.force_login(officer)
    client.post("/play/checks/", {"action": "reopen", "table": live_offering.pk, "reason": "Ok"})
    live_offering.refresh_from_db()
    assert live_offering.status == OfferingStatus.ACTIVE


def _api(user):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_login(user)
    return client


@pytest.mark.clause("reading:table-suspension", kind="proves")
def test_the_api_suspends_and_reopens_a_table_under_four_eyes(live_offering, supervisor_a, officer):
    url = f"/api/offerings/{live_offering.pk}/"

    suspended = _api(supervisor_a).post(f"{url}suspend/", {"reason": REASON}, format="json")

    assert suspended.status_code == 200, suspended.content
    body = suspended.json()
    assert (body["status"], body["live"], body["suspension_reason"]) == (
        "suspended",
        False,
        REASON,
    )
    again = _api(supervisor_a).post(f"{url}reopen/", {"reason": "Checked"}, format="json")
    assert again.status_code == 403
    assert "someone other than who suspended it" in again.json()["detail"]
    closed = AvailabilityChange.objects.filter(offering=live_offering).latest("at", "pk")
    assert (closed.opened, closed.cause) == (False, AvailabilityCause.TABLE_SUSPENDED)
    reopened = _api(officer).post(f"{url}reopen/", {"reason": "RNG log clean"}, format="json")
    assert reopened.status_code == 200
    assert (reopened.json()["status"], reopened.json()["live"]) == ("active", True)
    assert reopened.json()["suspended_at"] is None


def test_the_api_refuses_a_suspension_it_may_not_make(
    live_offering, supervisor_b, manager_a, officer
):
    url = f"/api/offerings/{live_offering.pk}/"

    other_holder = _api(supervisor_b).post(f"{url}suspend/", {"reason": REASON}, format="json")
    manager = _api(manager_a).post(f"{url}suspend/", {"reason": REASON}, format="json")
    no_reason = _api(officer).post(f"{url}suspend/", {"reason": ""}, format="json")
    no_table = _api(officer).post("/api/offerings/x1/suspend/", {"reason": REASON}, format="json")

    assert other_holder.status_code == 404
    assert manager.status_code == 403
    assert no_reason.status_code == 400
    assert no_table.status_code == 404
    live_offering.refresh_from_db()
    assert live_offering.status == OfferingStatus.ACTIVE
