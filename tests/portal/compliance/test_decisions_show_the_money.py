"""A decision shows what it changes for players at each table it moves, the odds and the
house edge as paid before → after, and one that leaves wagers with an edge of zero or less
is taken only with that list acknowledged (§ 617b.8(f), reading:supersede,
reading:edge-acknowledgement).

The issue this answers: an amendment moved a live table onto a paytable paying straight up
at 23 to 2, where the house keeps exactly no edge on numbers 1–12; the panel said only "No
table opens or closes" and an unrelated reason was taken as the override.
"""

from __future__ import annotations

import re

import pytest

from portal.compliance.models import RecordStatus
from portal.compliance.selectors import step_impact
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_submit,
    paytable_update,
)
from tests.portal.compliance.test_reading_supersede import TABLE, _rules_v2
from tests.portal.factories import MINIMUM_ODDS, acknowledged, approved_offering

pytestmark = pytest.mark.django_db


@pytest.fixture
def amendment(manager_a, officer, holder_a):
    """The live table's rules amendment, listing paytable v2 (straight up at 23 to 2)."""
    table = approved_offering(manager_a, officer, holder_a, name=TABLE)
    draft = paytable_amend(actor=manager_a, paytable=table.paytable)
    draft = paytable_update(
        actor=manager_a, paytable=draft, odds={**MINIMUM_ODDS, "straight": "23/2"}
    )
    submitted = paytable_submit(actor=manager_a, paytable=draft)
    v2 = paytable_approve(
        actor=officer,
        paytable=submitted,
        override_reason="A promotion the Board was told of",
        edge_acknowledged=acknowledged(submitted),
    )
    return table, _rules_v2(table, manager_a, v2)


def shown(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_reading_supersede_the_impact_lists_each_moved_tables_odds_and_edge(amendment):
    table, rules = amendment

    [change] = step_impact(rules, "approve").changes

    assert change.offering == table and change.no_edge_after
    assert [part for part, _, _ in change.parts] == ["Rules submission", "Paytable"]
    [straight] = change.kinds  # only the straight up pays otherwise
    assert (straight.label, straight.odds_before, straight.odds_after) == (
        "Straight up",
        "11 to 1",
        "23 to 2",
    )
    assert straight.edge_before == "3.846 % – 7.692 %"
    assert straight.edge_after.startswith("0.000 %") and straight.no_edge_after


@pytest.mark.clause("reading:edge-acknowledgement", kind="proves")
def test_617b8_f_an_amendment_onto_a_zero_edge_paytable_shows_it_and_needs_it_acknowledged(
    amendment, login, officer
):
    table, rules = amendment
    client = login(officer)
    url = f"/compliance/rules/{rules.pk}/"
    html = client.get(url).content.decode()
    text = shown(html)

    assert "No table opens or closes, but the tables below change for their players" in text
    assert f"{TABLE} ({table.holder.name}) leaves the house an edge of zero or less" in text
    assert "Straight up 11 to 1 → 23 to 2" in text and "(zero or less)" in text
    assert "Straight up: no house edge (zero) on 12 of its 13 spots" in text
    impact = re.search(r'name="impact_approve" value="([0-9a-f]{64})"', html).group(1)

    unrelated = client.post(
        url, {"step": "approve", "reason": "Looks fine", "impact_approve": impact}
    )
    rules.refresh_from_db()
    table.refresh_from_db()
    assert unrelated.status_code == 400
    assert rules.status == RecordStatus.SUBMITTED and table.rules_submission_id != rules.pk

    approved = client.post(
        url,
        {
            "step": "approve",
            "reason": "The promotion is approved",
            "impact_approve": impact,
            "edge_acknowledged": acknowledged(rules),
        },
    )
    assert approved.status_code == 302
    table.refresh_from_db()
    assert table.rules_submission_id == rules.pk


def test_reading_edge_acknowledgement_the_api_shows_the_changes_and_takes_the_fingerprint(
    amendment, api_as, officer
):
    table, rules = amendment
    client = api_as(officer)
    url = f"/api/rules-submissions/{rules.pk}/"

    impact = client.get(f"{url}impact/").json()
    [change] = impact["steps"]["approve"]["changes"]
    assert change["table"]["id"] == table.pk
    assert change["wagers"][0]["odds_after"] == "23 to 2"
    assert change["wagers"][0]["no_edge_after"] is True
    edges = impact["zero_edges"]
    assert edges["wagers"][0].startswith("Straight up: no house edge (zero)")

    alone = client.post(f"{url}approve/", {"reason": "Looks fine"}, format="json")
    approved = client.post(
        f"{url}approve/",
        {
            "reason": "The promotion is approved",
            "impact": impact["steps"]["approve"]["fingerprint"],
            "edge_acknowledged": edges["fingerprint"],
        },
        format="json",
    )

    assert alone.status_code == 400 and "edge_acknowledged" in alone.json()["errors"]
    assert approved.status_code == 200
    assert approved.json()["status"] == "approved"
