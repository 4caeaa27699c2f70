"""Every list answers in a fixed number of queries, however many rows it shows.

A request signed in with the login cookie costs three queries before the view runs (the
session, the user, then the user's groups and holder together); then a count, the page, and
for rules submissions and offerings one prefetch of listed games.
"""

from __future__ import annotations

import itertools

import pytest

from portal.accounts.services import holder_create
from tests.portal.factories import (
    approved_layout,
    approved_paytable,
    approved_rules,
    make_layout,
    make_offering,
    make_paytable,
    make_rules,
)

pytestmark = pytest.mark.django_db

_names = itertools.count()


class World:
    """Makes ``n`` more rows of one list, all of holder A."""

    def __init__(self, manager, officer, holder) -> None:
        self.manager, self.officer, self.holder = manager, officer, holder
        self._approved = None

    def approved(self):
        if self._approved is None:
            layout = approved_layout(self.manager, self.officer, self.holder)
            paytable = approved_paytable(self.manager, self.officer, self.holder)
            rules = approved_rules(self.manager, self.officer, self.holder, paytable, layout)
            self._approved = rules, layout, paytable
        return self._approved

    def layouts(self, n: int) -> None:
        for _ in range(n):
            make_layout(self.manager, self.holder)

    def paytables(self, n: int) -> None:
        for _ in range(n):
            make_paytable(self.manager, self.holder, name=f"Paytable {next(_names)}")

    def rules_submissions(self, n: int) -> None:
        _, layout, paytable = self.approved()
        for _ in range(n):
            make_rules(self.manager, self.holder, paytable, layout)

    def offerings(self, n: int) -> None:
        rules, layout, paytable = self.approved()
        for _ in range(n):
            make_offering(
                self.manager, self.holder, rules, layout, paytable, name=f"Table {next(_names)}"
            )

    def holders(self, n: int) -> None:
        for _ in range(n):
            number = next(_names)
            holder_create(actor=None, name=f"Holder {number}", licence_number=f"PA-9{number}")


@pytest.fixture
def world(manager_a, officer, holder_a) -> World:
    return World(manager_a, officer, holder_a)


@pytest.mark.parametrize(
    ("path", "who", "query", "queries"),
    [
        # Session, user, roles and holder (Django's own sign-in, then one query for the
        # policy), then the page's own.
        ("/api/layouts/", "manager_a", {}, 5),
        ("/api/layouts/", "officer", {}, 5),
        ("/api/paytables/", "manager_a", {}, 5),
        ("/api/paytables/", "officer", {}, 5),
        ("/api/rules-submissions/", "manager_a", {"status": "draft"}, 6),
        ("/api/rules-submissions/", "officer", {"status": "draft"}, 6),
        ("/api/offerings/", "manager_a", {}, 6),
        ("/api/offerings/", "officer", {}, 6),
        ("/api/holders/", "officer", {}, 5),
    ],
)
def test_list_query_count_is_pinned_and_constant(
    api_as, request, world, django_assert_num_queries, path, who, query, queries
):
    seed = getattr(world, path.strip("/").split("/")[-1].replace("-", "_"))
    client = api_as(request.getfixturevalue(who))
    if path != "/api/holders/":  # holder A already exists
        seed(1)

    with django_assert_num_queries(queries):
        one = client.get(path, query)
    seed(5)
    with django_assert_num_queries(queries):
        six = client.get(path, query)

    assert (one.status_code, six.status_code) == (200, 200)
    assert (one.json()["count"], len(six.json()["results"])) == (1, 6)


def test_audit_event_list_query_count_is_pinned_and_constant(
    api_as, auditor, world, django_assert_num_queries
):
    client = api_as(auditor)
    filters = {"object_type": "holder"}  # holder A's creation only, so far

    with django_assert_num_queries(5):
        one = client.get("/api/audit-events/", filters)
    world.holders(5)
    with django_assert_num_queries(5):
        six = client.get("/api/audit-events/", filters)

    assert (one.json()["count"], len(six.json()["results"])) == (1, 6)


def test_lists_are_paginated(api_as, officer, world):
    world.paytables(3)
    client = api_as(officer)

    first = client.get("/api/paytables/", {"page": 1}).json()
    missing = client.get("/api/paytables/", {"page": 99})

    assert first["count"] == 3 and first["next"] is None
    assert missing.status_code == 404
