"""A paytable's PAR sheet on its page, as CSV and JSON (the figures from ``jinzi.par``, the
stakes a table's or every even stake to the stated maximum); bad input is a clear 4xx."""

from __future__ import annotations

import csv
import io

import pytest

from portal.compliance.models import Paytable
from portal.compliance.presenters.par import UNLISTED_HIGHEST
from tests.portal.factories import approved_offering, make_paytable
from tests.portal.page_helpers import text
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_the_standard_paytables_sheet_on_its_page_and_as_json(
    login, manager_a, officer, holder_a
):
    table = approved_offering(manager_a, officer, holder_a)
    client = login(officer)

    page = text(client.get(f"/compliance/paytables/{table.paytable_id}/"))
    sheet = client.get(f"/compliance/paytables/{table.paytable_id}/par.json").json()

    assert "PAR sheet" in page and "Hold to expect" in page
    assert not developer_words(shown_text(page, apart=True))
    straight = next(x for x in sheet["lines"] if x["kind"] == "straight" and not x["covers_zero"])
    assert (straight["win"], straight["half_back"], straight["loss"]) == ("1/13", "1/13", "11/13")
    assert (straight["edge_lowest"], straight["return_highest"]) == ("1/26", "25/26")
    assert straight["standard_deviation"] == "3.18929422179"
    assert sum(line["spots"] for line in sheet["lines"]) == 52
    # The table's stakes, and one unit on every spot at its lowest.
    assert sheet["stakes"]["lowest"] == table.rules_submission.games.get().min_wager
    assert [h["rounds"] for h in sheet["holds"]] == [1_000, 10_000, 100_000, 1_000_000]
    assert sheet["holds"][0]["expected_hold"] == "29/676"


def test_an_unlisted_paytables_sheet_runs_to_the_stated_maximum_and_downloads_as_csv(
    login, manager_a, holder_a
):
    paytable = make_paytable(manager_a, holder_a, name="Promo")
    client = login(manager_a)

    sheet = client.get(f"/compliance/paytables/{paytable.pk}/par.json").json()
    download = client.get(f"/compliance/paytables/{paytable.pk}/par.csv")

    assert sheet["stakes"] == {"unit": 2, "lowest": 2, "highest": UNLISTED_HIGHEST}
    assert "no rules submission lists this paytable yet" in sheet["stakes_words"]
    body = b"".join(download.streaming_content).decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][0] == "Wager" and rows[1][:3] == ["Straight up", "no", "12"]
    assert "3.846" in body and "1,000,000" in body
    assert download["Content-Disposition"].endswith('par-sheet-promo-v1.csv"')


@pytest.mark.clause("reading:even-stakes", kind="cites-in-message")
@pytest.mark.parametrize("query", ["unit=3", "unit=2&lowest=10&highest=4", "unit=two", "lowest=-2"])
def test_stakes_that_are_not_even_cents_or_out_of_order_are_400(login, manager_a, holder_a, query):
    paytable = make_paytable(manager_a, holder_a)

    refused = login(manager_a).get(f"/compliance/paytables/{paytable.pk}/par.json?{query}")

    assert refused.status_code == 400


def test_a_draft_with_odds_below_the_minimum_gives_its_own_error_and_another_holder_404(
    login, manager_a, manager_b, holder_a
):
    paytable = make_paytable(manager_a, holder_a)
    Paytable.objects.filter(pk=paytable.pk).update(odds={**paytable.odds, "straight": "10"})

    refused = login(manager_a).get(f"/compliance/paytables/{paytable.pk}/par.json")
    hidden = login(manager_b).get(f"/compliance/paytables/{paytable.pk}/par.csv")

    assert refused.status_code == 400 and "§ 617b.8(f)" in refused.content.decode()
    assert hidden.status_code == 404


def test_the_api_serves_the_sheet_at_asked_stakes_and_refuses_bad_ones(
    api_as, manager_a, auditor, holder_a
):
    paytable = make_paytable(manager_a, holder_a)
    url = f"/api/paytables/{paytable.pk}/par/"

    asked = api_as(auditor).get(url, {"unit": 100, "lowest": 100, "highest": 50_000})
    odd = api_as(auditor).get(url, {"unit": 3})

    assert asked.status_code == 200
    assert asked.json()["stakes"] == {"unit": 100, "lowest": 100, "highest": 50_000}
    assert asked.json()["holds"][0]["handle"] == 1_000 * 100 * 52
    assert odd.status_code == 400 and "stakes" in odd.json()["errors"]
