"""Every error at once, each once, on its field (issue: "today … the sunset error only after
the others are fixed"). Once § 617b.8 has expired (2028-06-14, 00:00 Pennsylvania time) no
new rules submission or offering can be set up: the forms run the services' own refusal
(``refuse_new_submission_after_sunset``, ``refuse_new_offering_after_sunset``) in
``clean()``, so it shows as the form's error, citing § 617b.8, with every field error of the
same post; nothing is written."""

from __future__ import annotations

import datetime

import pytest
import time_machine

from portal.compliance import messages as msg
from portal.compliance.models import Offering, RulesSubmission
from portal.compliance.services.offerings import refuse_new_offering_after_sunset
from portal.compliance.services.rules import refuse_new_submission_after_sunset
from portal.core.errors import Conflict
from portal.core.padates import pa_today
from tests.portal.factories import events_written, make_paytable
from tests.portal.page_helpers import (
    field_errors,
    form_errors,
    rules_form,
    shown_once,
    submitted_layout,
    text,
)

pytestmark = pytest.mark.django_db

UTC = datetime.UTC
SUNSET_PASSED = datetime.datetime(2028, 6, 20, 16, 0, tzinfo=UTC)
# 00:00:01 EDT on 2028-06-14 (the sunset), and 23:59 EDT on its eve: Pennsylvania dates.
SUNSET_MIDNIGHT = datetime.datetime(2028, 6, 14, 4, 0, 1, tzinfo=UTC)
SUNSET_EVE = datetime.datetime(2028, 6, 14, 3, 59, tzinfo=UTC)

RULES_REFUSED = msg.NOTHING_CAN_HOLD.format(what="rules submission", verb="created")
OFFERING_REFUSED = msg.NOTHING_CAN_HOLD.format(what="offering", verb="set up")


def _refusal(check) -> str:
    """The message the service itself refuses with now."""
    with pytest.raises(Conflict) as refused:
        check()
    return refused.value.message


# --- Rules submissions ----------------------------------------------------------------


def test_617b8_sunset_refusal_shows_with_other_errors(login, manager_a, parts):
    data = rules_form(*parts, title="", chip_unit="1.01", expiry_date="2029-01-01")
    written = events_written()

    with time_machine.travel(SUNSET_PASSED, tick=False):
        response = login(manager_a).post("/compliance/rules/new/", data)
        service_says = _refusal(refuse_new_submission_after_sunset)

    page = text(response)
    assert response.status_code == 400
    # The service's own refusal, citing § 617b.8 and its sunset, as the form's error.
    assert service_says == RULES_REFUSED
    assert "§ 617b.8 expired on 2028-06-14" in RULES_REFUSED
    assert RULES_REFUSED in form_errors(response)
    # … in the same response as every field error, each on its field.
    assert "Enter the title" in field_errors(response, "id_title")
    assert "§ 617b.8(g)" in field_errors(response, "id_chip_unit")
    expiry = msg.EXPIRY_AFTER_SUNSET.format(expiry="2029-01-01")
    assert expiry in field_errors(response, "id_expiry_date")
    # Each once.
    assert shown_once(page, "no approval can hold under it")
    assert shown_once(page, "Enter the title")
    assert shown_once(page, "$1.01 is an odd number of cents")
    assert shown_once(page, "an approval cannot run past it")
    # Nothing written.
    assert not RulesSubmission.objects.exists()
    assert events_written() == written


def test_617b8_sunset_refusal_alone_is_the_forms_error_not_a_conflict_page(login, manager_a, parts):
    written = events_written()

    with time_machine.travel(SUNSET_MIDNIGHT, tick=False):
        response = login(manager_a).post("/compliance/rules/new/", rules_form(*parts))

    assert response.status_code == 400
    assert RULES_REFUSED in form_errors(response)
    assert shown_once(text(response), "no approval can hold under it")
    assert 'id="id_title"' in text(response)  # the form again, as typed
    assert not RulesSubmission.objects.exists()
    assert events_written() == written


def test_617b8_sunset_on_its_eve_a_new_rules_submission_is_still_taken(login, manager_a, parts):
    with time_machine.travel(SUNSET_EVE, tick=False):
        response = login(manager_a).post("/compliance/rules/new/", rules_form(*parts))

    assert response.status_code == 302
    assert RulesSubmission.objects.count() == 1


def test_617b8_sunset_refusal_shows_with_a_missing_holder_for_a_superuser(login, superuser, parts):
    data = rules_form(*parts, min_wager="1.50")
    written = events_written()

    with time_machine.travel(SUNSET_PASSED, tick=False):
        response = login(superuser).post("/compliance/rules/new/", data)

    page = text(response)
    assert response.status_code == 400
    assert RULES_REFUSED in form_errors(response)
    assert "Choose the certificate holder" in field_errors(response, "id_holder")
    assert shown_once(page, "no approval can hold under it")
    assert shown_once(page, "Choose the certificate holder")
    assert not RulesSubmission.objects.exists()
    assert events_written() == written


# --- Offerings ------------------------------------------------------------------------


def test_617b8_sunset_offering_refusal_shows_with_other_errors(
    login, manager_a, holder_a, live_offering
):
    unlisted = make_paytable(manager_a, holder_a, name="Not listed")
    data = {
        "name": "",
        "rules_submission": live_offering.rules_submission_id,
        "layout": live_offering.layout_id,
        "paytable": unlisted.pk,
    }
    written = events_written()

    with time_machine.travel(SUNSET_PASSED, tick=False):
        response = login(manager_a).post("/compliance/offerings/new/", data)
        service_says = _refusal(refuse_new_offering_after_sunset)

    page = text(response)
    assert response.status_code == 400
    assert service_says == OFFERING_REFUSED
    assert OFFERING_REFUSED in form_errors(response)
    assert "Enter the name" in field_errors(response, "id_name")
    assert "§ 601a.2, § 617b.8(a)" in field_errors(response, "id_paytable")
    assert shown_once(page, "no approval can hold under it")
    assert shown_once(page, "Enter the name")
    assert shown_once(page, "does not list Jinzi Roulette with this paytable")
    assert Offering.objects.count() == 1
    assert events_written() == written


# --- A layout's approval (§ 601a.10(a)) -----------------------------------------------


def test_601a10_a_layout_approval_names_every_missing_and_wrong_field_at_once(
    login, manager_a, officer, holder_a
):
    layout = submitted_layout(manager_a, holder_a)
    written = events_written()

    response = login(officer).post(
        f"/compliance/layouts/{layout.pk}/",
        {
            "step": "approve",
            "reference_number": "",
            "effective_date": "2026-03-01",
            "expiry_date": "2028-07-01",
        },
    )

    assert response.status_code == 400
    assert field_errors(response, "id_approve_reference_number").count(msg.REFERENCE_REQUIRED) == 1
    expiry = field_errors(response, "id_approve_expiry_date")
    assert expiry.count(msg.EXPIRY_AFTER_SUNSET.format(expiry="2028-07-01")) == 1
    assert "§ 617b.8" in expiry
    assert events_written() == written
    layout.refresh_from_db()
    assert layout.status == "submitted"


def test_601a10_a_an_approval_expiring_today_is_refused_with_the_missing_reference(
    login, manager_a, officer, holder_a
):
    layout = submitted_layout(manager_a, holder_a)
    today = pa_today().isoformat()

    response = login(officer).post(
        f"/compliance/layouts/{layout.pk}/",
        {"step": "approve", "effective_date": "2025-06-14", "expiry_date": today},
    )

    assert response.status_code == 400
    assert msg.REFERENCE_REQUIRED in field_errors(response, "id_approve_reference_number")
    assert msg.EXPIRY_IN_THE_PAST.format(expiry=today) in field_errors(
        response, "id_approve_expiry_date"
    )
