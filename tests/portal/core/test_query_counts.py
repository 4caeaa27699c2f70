"""Every list page runs the same number of queries whatever the number of rows.

Counts include what every signed-in request costs: Django's session and user (two queries),
then one for the user's groups and the holder they act for.
"""

import datetime

import pytest
from django.utils import timezone

from portal.accounts.services import holder_create
from tests.portal.factories import make_layout, make_offering, make_paytable, make_rules
from tests.portal.page_helpers import approve_layout, submitted_layout

pytestmark = pytest.mark.django_db

ROWS = [1, 6]


def _fill_layouts(manager, officer, holder, rows):
    for number in range(rows):
        make_layout(manager, holder, title=f"Layout {number}")


def _fill_paytables(manager, officer, holder, rows):
    for number in range(rows):
        make_paytable(manager, holder, name=f"Paytable {number}")


def _fill_rules(manager, officer, holder, rows):
    paytable, layout = make_paytable(manager, holder), make_layout(manager, holder)
    for number in range(rows):
        make_rules(manager, holder, paytable, layout, title=f"Rules {number}")


def _fill_offerings(manager, officer, holder, rows):
    paytable, layout = make_paytable(manager, holder), make_layout(manager, holder)
    rules = make_rules(manager, holder, paytable, layout)
    for number in range(rows):
        make_offering(manager, holder, rules, layout, paytable, name=f"Table {number}")


def _fill_dashboard(manager, officer, holder, rows):
    soon = timezone.now().date() + datetime.timedelta(days=5)
    for number in range(rows):
        make_paytable(manager, holder, name=f"Draft {number}")
        submitted_layout(manager, holder, title=f"Submitted {number}")
        approve_layout(officer, submitted_layout(manager, holder), expiry_date=soon)


@pytest.mark.parametrize("rows", ROWS)
@pytest.mark.parametrize(
    ("url", "fill", "officer_queries", "manager_queries"),
    [
        # Roles and holder come in one query: a manager's holder costs nothing more. An
        # officer's lists filter by holder, whose choices are one query more.
        ("/compliance/layouts/", _fill_layouts, 7, 6),
        ("/compliance/paytables/", _fill_paytables, 7, 6),
        ("/compliance/rules/", _fill_rules, 7, 6),
        ("/compliance/offerings/", _fill_offerings, 8, 7),
        # The dashboard: one more for the tables the expiring approvals' expiry takes dark
        # (and one for those tables' listings, when there are tables); and two for the
        # holders' terms and conditions, a fourth kind of record (its count and its list);
        # and for an officer, the voids and adjustments and the complaints waiting for them.
        ("/compliance/", _fill_dashboard, 15, 13),
    ],
)
def test_list_pages_run_a_constant_number_of_queries(
    login,
    django_assert_num_queries,
    manager_a,
    officer,
    holder_a,
    url,
    fill,
    officer_queries,
    manager_queries,
    rows,
):
    fill(manager_a, officer, holder_a, rows)

    for user, expected in ((officer, officer_queries), (manager_a, manager_queries)):
        client = login(user)
        with django_assert_num_queries(expected):
            response = client.get(url)
        assert response.status_code == 200


@pytest.mark.parametrize("rows", ROWS)
def test_the_audit_trail_runs_a_constant_number_of_queries(
    login, django_assert_num_queries, auditor, rows
):
    for number in range(rows * 5):
        holder_create(actor=None, name=f"Holder {number}", licence_number=f"L-{number}")
    client = login(auditor)

    with django_assert_num_queries(6):
        response = client.get("/audit/?action=holder.")

    assert response.status_code == 200
