"""A player reads why a table is closed in one plain sentence, never the records' statuses:
on the table's page, on the list of tables and in the game API's refusal of a bet."""

from __future__ import annotations

import datetime
import re

import pytest

from portal.compliance.models import ListedGame
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.compliance.services.layouts import layout_withdraw
from portal.compliance.services.offerings import offering_retire
from portal.compliance.services.paytables import paytable_withdraw
from portal.core.padates import day_starts, pa_today
from portal.game.play.presenters import (
    CLOSED_APPROVAL_ENDED,
    CLOSED_RETIRED,
    CLOSED_RULES_CHANGE,
    closed_sentence,
)
from tests.portal.factories import (
    EXPIRY,
    approved_paytable,
    make_layout,
    make_offering,
    make_paytable,
    make_rules,
    offering_in_force,
)

pytestmark = pytest.mark.django_db

# What a player must never read: the records' statuses, kinds and versions.
INTERNAL = re.compile(
    r"superseded|withdrawn|expired|not approved|paytable|layout|rules submission|\bv\d|§",
    re.IGNORECASE,
)


def _fresh(offering):
    return offerings_with_parts().get(pk=offering.pk)


def _sentence(offering, at=None):
    offering = _fresh(offering)
    at = at or day_starts(pa_today()) + datetime.timedelta(hours=12)
    return closed_sentence(offering, offering_is_live(offering, at=at), at=at)


def _closed_part(page: str) -> str:
    match = re.search(r'<section class="closed-table".*?</section>', page, re.S)
    assert match, "the table page does not say it is closed"
    return match.group(0)


def test_a_live_table_has_no_sentence(live_offering):
    assert _sentence(live_offering) == ""


def test_a_retired_table_says_it_has_been_retired(live_offering, manager_a):
    offering_retire(actor=manager_a, offering=live_offering, reason="Moved to the mezzanine")

    assert _sentence(live_offering) == CLOSED_RETIRED == "This table has been retired."


def test_a_withdrawn_paytable_is_a_rules_change(live_offering, officer):
    paytable_withdraw(actor=officer, paytable=live_offering.paytable, reason="Recall")

    assert _sentence(live_offering) == CLOSED_RULES_CHANGE
    assert CLOSED_RULES_CHANGE == "This table is closed for a rules change."


def test_a_withdrawn_layout_is_a_rules_change(live_offering, officer):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Worn cloth")

    assert _sentence(live_offering) == CLOSED_RULES_CHANGE


def test_parts_not_approved_are_a_rules_change(manager_a, holder_a):
    paytable, layout = make_paytable(manager_a, holder_a), make_layout(manager_a, holder_a)
    rules = make_rules(manager_a, holder_a, paytable, layout)
    offering = make_offering(manager_a, holder_a, rules, layout, paytable)

    assert _sentence(offering) == CLOSED_RULES_CHANGE


def test_a_listing_of_another_paytable_is_a_rules_change(live_offering, manager_a, officer):
    other = approved_paytable(manager_a, officer, live_offering.holder)
    # The listing names another paytable than the table's (as after a rules change the
    # table was not moved with): written directly, no service makes this by itself.
    ListedGame.objects.filter(submission=live_offering.rules_submission).update(paytable=other)

    assert _sentence(live_offering) == CLOSED_RULES_CHANGE


def test_an_approval_past_its_expiry_has_ended(live_offering):
    after_expiry = day_starts(EXPIRY + datetime.timedelta(days=30)) + datetime.timedelta(hours=9)

    assert _sentence(live_offering, at=after_expiry) == CLOSED_APPROVAL_ENDED
    assert CLOSED_APPROVAL_ENDED == "This table is closed: its approval has ended."


@pytest.mark.clause("617b.8", kind="related")
def test_617b8_after_the_sunset_jinzi_roulette_is_no_longer_offered(live_offering):
    after_sunset = day_starts(datetime.date(2028, 7, 1)) + datetime.timedelta(hours=9)

    assert _sentence(live_offering, at=after_sunset) == (
        "This table is closed: Jinzi Roulette is no longer offered in Pennsylvania "
        "since 14 June 2028."
    )


def test_a_table_approved_from_a_later_day_says_when_it_opens(manager_a, officer, holder_a):
    opens = pa_today() + datetime.timedelta(days=10)
    offering = offering_in_force(
        manager_a, officer, holder_a, effective=opens, expiry=datetime.date(2028, 1, 1)
    )

    assert _sentence(offering) == f"This table opens on {opens.day} {opens:%B %Y}."


def test_617b8_before_the_rule_takes_effect_the_table_opens_with_its_approvals(live_offering):
    # 2025-05-01: the rule takes effect on 2025-06-14, the approvals on 2026-01-01.
    before_the_rule = day_starts(datetime.date(2025, 5, 1)) + datetime.timedelta(hours=9)

    assert _sentence(live_offering, at=before_the_rule) == "This table opens on 1 January 2026."


def test_a_table_that_would_not_open_on_its_effective_day_does_not_promise_one(
    live_offering, officer
):
    paytable_withdraw(actor=officer, paytable=live_offering.paytable, reason="Recall")
    before = day_starts(datetime.date(2025, 12, 1)) + datetime.timedelta(hours=9)

    assert _sentence(live_offering, at=before) == CLOSED_RULES_CHANGE


def test_the_player_reads_the_sentence_not_the_records_statuses(
    client, funded_player, live_offering, officer
):
    paytable_withdraw(actor=officer, paytable=live_offering.paytable, reason="Recall")
    client.force_login(funded_player)

    page = client.get(f"/play/{live_offering.pk}/").content.decode()
    listed = client.get("/play/").content.decode()

    closed = _closed_part(page)
    assert CLOSED_RULES_CHANGE in closed
    assert not INTERNAL.findall(closed), INTERNAL.findall(closed)
    assert 'id="spin"' not in page  # no betting
    row = listed[listed.index(live_offering.name) :]
    row = row[: row.index("</tr>")]
    assert "Closed" in row and CLOSED_RULES_CHANGE in row
    assert not INTERNAL.findall(row), INTERNAL.findall(row)


def test_a_retired_table_page_says_only_that(client, funded_player, live_offering, manager_a):
    offering_retire(actor=manager_a, offering=live_offering, reason="Moved")
    client.force_login(funded_player)

    closed = _closed_part(client.get(f"/play/{live_offering.pk}/").content.decode())

    assert CLOSED_RETIRED in closed
    assert "offering" not in closed and not INTERNAL.findall(closed)


def test_a_bet_on_a_closed_table_is_refused_with_the_sentence(
    client, funded_player, live_offering, officer
):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Worn cloth")
    client.force_login(funded_player)
    payload = {
        "offering": live_offering.pk,
        "wagers": [{"kind": "red", "stake": 200}],
        "idempotency_key": "closed-table-0001",
    }

    response = client.post("/api/rounds/", payload, content_type="application/json")

    assert response.status_code == 409
    body = response.json()
    assert body["detail"] == CLOSED_RULES_CHANGE
    assert not INTERNAL.findall(body["detail"])
    # The records' reasons stay in the answer for staff and scripts.
    assert any("layout v1 is not approved" in reason for reason in body["errors"]["offering"])
