"""What a reviewer sees on a record's page: the changes from the approved version, the
values each audit event changed, and one decision panel (or why there is none)."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders

from portal.compliance import messages as msg
from portal.compliance.models import RecordStatus
from portal.compliance.services.layouts import layout_amend, layout_submit, layout_update
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_create,
    paytable_request_changes,
    paytable_submit,
    paytable_update,
)
from portal.compliance.services.rules import (
    rules_submission_amend,
    rules_submission_submit,
    rules_submission_update,
)
from tests.portal.browser import needs_chromium
from tests.portal.factories import (
    EFFECTIVE,
    EXPIRY,
    MINIMUM_ODDS,
    PASSWORD,
    STANDARD_ORDER,
    approved_layout,
    approved_paytable,
    approved_rules,
    listing,
    make_paytable,
    png_upload,
)
from tests.portal.page_helpers import field_errors, submitted_layout, submitted_paytable, text

pytestmark = pytest.mark.django_db

OTHER_ORDER = [0, 7, 1, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6]


def _row(page: str, label: str) -> tuple[str, str, str]:
    """A diff row: its class (changed or same), its approved and its new value."""
    match = re.search(
        rf'<tr class="(changed|same)">\s*<th scope="row">{re.escape(label)}</th>\s*'
        r'<td class="before">(.*?)</td>\s*<td class="after">(.*?)</td>',
        page,
        re.S,
    )
    assert match, f"no diff row {label!r}"
    return match.group(1), match.group(2), match.group(3)


def _panel(page: str) -> str:
    match = re.search(r'<form[^>]*class="[^"]*decision-panel[^"]*"[^>]*>(.*?)</form>', page, re.S)
    assert match, "no decision panel"
    return match.group(0)


def _submitted_amendment_of_paytable(manager, officer, holder, odds):
    approved = approved_paytable(manager, officer, holder)
    draft = paytable_amend(actor=manager, paytable=approved)
    if odds is not None:
        paytable_update(actor=manager, paytable=draft, odds=odds)
    return approved, paytable_submit(actor=manager, paytable=draft)


# --- Changes from the approved version ----------------------------------------------------


def test_a_paytable_amendment_shows_each_changed_odds_before_and_after(
    login, manager_a, officer, holder_a
):
    approved, amendment = _submitted_amendment_of_paytable(
        manager_a, officer, holder_a, {**MINIMUM_ODDS, "straight": 12}
    )

    page = text(login(officer).get(f"/compliance/paytables/{amendment.pk}/"))

    assert "Changes from the approved version (v1)" in page
    assert _row(page, "Straight up") == ("changed", "11 to 1", "12 to 1")
    assert _row(page, "Split") == ("same", "5 to 1", "5 to 1")
    assert f'href="/compliance/paytables/{approved.pk}/">v1</a>' in page
    # Paying more on straight up moves the range of hold too.
    assert _row(page, "Wagers covering 0")[0] == "changed"


def test_an_unchanged_amendment_says_so(login, manager_a, officer, holder_a):
    _, amendment = _submitted_amendment_of_paytable(manager_a, officer, holder_a, None)

    page = text(login(officer).get(f"/compliance/paytables/{amendment.pk}/"))

    assert "No changes from v1" in page
    assert 'class="diff-table"' not in page


def test_a_first_version_or_the_approved_one_itself_shows_no_diff(
    login, manager_a, officer, holder_a
):
    first = submitted_paytable(manager_a, holder_a)
    approved = approved_paytable(manager_a, officer, holder_a)
    client = login(officer)

    for paytable in (first, approved):
        page = text(client.get(f"/compliance/paytables/{paytable.pk}/"))
        assert "Changes from the approved version" not in page


def test_a_layout_amendment_shows_the_wheel_order_and_both_artworks(
    login, manager_a, officer, holder_a
):
    approved = approved_layout(manager_a, officer, holder_a)
    draft = layout_amend(actor=manager_a, layout=approved)
    layout_update(
        actor=manager_a,
        layout=draft,
        wheel_order=OTHER_ORDER,
        first_colour="black",
        artwork=png_upload("new.png"),
    )
    amendment = layout_submit(actor=manager_a, layout=draft)

    page = text(login(officer).get(f"/compliance/layouts/{amendment.pk}/"))

    assert "Changes from the approved version (v1)" in page
    assert _row(page, "Wheel order (§ 617b.8(c))") == (
        "changed",
        ", ".join(map(str, STANDARD_ORDER)),
        ", ".join(map(str, OTHER_ORDER)),
    )
    assert _row(page, "First colour after 0") == ("changed", "red", "black")
    assert _row(page, "Title")[0] == "same"
    # The same bytes uploaded again: the artwork's content did not change.
    assert _row(page, "Artwork")[0] == "same"
    for version in (approved, amendment):
        assert f'src="/compliance/layouts/{version.pk}/artwork/"' in page
    assert "pocket red moved" in page or "pocket black moved" in page


def test_a_rules_amendment_shows_its_listing_field_by_field(login, manager_a, officer, holder_a):
    layout = approved_layout(manager_a, officer, holder_a)
    paytable = approved_paytable(manager_a, officer, holder_a)
    approved = approved_rules(manager_a, officer, holder_a, paytable, layout)
    draft = rules_submission_amend(actor=manager_a, submission=approved)
    rules_submission_update(
        actor=manager_a,
        submission=draft,
        games=[listing(paytable, layout, min_wager=200)],
        effective_date=EFFECTIVE,
        expiry_date=EXPIRY,
    )
    amendment = rules_submission_submit(actor=manager_a, submission=draft)

    page = text(login(officer).get(f"/compliance/rules/{amendment.pk}/"))

    assert _row(page, "Minimum wager per spot") == ("changed", "$1.00", "$2.00")
    assert "cents" not in page
    assert _row(page, "Chip unit")[0] == "same"
    assert _row(page, "Paytable") == ("same", "Standard v1", "Standard v1")


# --- History: the values each event changed ---------------------------------------------------


def test_the_history_shows_values_before_and_after(login, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    paytable_update(actor=manager_a, paytable=paytable, odds={**MINIMUM_ODDS, "red": 2})
    paytable_submit(actor=manager_a, paytable=paytable)

    page = text(login(manager_a).get(f"/compliance/paytables/{paytable.pk}/?tab=history"))

    changes = re.findall(
        r'<tr><th scope="row">([^<]+)</th><td class="before">([^<]*)</td>'
        r'<td class="after">([^<]*)</td></tr>',
        page,
    )
    assert ("Odds: Red", "1 to 1", "2 to 1") in changes
    assert ("Status", "Draft", "Submitted") in changes
    assert ("Submitted by", "—", "manager_a") in changes
    assert not any(label == "Odds: Straight up" for label, _, _ in changes)


# --- The decision panel -----------------------------------------------------------------------


def test_an_officer_decides_in_one_form_with_one_reason_box(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    panel = _panel(text(login(officer).get(f"/compliance/layouts/{layout.pk}/")))

    assert panel.count('name="reason"') == 1
    # One form, posted to the record's own page; the button pressed names the decision.
    assert f'<form method="post" action="/compliance/layouts/{layout.pk}/"' in panel
    buttons = re.findall(
        r'<button type="submit" name="step" value="([^"]+)"[^>]*>([^<]+)</button>', panel
    )
    assert buttons == [
        ("approve", "Approve"),
        ("request-changes", "Request changes"),
        ("reject", "Reject"),
    ]
    # An approval's own fields ride in the same form.
    for name in ("reference_number", "effective_date", "expiry_date", "conditions"):
        assert f'name="{name}"' in panel
    assert re.search(r'value="reject"[^>]*data-confirm="', panel)
    assert not re.search(r'value="approve"[^>]*data-confirm="', panel)


def test_a_flagged_paytable_asks_for_the_override_in_the_panel(login, manager_a, officer, holder_a):
    generous = {**MINIMUM_ODDS, "red": 2}
    paytable = submitted_paytable(manager_a, holder_a, generous)

    panel = _panel(text(login(officer).get(f"/compliance/paytables/{paytable.pk}/")))

    assert 'name="override_reason"' in panel and panel.count('name="reason"') == 1


def test_the_author_sees_four_eyes_in_place_of_the_panel(login, superuser, holder_a):
    paytable = paytable_create(actor=superuser, holder=holder_a, name="Own", odds=MINIMUM_ODDS)
    paytable = paytable_submit(actor=superuser, paytable=paytable)

    page = text(login(superuser).get(f"/compliance/paytables/{paytable.pk}/"))

    assert "decision-panel" not in page
    assert 'value="approve"' not in page
    assert "You created and submitted this version" in page
    assert "four-eyes" in page
    assert msg.FOUR_EYES_OWN_WORK.format(kind="paytable")[1:] in page


def test_an_amender_of_a_version_sent_back_carries_its_authorship(
    login, manager_a, officer, officer2, superuser, holder_a
):
    paytable = paytable_create(actor=superuser, holder=holder_a, name="Carried", odds=MINIMUM_ODDS)
    paytable = paytable_submit(actor=superuser, paytable=paytable)
    paytable = paytable_request_changes(actor=officer, paytable=paytable, reason="Fix")
    draft = paytable_amend(actor=manager_a, paytable=paytable)
    paytable_submit(actor=manager_a, paytable=draft)

    page = text(login(superuser).get(f"/compliance/paytables/{draft.pk}/"))

    assert "decision-panel" not in page
    assert "wrote v1, never approved, whose content this version carries on" in page
    assert "decision-panel" in text(login(officer2).get(f"/compliance/paytables/{draft.pk}/"))


def test_an_auditor_sees_no_panel_but_why(login, auditor, manager_a, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    page = text(login(auditor).get(f"/compliance/layouts/{layout.pk}/"))

    assert "decision-panel" not in page
    assert 'value="approve"' not in page
    assert "Your role does not approve, reject or send back records" in page


def test_an_officer_is_told_a_draft_is_not_yet_to_be_decided(login, manager_a, officer, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    page = text(login(officer).get(f"/compliance/paytables/{paytable.pk}/"))

    assert "decision-panel" not in page
    assert "v1 is a draft: it is decided once it is submitted." in page


def test_approving_through_the_panel_still_works(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)
    client = login(officer)
    panel = {
        "reason": "Matches the artwork",
        "reference_number": "BGO-7",
        "effective_date": EFFECTIVE.isoformat(),
        "expiry_date": EXPIRY.isoformat(),
        "conditions": "",
    }

    response = client.post(f"/compliance/layouts/{layout.pk}/", {**panel, "step": "approve"})

    layout.refresh_from_db()
    assert response.status_code == 302
    assert (layout.status, layout.reference_number, layout.decision_reason) == (
        RecordStatus.APPROVED,
        "BGO-7",
        "Matches the artwork",
    )


def test_rejecting_through_the_panel_ignores_the_approval_fields(
    login, manager_a, officer, holder_a
):
    layout = submitted_layout(manager_a, holder_a)
    client = login(officer)
    panel = {"reason": "Signage too small", "reference_number": "BGO-8", "effective_date": ""}

    response = client.post(f"/compliance/layouts/{layout.pk}/", {**panel, "step": "reject"})

    layout.refresh_from_db()
    assert response.status_code == 302
    assert (layout.status, layout.decision_reason, layout.reference_number) == (
        RecordStatus.REJECTED,
        "Signage too small",
        "",
    )


def test_a_reject_without_reason_comes_back_in_the_panel(login, manager_a, officer, holder_a):
    layout = submitted_layout(manager_a, holder_a)

    response = login(officer).post(
        f"/compliance/layouts/{layout.pk}/",
        {"step": "reject", "reason": " ", "reference_number": "BGO-9"},
    )

    assert response.status_code == 400
    panel = _panel(text(response))
    assert panel.count('name="reason"') == 1
    assert msg.REASON_REQUIRED in field_errors(response, "id_reject_reason")
    assert 'value="BGO-9"' in panel  # what was typed for an approval is kept
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


# --- Confirmation before Reject and Withdraw -----------------------------------------------


def test_reject_and_withdraw_ask_for_confirmation_through_a_static_script(
    login, manager_a, officer, holder_a
):
    script = finders.find("compliance/confirm.js")
    approved = approved_paytable(manager_a, officer, holder_a)

    page = text(login(officer).get(f"/compliance/paytables/{approved.pk}/"))

    assert script is not None
    with open(script, encoding="utf-8") as file:
        source = file.read()
    assert "data-confirm" in source and "confirm(" in source
    assert re.search(r'<script src="/static/compliance/confirm\.js[^"]*" defer></script>', page)
    assert re.search(
        r'<button type="submit" class="danger" data-confirm="[^"]+" data-reason-required>Withdraw',
        page,
    )


@needs_chromium
@pytest.mark.django_db(transaction=True)
def test_in_a_browser_reject_posts_only_once_confirmed(
    page, live_server, manager_a, officer, holder_a
):
    paytable = submitted_paytable(manager_a, holder_a)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", "officer")
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"{live_server.url}/compliance/paytables/{paytable.pk}/")
    page.fill(".decision-panel textarea[name=reason]", "Odds typed wrong")
    asked: list[str] = []

    def answer(dialog, accept: bool) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.click(".decision-panel button:text('Reject')")
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.SUBMITTED

    page.once("dialog", lambda dialog: answer(dialog, True))
    with page.expect_navigation():
        page.click(".decision-panel button:text('Reject')")

    paytable.refresh_from_db()
    assert (paytable.status, paytable.decision_reason) == (
        RecordStatus.REJECTED,
        "Odds typed wrong",
    )
    assert len(asked) == 2 and asked[0].startswith("Reject this version?")
