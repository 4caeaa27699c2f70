import re

import pytest

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.forms import LIMITS_ORDER_PLAIN
from portal.compliance.models import ListedGame, RecordStatus, RulesSubmission
from portal.compliance.services.rules import rules_submission_approve, rules_submission_submit
from tests.portal.factories import (
    EXPIRY,
    make_layout,
    make_paytable,
    make_rules,
)
from tests.portal.page_helpers import field_errors, form_errors, rules_form, text

pytestmark = pytest.mark.django_db


def test_601a2_a_manager_drafts_a_rules_submission_listing_jinzi_roulette(
    login, manager_a, holder_a, parts
):
    paytable, layout = parts

    response = login(manager_a).post("/compliance/rules/new/", rules_form(paytable, layout))

    submission = RulesSubmission.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/rules/{submission.pk}/"
    assert (submission.holder, submission.status, submission.expiry_date) == (
        holder_a,
        RecordStatus.DRAFT,
        EXPIRY,
    )
    listing = ListedGame.objects.get(submission=submission)
    assert (listing.paytable, listing.layout, listing.chip_unit, listing.max_round_stake) == (
        paytable,
        layout,
        100,
        200_000,
    )
    assert (
        AuditEvent.objects.get(action="rules_submission.create").after["games"][0]["chip_unit"]
        == 100
    )


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
@pytest.mark.clause("reading:even-stakes", kind="proves")
def test_617b8_g_rules_form_refuses_odd_chip_unit(login, manager_a, parts):
    response = login(manager_a).post("/compliance/rules/new/", rules_form(*parts, chip_unit="1.01"))

    assert response.status_code == 400
    errors = field_errors(response, "id_chip_unit")
    assert "§ 617b.8(g)" in errors
    assert "$1.01 is an odd number of cents" in errors
    assert RulesSubmission.objects.count() == 0


def test_limits_out_of_order_are_shown_on_the_max_wager(login, manager_a, parts):
    response = login(manager_a).post(
        "/compliance/rules/new/", rules_form(*parts, max_wager="4000.00")
    )

    assert response.status_code == 400
    assert LIMITS_ORDER_PLAIN in field_errors(response, "id_max_wager")


def test_617b8_sunset_rules_expiring_after_2028_06_14_are_refused(login, manager_a, parts):
    response = login(manager_a).post(
        "/compliance/rules/new/", rules_form(*parts, expiry_date="2028-06-15")
    )

    assert response.status_code == 400
    assert "2028-06-14" in field_errors(response, "id_expiry_date")
    assert RulesSubmission.objects.count() == 0


def test_money_is_typed_in_dollars(login, manager_a, parts):
    response = login(manager_a).post(
        "/compliance/rules/new/", rules_form(*parts, chip_unit="1.505")
    )

    assert response.status_code == 400
    assert "Enter the chip unit in dollars and cents, like 1.00" in field_errors(
        response, "id_chip_unit"
    )
    page = text(login(manager_a).get("/compliance/rules/new/"))
    assert "Chip unit ($)" in page
    assert "(cents)" not in page


def test_the_selects_offer_only_the_holders_own_records(
    login, manager_a, manager_b, holder_a, holder_b, parts
):
    theirs = make_paytable(manager_b, holder_b, name="Their paytable")

    page = text(login(manager_a).get("/compliance/rules/new/"))
    response = login(manager_a).post("/compliance/rules/new/", rules_form(theirs, parts[1]))

    assert "Standard v1" in page
    assert "Their paytable" not in page
    assert response.status_code == 400
    assert "Select a valid choice" in field_errors(response, "id_paytable")
    assert RulesSubmission.objects.count() == 0


def test_a_superuser_listing_another_holders_paytable_is_told_on_the_field(
    login, superuser, holder_b, parts
):
    response = login(superuser).post(
        "/compliance/rules/new/", {**rules_form(*parts), "holder": holder_b.pk}
    )

    assert response.status_code == 400
    assert msg.OTHER_HOLDERS_RECORD.format(kind="paytable") in field_errors(response, "id_paytable")
    assert RulesSubmission.objects.count() == 0


def test_detail_lists_the_games_with_amounts_in_dollars(login, auditor, manager_a, holder_a, parts):
    submission = make_rules(manager_a, holder_a, *parts)

    page = text(login(auditor).get(f"/compliance/rules/{submission.pk}/"))

    assert "Jinzi Roulette" in page
    assert f'href="/compliance/paytables/{parts[0].pk}/"' in page
    assert f'href="/compliance/layouts/{parts[1].pk}/"' in page
    # In dollars, as they were typed; never in cents.
    assert re.search(r"<dt>Chip unit</dt><dd>\$1\.00</dd>", page)
    assert re.search(r"<dt>Maximum stake per round</dt><dd>\$2,000\.00</dd>", page)
    assert "cents)" not in page


def test_601a2_submit_and_approve_through_the_pages(login, manager_a, officer, holder_a, parts):
    submission = make_rules(manager_a, holder_a, *parts)

    assert (
        login(manager_a).post(f"/compliance/rules/{submission.pk}/", {"step": "submit"}).status_code
        == 302
    )
    response = login(officer).post(
        f"/compliance/rules/{submission.pk}/", {"step": "approve", "reason": "ok"}
    )

    submission.refresh_from_db()
    assert response.status_code == 302
    assert (submission.status, submission.decided_by) == (RecordStatus.APPROVED, officer)


def test_601a2_listed_records_must_be_approved_before_the_submission(
    login, manager_a, officer, holder_a
):
    draft_paytable = make_paytable(manager_a, holder_a)
    submission = make_rules(manager_a, holder_a, draft_paytable, make_layout(manager_a, holder_a))
    rules_submission_submit(actor=manager_a, submission=submission)

    response = login(officer).post(f"/compliance/rules/{submission.pk}/", {"step": "approve"})

    assert response.status_code == 400
    assert "§ 601a.2: the listed paytable" in form_errors(response)
    submission.refresh_from_db()
    assert submission.status == RecordStatus.SUBMITTED


def test_editing_changes_the_listing_but_not_the_status(login, manager_a, holder_a, parts):
    submission = make_rules(manager_a, holder_a, *parts)
    client = login(manager_a)

    shown = text(client.get(f"/compliance/rules/{submission.pk}/edit/"))
    response = client.post(
        f"/compliance/rules/{submission.pk}/edit/",
        rules_form(*parts, title="Revised", max_wager="600.00", status="approved"),
    )

    assert 'value="500.00"' in shown  # the stored 50,000 cents, shown in dollars
    submission.refresh_from_db()
    assert response.status_code == 302
    assert (submission.title, submission.status) == ("Revised", RecordStatus.DRAFT)
    assert submission.games.get().max_wager == 60_000


def test_amend_withdraw_and_reject_rules(login, manager_a, officer, holder_a, parts):
    first = rules_submission_approve(
        actor=officer,
        submission=rules_submission_submit(
            actor=manager_a, submission=make_rules(manager_a, holder_a, *parts)
        ),
    )

    login(manager_a).post(f"/compliance/rules/{first.pk}/", {"step": "amend"})
    second = RulesSubmission.objects.get(series=first.series, version=2)
    assert second.games.get().paytable == parts[0]
    rules_submission_submit(actor=manager_a, submission=second)
    login(officer).post(
        f"/compliance/rules/{second.pk}/", {"step": "reject", "reason": "No change"}
    )
    login(officer).post(f"/compliance/rules/{first.pk}/", {"step": "withdraw", "reason": "Closing"})

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (RecordStatus.WITHDRAWN, RecordStatus.REJECTED)


def test_another_holders_rules_are_not_found(login, manager_a, manager_b, holder_a, parts):
    submission = make_rules(manager_a, holder_a, *parts)
    client = login(manager_b)

    assert client.get(f"/compliance/rules/{submission.pk}/").status_code == 404
    assert client.get(f"/compliance/rules/{submission.pk}/edit/").status_code == 404
    assert client.post(f"/compliance/rules/{submission.pk}/", {"step": "submit"}).status_code == 404


def test_wrong_roles_are_forbidden(login, auditor, officer, manager_a, holder_a, parts):
    submission = make_rules(manager_a, holder_a, *parts)

    assert login(auditor).post("/compliance/rules/new/", rules_form(*parts)).status_code == 403
    assert login(officer).get(f"/compliance/rules/{submission.pk}/edit/").status_code == 403
    assert (
        login(officer).post(f"/compliance/rules/{submission.pk}/", {"step": "submit"}).status_code
        == 403
    )
    assert RulesSubmission.objects.count() == 1
