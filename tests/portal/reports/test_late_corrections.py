"""Corrections applied after their round's gaming day (reading:late-corrections), worked by
hand.

Minimum paytable (§ 617b.8(f)), standard wheel (red {1,3,5,8,10,12}); noon in Pennsylvania:

    16 Nov  deposit 10,000
            round A, outcome 7: straight 7 1,000 → 12,000         balance 21,000
            round B, outcome 5: red 200 → 400                     balance 21,200
    17 Nov  round C, outcome 2: red 200 → 0                       balance 21,000
            round A voided: 1,000 given back, 12,000 taken back   balance 10,000
            round B adjusted: 150 credited (a payout error)       balance 10,150
            round C adjusted: 50 credited (a payout error)        balance 10,200

The report of 17 November lists A's void and B's adjustment as corrections to an earlier
gaming day; C's adjustment is of its own period, listed with its round. Its handle is C's
200 alone. The report of 16 November made on the 18th lists A's void and B's adjustment
with their rounds (A out of play: handle 200); made on the 16th, before them, it had
neither.
"""

from __future__ import annotations

import datetime

import pytest
import time_machine

from portal.core.padates import UTC, pa_date
from portal.game.corrections.services import correction_approve, correction_propose
from portal.reports.audit_report import audit_report
from tests.portal.factories import finding_on
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import play_round

pytestmark = pytest.mark.django_db

FIRST = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=UTC)  # noon in Pennsylvania
SECOND = FIRST + datetime.timedelta(days=1)
DAY_ONE, DAY_TWO = pa_date(FIRST), pa_date(SECOND)
STRAIGHT_7 = [{"kind": "straight", "numbers": [7], "stake": 1000}]
RED = [{"kind": "red", "stake": 200}]


def _play(player, offering, wagers, outcome, key):
    return play_round(player, offering, key, wagers, outcome).round


def _adjust(supervisor, officer, played, amount):
    proposal = correction_propose(
        actor=supervisor,
        round_id=played.pk,
        kind="adjustment",
        finding_id=finding_on(played.pk),
        amount=amount,
        reason="Payout error found",
        notice=f"We credited {amount} cents.",
    )
    return correction_approve(actor=officer, correction_id=proposal.pk)


@pytest.fixture
def late(player, live_offering, supervisor_a, officer):
    with time_machine.travel(FIRST):
        wallet_top_up(player=player, amount=10_000)
        a = _play(player, live_offering, STRAIGHT_7, 7, "late-round-a")
        b = _play(player, live_offering, RED, 5, "late-round-b")
    with time_machine.travel(SECOND):
        c = _play(player, live_offering, RED, 2, "late-round-c")
        void = correction_propose(
            actor=supervisor_a, round_id=a.pk, kind="void", reason="RNG fault 3"
        )
        correction_approve(actor=officer, correction_id=void.pk)
        _adjust(supervisor_a, officer, b, 150)
        _adjust(supervisor_a, officer, c, 50)
    return a, b, c


def report(first, last, *, at):
    return audit_report(start=first, end=last, now=at)


def sections(document) -> dict:
    return {s["key"]: s for s in document["sections"]}


def details(section: dict) -> list[dict]:
    return [row for row in section["rows"] if row["row_type"] == "detail"]


THIRD_DAY = SECOND + datetime.timedelta(days=1)


@pytest.mark.clause("reading:late-corrections", kind="proves")
def test_811a9_a_correction_to_an_earlier_gaming_day_is_listed_in_the_day_it_was_applied(late):
    a, b, _ = late
    document = report(DAY_TWO, DAY_TWO, at=THIRD_DAY)

    rows = details(sections(document)["late_corrections"])

    assert [
        (r["correction"], r["round"], r["round_day"], r["credited"], r["debited"]) for r in rows
    ] == [
        ("Void", a.pk, DAY_ONE.isoformat(), 1_000, 12_000),
        ("Adjustment", b.pk, DAY_ONE.isoformat(), 150, 0),
    ]
    assert [r["difference"] for r in rows] == [None, 150]
    assert sections(document)["late_corrections"]["totals"]["values"] == {
        "difference": 150,
        "credited": 1_150,
        "debited": 12_000,
        "uncollected": 0,
    }


def test_811a9_a_correction_inside_the_reports_own_period_is_not_late(late):
    _, _, c = late
    found = sections(report(DAY_TWO, DAY_TWO, at=THIRD_DAY))

    assert c.pk not in [r["round"] for r in details(found["late_corrections"])]
    assert [(r["round"], r["credited"]) for r in details(found["adjustments"])] == [(c.pk, 50)]
    assert details(found["voids"]) == []

    both = sections(report(DAY_ONE, DAY_TWO, at=THIRD_DAY))  # A and B are of this period
    assert both["late_corrections"]["no_activity"] is True
    assert len(details(both["voids"])) == 1 and len(details(both["adjustments"])) == 2


def test_811a9_the_late_corrections_handle_and_win_stay_with_their_own_day(late):
    totals = report(DAY_TWO, DAY_TWO, at=THIRD_DAY)["totals"]

    # Round C alone: the void of A does not take its stake out of the 17th's play.
    assert (totals["rounds"], totals["handle"], totals["returned"]) == (1, 200, 0)


def test_811a9_the_reconciliation_counts_the_late_corrections(late):
    document = report(DAY_TWO, DAY_TWO, at=THIRD_DAY)
    reconciliation = document["reconciliation"]

    assert reconciliation["ok"] is True
    assert reconciliation["late_corrections"] == {
        "ok": True,
        "voids": {
            "ok": True,
            "rounds": 1,
            "staked": 1_000,
            "returned": 12_000,
            "given_back": 1_000,
            "taken_back": 12_000,
            "uncollected": 0,
            "adjustment_debits_given_back": 0,
            "adjustment_credits_taken_back": 0,
        },
        "adjustments": {
            "ok": True,
            "count": 1,
            "difference": 150,
            "credited": 150,
            "debited": 0,
            "uncollected": 0,
        },
    }
    # The period's own adjustment (C's) is reconciled with the period's.
    assert reconciliation["adjustments"]["count"] == 1
    assert reconciliation["adjustments"]["difference"] == 50
    # The account line carries the late money: 21,200 − 200 + 1,000 − 12,000 + 200 = 10,200.
    [account] = details(sections(document)["accounts"])
    assert account["opening"] == 21_200
    assert (account["stakes"], account["returns"]) == (200, 0)
    assert (account["voids_in"], account["voids_out"]) == (1_000, 12_000)
    assert account["adjustments_in"] == 200
    assert account["closing"] == 10_200 and account["flag"] == "ok"
    checks = [row["check"] for row in details(sections(document)["reconciliation"])]
    assert any(check.startswith("Voids applied to earlier gaming days (1)") for check in checks)
    assert any(
        check.startswith("Adjustments applied to earlier gaming days (1)") for check in checks
    )


def test_811a9_a_report_made_later_for_the_earlier_day_includes_the_corrections(late):
    a, b, _ = late

    before = report(DAY_ONE, DAY_ONE, at=FIRST + datetime.timedelta(hours=11))
    after = report(DAY_ONE, DAY_ONE, at=THIRD_DAY)

    assert (before["totals"]["rounds"], before["totals"]["handle"]) == (2, 1_200)
    assert details(sections(before)["voids"]) == []
    assert (after["totals"]["rounds"], after["totals"]["handle"]) == (1, 200)
    assert [r["round"] for r in details(sections(after)["voids"])] == [a.pk]
    assert [r["round"] for r in details(sections(after)["adjustments"])] == [b.pk]
    assert sections(after)["late_corrections"]["no_activity"] is True


def test_811a9_a_late_correction_reported_as_of_the_reports_cutoff(late):
    # Made at 1 p.m. on the 17th, before the corrections (the afternoon's play was at noon
    # and the corrections a moment later, so a cutoff just before them misses them).
    early = report(DAY_TWO, DAY_TWO, at=SECOND - datetime.timedelta(minutes=1))

    assert early["sections"] and sections(early)["late_corrections"]["no_activity"] is True
    assert early["reconciliation"]["late_corrections"]["voids"]["rounds"] == 0


def test_811a9_a_report_of_another_holder_lists_none_of_these_late_corrections(late, holder_b):
    document = audit_report(start=DAY_TWO, end=DAY_TWO, holder_id=holder_b.pk, now=THIRD_DAY)

    assert sections(document)["late_corrections"]["no_activity"] is True
    assert document["reconciliation"]["late_corrections"]["adjustments"]["count"] == 0
