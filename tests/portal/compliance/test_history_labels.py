"""A record's History tab reads like a record (§ 811a.7): each event by its label, its
people by name, the values it changed labelled, before and after, as people read them."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_submit,
    paytable_update,
)
from tests.portal.factories import MINIMUM_ODDS, acknowledged, make_paytable
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db


def _name(user, first: str, last: str) -> None:
    get_user_model().objects.filter(pk=user.pk).update(first_name=first, last_name=last)


def _history(page: str) -> str:
    start = page.index('<h2 id="history-heading">')
    return page[start : page.index("</section>", start)]


def _rows(history: str) -> list[tuple[str, str]]:
    """Each event's who and what, in order."""
    return re.findall(r"<td>\d{4}-[^<]+</td>\s*<td>([^<]+)</td>\s*<td>([^<]+)</td>", history)


def _changes(history: str) -> list[tuple[str, str, str]]:
    return re.findall(
        r'<tr><th scope="row">([^<]+)</th><td class="before">([^<]*)</td>'
        r'<td class="after">([^<]*)</td></tr>',
        history,
    )


def test_811a7_the_history_names_each_event_and_who_took_it(login, manager_a, officer, holder_a):
    _name(manager_a, "Dana", "Reyes")
    _name(officer, "Sam", "Ortiz")
    paytable = make_paytable(manager_a, holder_a, name="House table")
    paytable_update(actor=manager_a, paytable=paytable, odds={**MINIMUM_ODDS, "red": 2})
    submitted = paytable_submit(actor=manager_a, paytable=paytable)
    # Red at 2 to 1 gives the house no edge: approving it takes a reason (§ 617b.8(f)).
    paytable = paytable_approve(
        actor=officer,
        paytable=submitted,
        override_reason="Promotion",
        edge_acknowledged=acknowledged(submitted),
    )

    history = _history(
        text(login(manager_a).get(f"/compliance/paytables/{paytable.pk}/?tab=history"))
    )

    assert _rows(history) == [
        ("Dana Reyes", "Created"),
        ("Dana Reyes", "Edited"),
        ("Dana Reyes", "Submitted for review"),
        ("Sam Ortiz", "Approved"),
    ]
    changes = _changes(history)
    assert ("Odds: Red", "1 to 1", "2 to 1") in changes
    assert ("Status", "Draft", "Submitted") in changes
    assert ("Submitted by", "—", "Dana Reyes") in changes
    assert ("Decided by", "—", "Sam Ortiz") in changes
    assert not any(label == "Odds: Straight up" for label, _, _ in changes)  # unchanged
    for raw in ("paytable.", "_id", "null", "None", "<code>"):
        assert raw not in history, raw


def test_811a7_an_amendment_starts_its_history_by_saying_so(login, manager_a, officer, holder_a):
    paytable = paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a))
    paytable = paytable_approve(actor=officer, paytable=paytable)
    draft = paytable_amend(actor=manager_a, paytable=paytable)

    history = _history(text(login(manager_a).get(f"/compliance/paytables/{draft.pk}/?tab=history")))

    assert [what for _, what in _rows(history)] == ["Amendment started"]
    assert "paytable.amend" not in history


def test_811a7_an_auditor_opens_each_event_of_the_history(login, auditor, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    auditor_sees = text(login(auditor).get(f"/compliance/paytables/{paytable.pk}/?tab=history"))
    manager_sees = text(login(manager_a).get(f"/compliance/paytables/{paytable.pk}/?tab=history"))

    assert re.search(
        r'<a href="/audit/events/\d+/"><span class="visually-hidden">Audit event', auditor_sees
    )
    assert 'href="/audit/events/' not in manager_sees  # the trail is not theirs to read
