"""Every list: search, filters (holder, status, dates), sortable columns, pagination kept
apart from the sort, a CSV of everything the filters select, and a 400 for what it cannot
read (issue 15)."""

from __future__ import annotations

import csv
import datetime
import io
import re
from types import SimpleNamespace

import pytest
import time_machine
from django.db.models import F

from portal.access.roles import Role
from portal.compliance.filtersets import LayoutFilter
from portal.compliance.models import Layout
from portal.compliance.services.layouts import layout_submit
from portal.reports.services.runs import report_run_request
from tests.portal.factories import (
    approved_layout,
    approved_offering,
    events_written,
    make_layout,
    make_paytable,
    make_user,
)
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db


def _titles(page: str) -> list[str]:
    body = page[page.index("<tbody>") : page.index("</tbody>")]
    return re.findall(r'<td data-label="Title"><a href="[^"]+">([^<]+)</a></td>', body)


def _csv(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="')
    content = b"".join(response.streaming_content).decode()
    return list(csv.DictReader(io.StringIO(content)))


@pytest.fixture
def layouts(manager_a, manager_b, officer, holder_a, holder_b):
    """Four layouts at two holders: two drafts, one submitted, one approved."""
    made = {
        "Keystone main floor": make_layout(manager_a, holder_a, title="Keystone main floor"),
        "Keystone high limit": make_layout(manager_a, holder_a, title="Keystone high limit"),
        "Susquehanna pit": make_layout(manager_b, holder_b, title="Susquehanna pit"),
    }
    layout_submit(actor=manager_a, layout=made["Keystone high limit"])
    made["Approved arcade"] = approved_layout(manager_a, officer, holder_a, title="Approved arcade")
    return made


# --- search and filters ------------------------------------------------------------------


def test_it_searches_records_by_every_word_of_the_title_in_any_case(login, officer, layouts):
    page = text(login(officer).get("/compliance/layouts/?q=KEYSTONE floor"))

    assert _titles(page) == ["Keystone main floor"]


def test_it_searches_by_holder_name_too(login, officer, layouts, holder_b):
    page = text(login(officer).get(f"/compliance/layouts/?q={holder_b.name.split()[0]}"))

    assert _titles(page) == ["Susquehanna pit"]


def test_it_filters_by_status_and_holder_together(login, officer, layouts, holder_a):
    client = login(officer)

    page = text(client.get(f"/compliance/layouts/?status=draft&holder={holder_a.pk}"))

    assert _titles(page) == ["Keystone main floor"]


def test_a_manager_has_no_holder_filter_and_sees_only_their_own(
    login, manager_a, layouts, holder_b
):
    page = text(login(manager_a).get(f"/compliance/layouts/?holder={holder_b.pk}"))

    assert 'name="holder"' not in page
    assert "Susquehanna pit" not in page
    assert sorted(_titles(page)) == [
        "Approved arcade",
        "Keystone high limit",
        "Keystone main floor",
    ]


def test_it_filters_by_the_pennsylvania_date_of_the_last_change(
    login, manager_a, officer, holder_a
):
    # 03:30 UTC on 2026-03-02 is 22:30 on 2026-03-01 in Pennsylvania.
    with time_machine.travel(datetime.datetime(2026, 3, 2, 3, 30, tzinfo=datetime.UTC)):
        make_layout(manager_a, holder_a, title="Late on the first")
    with time_machine.travel(datetime.datetime(2026, 3, 2, 15, 0, tzinfo=datetime.UTC)):
        make_layout(manager_a, holder_a, title="On the second")
    client = login(officer)

    first = text(client.get("/compliance/layouts/?since=2026-03-01&until=2026-03-01"))
    second = text(client.get("/compliance/layouts/?since=2026-03-02"))

    assert _titles(first) == ["Late on the first"]
    assert _titles(second) == ["On the second"]


@pytest.mark.parametrize(
    ("query", "error"),
    [
        ("status=lost", "Select a valid choice"),
        ("holder=99999", "Select a valid choice"),
        ("since=2026-13-01", "Enter a valid date"),
        ("since=2026-03-05&until=2026-03-01", "The period ends before it starts."),
        ("sort=password", "Select a valid choice"),
    ],
)
def test_a_filter_it_cannot_read_is_a_400_with_the_error_and_no_rows(
    login, officer, layouts, query, error
):
    before = events_written()

    response = login(officer).get(f"/compliance/layouts/?{query}")

    page = text(response)
    assert response.status_code == 400
    assert error in page
    assert _titles(page) == []
    assert events_written() == before


def test_a_bad_filter_with_export_is_the_page_with_its_400_not_a_csv(login, officer, layouts):
    response = login(officer).get("/compliance/layouts/?status=lost&export=csv")

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")


# --- sorting ----------------------------------------------------------------------------


def test_it_sorts_by_a_column_both_ways(login, officer, layouts):
    client = login(officer)

    ascending = _titles(text(client.get("/compliance/layouts/?sort=title")))
    descending = _titles(text(client.get("/compliance/layouts/?sort=-title")))

    assert ascending == sorted(ascending) and len(ascending) == 4
    assert descending == ascending[::-1]


def test_a_header_says_how_the_list_is_sorted_and_links_to_the_reverse(login, officer, layouts):
    page = text(login(officer).get("/compliance/layouts/?status=draft&sort=title&page=1"))

    header = re.search(
        r'<th scope="col" aria-sort="ascending"><a class="sort" href="([^"]+)">Title', page
    )
    assert header, "the title header should say it sorts ascending"
    link = header.group(1).replace("&amp;", "&")
    assert "sort=-title" in link and "status=draft" in link and "page=" not in link
    # The other headers sort ascending on a first click; "Updated" newest first.
    assert 'href="?status=draft&amp;sort=holder"' in page
    assert 'href="?status=draft&amp;sort=-updated"' in page
    assert page.count("aria-sort=") == 1


def test_the_sort_is_kept_when_filtering(login, officer, layouts):
    page = text(login(officer).get("/compliance/layouts/?sort=-version"))

    assert '<input type="hidden" name="sort" value="-version"' in page


def test_pages_never_repeat_a_row_when_many_share_the_sort_key(login, officer, manager_a, holder_a):
    for number in range(30):
        make_layout(manager_a, holder_a, title=f"Same {number:02d}")
    client = login(officer)

    first = _titles(text(client.get("/compliance/layouts/?sort=status")))
    second = _titles(text(client.get("/compliance/layouts/?sort=status&page=2")))

    assert len(first) == 25 and len(second) == 5
    assert not set(first) & set(second)


# --- CSV export ---------------------------------------------------------------------------


def test_it_exports_every_row_the_filters_select_in_the_lists_order(
    login, officer, manager_a, holder_a, layouts
):
    for number in range(30):
        make_layout(manager_a, holder_a, title=f"Draft {number:02d}")
    client = login(officer)

    rows = _csv(client.get("/compliance/layouts/?status=draft&sort=title&export=csv"))

    titles = [row["Title"] for row in rows]
    assert len(titles) == 32  # all of them (two drafts of the fixture), not a page
    assert titles == sorted(titles)
    first = rows[0]
    layout = Layout.objects.get(pk=first["ID"])
    assert first["Holder"] == layout.holder.name
    assert first["Status"] == "draft" and first["Version"] == "1"
    assert first["Updated at (UTC)"] == layout.updated_at.isoformat()


def test_a_managers_export_holds_only_their_holders_records(login, manager_a, layouts):
    rows = _csv(login(manager_a).get("/compliance/layouts/?export=csv"))

    assert sorted(row["Title"] for row in rows) == [
        "Approved arcade",
        "Keystone high limit",
        "Keystone main floor",
    ]


def test_an_export_makes_a_title_that_looks_like_a_formula_harmless(
    login, officer, manager_a, holder_a
):
    make_layout(manager_a, holder_a, title="=HYPERLINK(1)")

    rows = _csv(login(officer).get("/compliance/layouts/?export=csv"))

    assert [row["Title"] for row in rows] == ["'=HYPERLINK(1)"]


def test_the_list_page_links_its_export_with_its_filters(login, officer, layouts):
    page = text(login(officer).get("/compliance/paytables/?status=approved&sort=-updated&page=1"))

    link = re.search(r'<a class="button secondary" href="([^"]+)" download>Export CSV</a>', page)
    assert link
    href = link.group(1).replace("&amp;", "&")
    assert "status=approved" in href and "sort=-updated" in href and "export=csv" in href
    assert "page=" not in href


def test_the_offerings_export_says_whether_each_table_is_live(
    login, officer, live_offering, manager_a, holder_a
):
    rows = _csv(login(officer).get("/compliance/offerings/?export=csv"))

    assert [(row["Name"], row["Live"]) for row in rows] == [(live_offering.name, "yes")]
    assert rows[0]["Paytable"] == str(live_offering.paytable)


def test_offerings_are_searched_and_sorted(login, officer, live_offering):
    client = login(officer)

    found = text(client.get(f"/compliance/offerings/?q={live_offering.name}&sort=-name"))
    missed = text(client.get("/compliance/offerings/?q=nothing-like-it"))

    assert live_offering.name in found
    assert "No offerings match." in missed


# --- My submissions -------------------------------------------------------------------------


def test_my_submissions_are_searched_filtered_by_kind_and_sorted(login, manager_a, holder_a):
    make_layout(manager_a, holder_a, title="Zeta floor")
    make_layout(manager_a, holder_a, title="Alpha floor")
    make_paytable(manager_a, holder_a, name="Alpha odds")
    client = login(manager_a)

    alpha = text(client.get("/compliance/mine/?q=alpha&sort=title"))
    layouts_only = text(client.get("/compliance/mine/?kind=layout&sort=-title"))

    assert _titles(alpha) == ["Alpha floor", "Alpha odds"]
    assert _titles(layouts_only) == ["Zeta floor", "Alpha floor"]


def test_my_submissions_export_and_refuse_what_they_cannot_read(login, manager_a, holder_a):
    make_layout(manager_a, holder_a, title="Alpha floor")
    client = login(manager_a)

    rows = _csv(client.get("/compliance/mine/?export=csv"))
    bad = client.get("/compliance/mine/?kind=table")

    assert [(row["Kind"], row["Title"], row["Status"]) for row in rows] == [
        ("layout", "Alpha floor", "draft")
    ]
    assert bad.status_code == 400 and "Select a valid choice" in text(bad)


def test_nobody_else_appears_in_my_submissions_export(login, manager_a, holder_a):
    colleague = make_user("colleague_a", Role.MANAGER, holder_a)
    make_layout(colleague, holder_a, title="Not mine")

    rows = _csv(login(manager_a).get("/compliance/mine/?export=csv"))

    assert rows == []


# --- The audit trail, the availability log and the report runs --------------------------


def test_the_audit_trail_is_searched_and_sorted(login, auditor, layouts):
    client = login(auditor)

    found = text(client.get("/audit/?q=layout.submit"))
    by_actor = text(client.get("/audit/?sort=actor"))

    actions = set(re.findall(r'<td data-label="What happened">([^<]+)</td>', found))
    assert actions == {"Submitted for review"}
    actors = re.findall(r'<td data-label="Who">([^<]+)</td>', by_actor)
    assert actors == sorted(actors) and len(set(actors)) > 1


def test_the_audit_trails_unknown_sort_is_a_400_on_the_page_and_the_api(login, auditor, layouts):
    client = login(auditor)

    page = client.get("/audit/?sort=hash")
    api = client.get("/api/audit-events/?sort=hash")

    assert page.status_code == 400 and "Select a valid choice" in text(page)
    assert api.status_code == 400


def test_the_availability_log_sorts_by_table(login, officer, live_offering, manager_a, holder_a):
    approved_offering(manager_a, officer, holder_a, name="A first table")
    page = text(login(officer).get("/compliance/availability/?sort=table&opened=true"))

    tables = re.findall(r'<td data-label="Table"><a href="[^"]+">([^<]+)</a>', page)
    assert tables == sorted(tables) and "A first table" in tables


@pytest.fixture
def runs(auditor, holder_a, holder_b):
    def run(**parameters):
        return report_run_request(actor=auditor, kind="expiry", parameters=parameters, via="page")[
            0
        ]

    return {"a": run(holder=holder_a.pk), "b": run(holder=holder_b.pk), "all": run()}


def test_report_runs_are_filtered_by_holder_and_exported(login, auditor, runs, holder_a):
    client = login(auditor)

    page = text(client.get(f"/reports/?holder={holder_a.pk}&kind=expiry"))
    rows = _csv(client.get("/reports/?sort=run&export=csv"))

    listed = re.findall(r'<td data-label="Run"><a href="/reports/(\d+)/">', page)
    assert listed == [str(runs["a"].pk)]
    assert [int(row["Run ID"]) for row in rows] == sorted(run.pk for run in runs.values())
    first = rows[0]
    assert first["Report"] == "expiry" and first["Holder"] == holder_a.name
    assert first["Asked by"] == auditor.username and first["Asked via"] == "page"


def test_a_managers_report_runs_are_their_holders_only(login, manager_a, runs):
    client = login(manager_a)

    page = text(client.get("/reports/"))
    rows = _csv(client.get("/reports/?export=csv"))
    bad = client.get("/reports/?status=lost")

    assert 'name="holder"' not in page.split('aria-label="Filter the runs"')[1]
    assert [int(row["Run ID"]) for row in rows] == [runs["a"].pk]
    assert bad.status_code == 400


def test_a_sort_breaks_ties_by_id_in_its_direction_and_puts_blanks_last(officer, layouts):
    def sorted_by(sort: str):
        listing = LayoutFilter(
            {"sort": sort},
            queryset=Layout.objects.all(),
            request=SimpleNamespace(user=officer),
            page=True,
        )
        assert listing.is_valid()
        return listing.qs

    ascending, descending = sorted_by("effective"), sorted_by("-effective")

    assert [str(term) for term in ascending.query.order_by] == [
        str(F("effective_date").asc(nulls_last=True)),
        "pk",
    ]
    assert ascending.query.order_by[-1] == "pk" and descending.query.order_by[-1] == "-pk"
    # One approved layout has dates; the three drafts and submissions have none: last both ways.
    assert [layout.effective_date is None for layout in ascending] == [False, True, True, True]
    assert [layout.effective_date is None for layout in descending] == [False, True, True, True]


def test_a_sort_it_could_not_read_is_not_carried_into_the_next_filter(login, officer, layouts):
    page = text(login(officer).get("/compliance/layouts/?sort=password"))

    assert "Sort: Select a valid choice" in page
    assert 'name="sort"' not in page.split('aria-label="Filters"')[1].split("</form>")[0]


def test_the_availability_log_refuses_a_date_it_cannot_read_on_the_page_and_the_api(
    login, officer, live_offering
):
    client = login(officer)
    before = events_written()

    far = client.get("/compliance/availability/?until=9999-12-31")
    reversed_period = client.get("/compliance/availability/?since=2026-03-05&until=2026-03-01")
    export = client.get("/compliance/availability/export.csv?until=9999-12-31")
    api = client.get("/api/availability/?until=9999-12-31")

    assert far.status_code == 400 and "between the years 1900 and 9998" in text(far)
    assert reversed_period.status_code == 400
    assert "The period ends before it starts." in text(reversed_period)
    assert export.status_code == 400 and api.status_code == 400
    assert events_written() == before
