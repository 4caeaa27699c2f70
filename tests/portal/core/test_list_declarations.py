"""Each list is declared once (issue 22): one filter set serves its page and its API, each
reading its own parameters; the page's headers, the sorts and the CSV come from one
declaration of its columns; one form reads a report's parameters for the page and the API."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.test import RequestFactory

from portal.audit.filtersets import AuditEventFilter
from portal.compliance.filtersets import (
    AvailabilityFilter,
    LayoutFilter,
    OfferingFilter,
    PaytableFilter,
    record_columns,
)
from portal.compliance.models import AvailabilityChange, Layout, Offering
from portal.core.errors import ValidationFailed
from portal.game.models import Round
from portal.game.play.filtersets import MY_GAMES_COLUMNS, STAFF_ROUND_COLUMNS, RoundFilter
from portal.reports.forms import ReportForm

pytestmark = pytest.mark.django_db

PERIOD = ["since", "until"]


@pytest.mark.parametrize(
    ("filterset", "model", "api", "page"),
    [
        (
            LayoutFilter,
            Layout,
            ["status", "holder", "series", "version"],
            ["holder", "q", "status", *PERIOD, "sort"],
        ),
        (
            OfferingFilter,
            Offering,
            ["status", "holder", "rules_submission", "layout", "paytable"],
            ["holder", "q", "status", "sort"],
        ),
        (
            RoundFilter,
            Round,
            ["offering"],
            ["player", "offering", *PERIOD, "outcome", "status", "sort"],
        ),
        (
            AvailabilityFilter,
            AvailabilityChange,
            ["holder", "offering", *PERIOD, "opened", "q", "sort"],
            ["holder", "offering", *PERIOD, "opened", "q", "sort"],
        ),
    ],
)
def test_one_filter_set_reads_the_pages_parameters_and_the_apis(
    officer, filterset, model, api, page
):
    on_page = filterset(
        {}, queryset=model.objects.none(), request=SimpleNamespace(user=officer), page=True
    )

    assert list(filterset.base_filters) == api  # what the API reads and its schema lists
    assert list(on_page.filters) == page


def test_a_parameter_both_read_keeps_each_ones_meaning(officer, holder_a):
    unknown = {"holder": "99999"}
    api = LayoutFilter(unknown, queryset=Layout.objects.all())
    page = LayoutFilter(
        unknown, queryset=Layout.objects.all(), request=SimpleNamespace(user=officer), page=True
    )

    assert api.is_valid() and not api.qs.exists()  # an id no row holds: nothing, not an error
    assert not page.is_valid() and "Select a valid choice" in str(page.errors["holder"])


def test_a_managers_page_has_no_holder_filter_but_the_api_keeps_its_own(manager_a):
    page = LayoutFilter(
        {}, queryset=Layout.objects.none(), request=SimpleNamespace(user=manager_a), page=True
    )
    api = LayoutFilter({}, queryset=Layout.objects.none(), request=SimpleNamespace(user=manager_a))

    assert "holder" not in page.filters and "holder" in api.filters


def test_the_headers_the_sorts_and_the_csv_come_from_one_declaration():
    columns = PaytableFilter.declared_filters["sort"].columns
    request = RequestFactory().get("/compliance/paytables/", {"status": "draft", "sort": "title"})
    html = Template("{% load lists %}{% column_headers columns %}").render(
        Context({"columns": columns, "request": request})
    )

    titles = ["Title", "Holder", "Version", "Status", "Effective", "Expires", "Updated"]
    assert [column.title for column in columns.page] == titles
    assert html.count("<th ") == len(titles) and html.count('aria-sort="ascending"') == 1
    assert 'href="?status=draft&amp;sort=-title"' in html  # the second click reverses
    assert 'href="?status=draft&amp;sort=-updated"' in html  # the newest first
    assert columns.sort_fields["title"] == "name"  # a paytable's title is its name
    assert columns.csv_headers == record_columns("title").csv_headers


def test_two_lists_of_rounds_share_their_csv_and_sort_by_their_own_columns():
    request = RequestFactory().get("/")
    plain = Template("{% load lists %}{% column_headers columns sortable=False %}").render(
        Context({"columns": MY_GAMES_COLUMNS, "request": request})
    )

    assert MY_GAMES_COLUMNS.csv_headers == STAFF_ROUND_COLUMNS.csv_headers
    assert list(MY_GAMES_COLUMNS.sort_fields) == [
        "round",
        "ended",
        "outcome",
        "staked",
        "returned",
        "balance",
    ]
    assert list(STAFF_ROUND_COLUMNS.sort_fields) == [
        "round",
        "player",
        "offering",
        "started",
        "outcome",
        "staked",
        "returned",
    ]
    assert "sort" not in plain and '<span class="visually-hidden">Replay</span>' in plain
    assert AuditEventFilter.declared_filters["sort"].columns.csv_headers[1] == "occurred_at_utc"


def test_the_report_form_reads_a_pages_fields_and_an_api_body_alike(holder_a):
    page = ReportForm({"kind": "expiry", "as_of": "2026-11-30", "start": "nonsense", "holder": ""})
    body = ReportForm.from_body("expiry", {"as_of": "2026-11-30", "colour": "red"})
    late = ReportForm.from_body("expiry", {"as_of": "2024-01-01"})

    # The page's other report's fields are left out; the API's unknown parameter is refused.
    assert page.is_valid()
    assert page.parameters == {"as_of": "2026-11-30", "holder": None, "offering": None}
    assert not body.is_valid() and isinstance(body.refusal, ValidationFailed)
    assert list(body.refusal.field_errors) == ["parameters"]  # as the service answers
    assert body.errors["__all__"] == [body.refusal.message]
    assert "unknown parameter(s) colour" in body.refusal.message
    assert not late.is_valid() and "§ 617b.8" in late.errors["as_of"][0]
    assert holder_a.name in ReportForm().as_div()
