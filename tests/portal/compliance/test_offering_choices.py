"""The offering form says why a layout or paytable is not a choice (§ 601a.2, § 617b.8(a)): an
approved version no approved rules submission lists yet, with the way forward; and, when a
choice has nothing to offer, why."""

from __future__ import annotations

import html
import re

import pytest

from portal.compliance.services.paytables import paytable_approve, paytable_submit
from portal.compliance.services.rules import rules_submission_amend
from tests.portal.compliance.test_path_forward import paytable_v2
from tests.portal.factories import approved_offering, make_paytable

pytestmark = pytest.mark.django_db

NEW = "/compliance/offerings/new/"
V2_NOT_LISTED = (
    "Paytable 'Standard' v2 is approved but no approved rules submission lists it yet: "
    "amend the rules submission to use it."
)


def _said(response) -> list[str]:
    """The form's notes on missing choices, as plain text."""
    assert response.status_code == 200
    pattern = r'<(p|div) class="why-missing alert" role="note">(.*?)</\1>'
    notes = [note for _, note in re.findall(pattern, _page(response), re.S)]
    return [" ".join(re.sub(r"<[^>]+>", " ", note).split()) for note in notes]


def _page(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def table(manager_a, officer, holder_a):
    return approved_offering(manager_a, officer, holder_a)


def test_617b8_a_an_approved_paytable_no_rules_submission_lists_is_explained(
    login, table, manager_a, officer
):
    v2 = paytable_v2(manager_a, officer, table.paytable)

    response = login(manager_a).get(NEW)

    assert any(note.startswith(V2_NOT_LISTED) for note in _said(response))
    page = _page(response)
    button = re.search(r'<button[^>]*formaction="([^"]+)"[^>]*>([^<]+)</button>', page)
    assert button, "no button to amend the rules submission"
    assert button.group(1) == (
        f"/compliance/rules/{table.rules_submission_id}/use/paytable/{v2.pk}/"
    )
    assert (
        button.group(2)
        == "Amend rules submission 'Jinzi Roulette rules' v1 (it runs Table 1) to use v2"
    )


def test_the_note_follows_the_chosen_rules_submission(login, table, manager_a, officer):
    paytable_v2(manager_a, officer, table.paytable)
    client = login(manager_a)

    listed = client.get(
        "/compliance/offerings/listed/", {"rules_submission": table.rules_submission_id}
    )

    said = _said(listed)
    assert any(note.startswith(V2_NOT_LISTED) for note in said)
    # v1, replaced by v2, can no longer be chosen: the paytable select is empty, and says why.
    select = re.search(r'<select name="paytable".*?</select>', _page(listed), re.S).group(0)
    assert '<option value=""' in select and select.count("<option") == 1
    assert (
        "Rules submission 'Jinzi Roulette rules' v1 lists no paytable that can still be chosen "
        "(a version replaced, rejected or withdrawn cannot), so there is nothing to choose here."
    ) in said


def test_a_paytable_never_listed_says_a_rules_submission_must_list_it(
    login, table, manager_a, officer, holder_a
):
    other = make_paytable(manager_a, holder_a, name="Promo")
    paytable_approve(actor=officer, paytable=paytable_submit(actor=manager_a, paytable=other))

    said = _said(login(manager_a).get(NEW))

    assert (
        "Paytable 'Promo' v1 is approved but no approved rules submission lists it yet: "
        "list it in a rules submission and have that approved. New rules submission"
    ) in said


def test_an_open_amendment_is_where_the_change_is_made(login, table, manager_a, officer):
    paytable_v2(manager_a, officer, table.paytable)
    draft = rules_submission_amend(actor=manager_a, submission=table.rules_submission)

    response = login(manager_a).get(NEW)

    assert any(
        "Rules submission 'Jinzi Roulette rules' already has v2 (draft): edit that version to "
        "list paytable 'Standard' v2" in note
        for note in _said(response)
    )
    assert f'href="/compliance/rules/{draft.pk}/"' in _page(response)
    assert "formaction" not in _page(response)


def test_617b8_a_with_nothing_approved_each_choice_says_why(login, manager_b):
    said = _said(login(manager_b).get(NEW))

    assert said[0].startswith("No rules submission listing Jinzi Roulette is approved yet")
    assert "No layout is approved yet: a table runs on an approved one (§ 601a.2)." in said
    assert "No paytable is approved yet: a table runs on an approved one (§ 601a.2)." in said


def test_nothing_is_said_when_every_approved_version_is_listed(login, table, manager_a):
    response = login(manager_a).get(NEW)

    assert _said(response) == []
    assert "why-missing" not in _page(response)


def test_another_holders_versions_are_not_mentioned(login, table, manager_a, manager_b, officer):
    paytable_v2(manager_a, officer, table.paytable)

    page = _page(login(manager_b).get(NEW))

    assert "Standard' v2" not in page and "/use/paytable/" not in page


def test_the_edit_form_explains_too(login, table, manager_a, officer):
    paytable_v2(manager_a, officer, table.paytable)

    response = login(manager_a).get(f"/compliance/offerings/{table.pk}/edit/")

    assert any(note.startswith(V2_NOT_LISTED) for note in _said(response))
