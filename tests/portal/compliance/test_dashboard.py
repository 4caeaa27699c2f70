import datetime

import pytest
from django.utils import timezone

from tests.portal.factories import EFFECTIVE, make_paytable
from tests.portal.page_helpers import approve_layout, submitted_layout, text

pytestmark = pytest.mark.django_db


def _section(page: str, heading: str) -> str:
    start = page.index(f">{heading}</h2>")
    return page[start : page.index("</section>", start)]


@pytest.fixture
def records(manager_a, manager_b, officer, holder_a, holder_b):
    """A draft, a submitted layout, and an approval expiring in ten days, per holder."""
    soon = timezone.now().date() + datetime.timedelta(days=10)
    made = {}
    for manager, holder, tag in ((manager_a, holder_a, "A"), (manager_b, holder_b, "B")):
        made[f"draft {tag}"] = make_paytable(manager, holder, name=f"Draft paytable {tag}")
        made[f"submitted {tag}"] = submitted_layout(manager, holder, title=f"Submitted {tag}")
        made[f"expiring {tag}"] = approve_layout(
            officer,
            submitted_layout(manager, holder, title=f"Expiring {tag}"),
            effective_date=EFFECTIVE,
            expiry_date=soon,
        )
    return made


def test_an_officer_sees_what_awaits_review_and_what_expires(login, officer, records):
    page = text(login(officer).get("/compliance/"))

    awaiting = _section(page, "Awaiting your review")
    assert "Submitted A" in awaiting and "Submitted B" in awaiting
    assert f'href="/compliance/layouts/{records["submitted A"].pk}/"' in awaiting
    expiring = _section(page, "Expiring within 30 days")
    assert "Expiring A" in expiring and "Expiring B" in expiring
    assert ">Drafts</h2>" not in page  # officers do not draft
    assert "Draft paytable" not in page


def test_a_manager_sees_their_own_drafts_and_expiries_only(login, manager_a, records):
    page = text(login(manager_a).get("/compliance/"))

    assert ">Awaiting your review</h2>" not in page  # managers do not decide
    drafts = _section(page, "Drafts")
    assert "Draft paytable A" in drafts
    assert f'href="/compliance/paytables/{records["draft A"].pk}/"' in drafts
    assert "Expiring A" in _section(page, "Expiring within 30 days")
    assert "Draft paytable B" not in page and "Expiring B" not in page
    assert 'href="/compliance/layouts/new/"' in page


def test_an_auditor_sees_expiries_and_the_audit_trail(login, auditor, records):
    page = text(login(auditor).get("/compliance/"))

    assert "Expiring A" in _section(page, "Expiring within 30 days")
    assert ">Awaiting your review</h2>" not in page
    assert ">Drafts</h2>" not in page
    assert 'href="/audit/"' in page and 'href="/audit/verify/"' in page
    assert "/compliance/layouts/new/" not in page


def test_four_eyes_what_a_superuser_submitted_does_not_await_their_review(
    login, superuser, holder_a
):
    mine = submitted_layout(superuser, holder_a, title="My own layout")

    page = text(login(superuser).get("/compliance/"))

    assert mine.title not in _section(page, "Awaiting your review")
    assert ">Drafts</h2>" in page


def test_an_empty_dashboard_says_so(login, officer):
    page = text(login(officer).get("/compliance/"))

    assert "Nothing awaits your review." in page
    assert "No approval expires within 30 days." in page


def test_players_may_not_open_the_dashboard(login, player):
    assert login(player).get("/compliance/").status_code == 403


def test_anonymous_visitors_are_sent_to_sign_in(client, db):
    response = client.get("/compliance/")

    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/compliance/"


def test_an_approval_that_came_inside_30_days_today_is_marked_new(
    login, officer, manager_a, holder_a
):
    from portal.core.padates import pa_today

    for days, title in ((30, "Thirty days out"), (29, "Twenty-nine days out")):
        approve_layout(
            officer,
            submitted_layout(manager_a, holder_a, title=title),
            effective_date=EFFECTIVE,
            expiry_date=pa_today() + datetime.timedelta(days=days),
        )

    expiring = _section(text(login(officer).get("/compliance/")), "Expiring within 30 days")

    thirty, twenty_nine = expiring.split("Thirty days out")[1], expiring.split("Twenty-nine")[1]
    assert "new today" in thirty.split("</li>")[0]
    assert "new today" not in twenty_nine.split("</li>")[0]
