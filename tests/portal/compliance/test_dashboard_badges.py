"""The dashboard's counts, § 601a.10 review-due badges and the 30-day expiry window."""

import datetime
import re

import pytest
import time_machine

from portal.compliance.services.layouts import layout_request_changes
from portal.compliance.services.paytables import paytable_submit
from portal.core.padates import PA
from tests.portal.factories import EFFECTIVE, make_layout, make_paytable, make_rules
from tests.portal.page_helpers import approve_layout, submitted_layout, text

pytestmark = pytest.mark.django_db

# "Today" for every test here: noon in Pennsylvania (EDT) on 2026-03-10.
NOON = datetime.datetime(2026, 3, 10, 12, 0, tzinfo=PA)
TODAY = NOON.date()


@pytest.fixture(autouse=True)
def today(db):
    with time_machine.travel(NOON, tick=False):
        yield TODAY


def _section(page: str, heading: str) -> str:
    start = page.index(f">{heading}</h2>")
    return page[start : page.index("</section>", start)]


def _item(section: str, title: str) -> str:
    """The list item of the record titled ``title``."""
    start = section.index(title)
    return section[section.rindex("<li>", 0, start) : section.index("</li>", start)]


def _badge(item: str) -> str | None:
    match = re.search(r'<span class="badge [a-z-]+">([^<]*)</span>', item)
    return match.group(1) if match else None


def _counts(page: str) -> dict[str, list[int]]:
    table = _section(page, "Records by status")
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th>((?:<td[^>]*>.*?</td>)+)</tr>', table)
    # Each count is a link to the list it counts.
    number = r'<td[^>]*><a href="[^"]+">(\d+)<span class="visually-hidden">[^<]*</span></a></td>'
    return {label: [int(n) for n in re.findall(number, cells)] for label, cells in rows}


def _submitted_days_ago(manager, holder, days, title, at=NOON):
    with time_machine.travel(at - datetime.timedelta(days=days), tick=False):
        return submitted_layout(manager, holder, title=title)


def _approved_expiring_in(officer, manager, holder, days, title):
    return approve_layout(
        officer,
        submitted_layout(manager, holder, title=title),
        effective_date=EFFECTIVE,
        expiry_date=TODAY + datetime.timedelta(days=days),
    )


def _awaiting_badge(login, officer, title):
    page = text(login(officer).get("/compliance/"))
    return _item(_section(page, "Awaiting your review"), title)


def test_601a10_a_review_is_due_in_12_days_3_days_after_submission(
    login, officer, manager_a, holder_a
):
    _submitted_days_ago(manager_a, holder_a, 3, "Three days in")

    item = _awaiting_badge(login, officer, "Three days in")

    assert _badge(item) == "due in 12 days"
    assert "review due 2026-03-22" in item


def test_601a10_a_review_is_due_today_15_days_after_submission(login, officer, manager_a, holder_a):
    _submitted_days_ago(manager_a, holder_a, 15, "Fifteen days in")

    assert _badge(_awaiting_badge(login, officer, "Fifteen days in")) == "due today"


def test_601a10_a_review_overdue_after_15_days_is_flagged(login, officer, manager_a, holder_a):
    _submitted_days_ago(manager_a, holder_a, 20, "Twenty days in")

    item = _awaiting_badge(login, officer, "Twenty days in")

    assert _badge(item) == "overdue by 5 days"
    assert 'class="badge overdue"' in item


@pytest.mark.clause("601a.10", kind="related")
def test_601a10_one_day_left_and_one_day_over_read_in_the_singular(
    login, officer, manager_a, holder_a
):
    _submitted_days_ago(manager_a, holder_a, 14, "One day left")
    _submitted_days_ago(manager_a, holder_a, 16, "One day over")

    section = _section(text(login(officer).get("/compliance/")), "Awaiting your review")

    assert _badge(_item(section, "One day left")) == "due in 1 day"
    assert _badge(_item(section, "One day over")) == "overdue by 1 day"


def test_601a10_the_review_counts_from_the_pennsylvania_date_of_submission(
    login, officer, manager_a, holder_a
):
    """Submitted at 23:30 in Pennsylvania on 2026-02-23, already 2026-02-24 in UTC: the
    15 days run from 02-23, so the review is due today (03-10), not tomorrow."""
    late = datetime.datetime(2026, 2, 23, 23, 30, tzinfo=PA)
    _submitted_days_ago(manager_a, holder_a, 0, "Late evening", at=late)

    assert _badge(_awaiting_badge(login, officer, "Late evening")) == "due today"


@pytest.fixture
def mixed(manager_a, manager_b, officer, holder_a, holder_b):
    """Holder A: two submitted layouts, one sent back, one approved, one draft paytable and a
    draft rules submission. Holder B: one submitted paytable, one approved layout."""
    submitted_layout(manager_a, holder_a, title="A submitted 1")
    submitted_layout(manager_a, holder_a, title="A submitted 2")
    layout_request_changes(
        actor=officer,
        layout=submitted_layout(manager_a, holder_a, title="A sent back"),
        reason="Signage text missing",
    )
    _approved_expiring_in(officer, manager_a, holder_a, 10, "A approved")
    paytable = make_paytable(manager_a, holder_a, name="A draft paytable")
    make_rules(manager_a, holder_a, paytable, make_layout(manager_a, holder_a, title="A draft"))
    paytable_submit(actor=manager_b, paytable=make_paytable(manager_b, holder_b))
    _approved_expiring_in(officer, manager_b, holder_b, 10, "B approved")


def test_an_officer_sees_counts_by_kind_and_status_for_every_holder(login, officer, mixed):
    counts = _counts(text(login(officer).get("/compliance/")))

    # Awaiting decision, changes requested, drafts, approved.
    assert counts == {
        "Layouts": [2, 1, 1, 2],
        "Paytables": [1, 0, 1, 0],
        "Rules submissions": [0, 0, 1, 0],
        "Terms and conditions": [0, 0, 0, 0],
    }


def test_a_manager_sees_only_their_holders_counts_and_records(login, manager_a, mixed):
    page = text(login(manager_a).get("/compliance/"))

    assert _counts(page) == {
        "Layouts": [2, 1, 1, 1],
        "Paytables": [0, 0, 1, 0],
        "Rules submissions": [0, 0, 1, 0],
        "Terms and conditions": [0, 0, 0, 0],
    }
    expiring = _section(page, "Expiring within 30 days")
    assert "A approved" in expiring and "B approved" not in page
    assert ">Awaiting your review</h2>" not in page


def test_the_30_day_window_marks_what_came_in_within_the_last_7_days(
    login, officer, manager_a, holder_a
):
    for days in (1, 22, 23, 29, 30, 31):
        _approved_expiring_in(officer, manager_a, holder_a, days, f"Expires in {days:02} days")
    # Approved yesterday to expire today: still approved, but no longer in the window.
    with time_machine.travel(NOON - datetime.timedelta(days=1), tick=False):
        _approved_expiring_in(officer, manager_a, holder_a, 0, "Expires in 00 days")

    expiring = _section(text(login(officer).get("/compliance/")), "Expiring within 30 days")

    # Expiring today or after 30 days: outside the window.
    assert "Expires in 00 days" not in expiring and "Expires in 31 days" not in expiring
    badges = {
        days: _badge(_item(expiring, f"Expires in {days:02} days")) for days in (1, 22, 23, 29, 30)
    }
    assert badges == {
        1: None,
        22: None,  # came in 8 days ago
        23: "new 7 days ago",
        29: "new 1 day ago",
        30: "new today",
    }


@pytest.mark.parametrize("rows", [1, 5])
def test_the_dashboard_runs_a_fixed_number_of_queries_whatever_the_number_of_records(
    login, django_assert_num_queries, officer, manager_a, holder_a, rows
):
    """Four for every signed-in request (session, user, roles with holder, the header's
    unread-notification count), four for the counts and four for the lists (one per kind
    each: layouts, paytables, rules submissions, terms and conditions), one for the
    tables the expiring approvals' expiry would take dark; and for an officer, who decides
    voids and adjustments of rounds and handles complaints, one counting each of those
    waiting for them."""
    for number in range(rows):
        make_paytable(manager_a, holder_a, name=f"Draft {number}")
        _submitted_days_ago(manager_a, holder_a, number * 4, f"Submitted {number}")
        _approved_expiring_in(officer, manager_a, holder_a, 20 + number, f"Expiring {number}")
        paytable = make_paytable(manager_a, holder_a, name=f"Rules paytable {number}")
        make_rules(manager_a, holder_a, paytable, make_layout(manager_a, holder_a))

    for user, queries in ((officer, 15), (manager_a, 13)):
        client = login(user)
        with django_assert_num_queries(queries):
            response = client.get("/compliance/")
        assert response.status_code == 200
