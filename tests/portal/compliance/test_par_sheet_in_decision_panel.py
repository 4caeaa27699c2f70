"""A submitted paytable's PAR sheet inside the decision panel an officer decides it in, read
right before deciding: its key figures, from the one sheet the page works out; the page keeps
its full sheet, and no element id is given twice."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from portal.compliance.presenters import par as par_presenter
from portal.compliance.views import paytables as paytable_views
from tests.portal.page_helpers import submitted_paytable, text

pytestmark = pytest.mark.django_db


def _panel(page: str) -> str:
    match = re.search(r'<form[^>]*class="[^"]*decision-panel[^"]*"[^>]*>(.*?)</form>', page, re.S)
    assert match, "no decision panel"
    return match.group(0)


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_the_decision_panel_of_a_submitted_paytable_shows_its_par_sheet(
    login, manager_a, officer, holder_a
):
    paytable = submitted_paytable(manager_a, holder_a)
    sheet = par_presenter.par_sheet(paytable)

    page = text(login(officer).get(f"/compliance/paytables/{paytable.pk}/"))
    panel = _panel(page)

    assert "PAR sheet of this paytable" in panel
    assert f"/compliance/paytables/{paytable.pk}/par.pdf" in panel
    assert 'href="#par-heading"' in panel
    for line in sheet["lines"]:
        row = re.search(rf"<th[^>]*>{re.escape(line['wager'])}</th>(.*?)</tr>", panel, re.S)
        assert row, line["wager"]
    for key in ("pay", "return", "edge", "hit", "standard_deviation"):
        assert all(line["shown"][key] in panel for line in sheet["lines"]), key
    assert panel.count("3.8462 %") >= 1 and "7.6923 %" in panel
    for hold in sheet["holds"]:
        shown = hold["shown"]
        assert shown["rounds"] in panel and shown["expected_hold"] in panel
        assert shown["band"] in panel
    # The page keeps its full sheet outside the panel, and no id is given twice.
    assert 'id="par-heading"' in page and 'id="par-heading"' not in panel
    ids = Counter(re.findall(r'\bid="([^"]+)"', page))
    assert not [name for name, count in ids.items() if count > 1]


def test_the_paytables_page_works_its_par_sheet_out_once_for_the_page_and_the_panel(
    login, manager_a, officer, holder_a, monkeypatch
):
    paytable = submitted_paytable(manager_a, holder_a)
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return par_presenter.par_sheet(*args, **kwargs)

    monkeypatch.setattr(paytable_views, "par_sheet", counted)

    page = text(login(officer).get(f"/compliance/paytables/{paytable.pk}/"))

    assert "PAR sheet of this paytable" in _panel(page)
    assert len(calls) == 1


def test_a_manager_sees_the_par_sheet_but_no_decision_panel(login, manager_a, holder_a):
    paytable = submitted_paytable(manager_a, holder_a)

    page = text(login(manager_a).get(f"/compliance/paytables/{paytable.pk}/"))

    assert 'id="par-heading"' in page and "decision-panel" not in page
    assert "PAR sheet of this paytable" not in page
