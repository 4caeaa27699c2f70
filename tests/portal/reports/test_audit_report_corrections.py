"""The audit report with two void rounds (one covered, one partly uncollected) and an
adjustment (§ 617a.6, § 812a.7(a)(9), reading:voids-and-adjustments), worked by hand.

Minimum paytable (§ 617b.8(f)), standard wheel (red {1,3,5,8,10,12}); on one day the
player deposits 10,000 cents, then:

    round 1, outcome 7: straight 7 1,000 → 12,000             balance 21,000
    round 2, outcome 5: red 200 → 400; black 200 → 0           balance 21,000
    round 3, outcome 0: red 200 → 100 (§ 617b.8(g)(2));
                        straight 0 200 → 2,400                 balance 23,100
    a withdrawal of 22,000 is paid                             balance  1,100
    round 1 is voided: 1,000 given back (2,100), 2,100 of the 12,000 taken back,
                       9,900 uncollected                       balance      0
    round 2 is voided: 400 given back, 400 taken back           balance      0
    round 3 is adjusted: 150 credited (a dispute upheld)        balance    150

Play is round 3 alone: H = 400, returned 2,500, W = −2,100;
E = 200/26 (red) + 200/13 (straight 0 covers 0) = 300/13 = 23.0769;
its return over the 13 outcomes: 2,500 on 0, 400 on the six reds, 0 on the blacks, so
169 × Var = 13 × 7,210,000 − 4,900² = 69,720,000.
Voids: stakes 1,400 = given back 1,400; returns 12,400 = taken back 2,500 + uncollected 9,900.
The account: 0 + 10,000 − 22,000 − 1,800 staked + 14,900 returned + 1,400 − 2,500 + 150 = 150.
Every round is still settled again (5 bets in 3 rounds) and chain-checked.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
import time_machine

from portal.core.padates import UTC, pa_date
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from portal.game.play.services import round_play
from portal.reports.audit_report import audit_report
from portal.reports.audit_report.values import sqrt_text
from tests.portal.factories import finding_on, in_session
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db

PLAYED_AT = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=UTC)  # noon in Pennsylvania
DAY = pa_date(PLAYED_AT)
ROUNDS = [
    (7, [{"kind": "straight", "numbers": [7], "stake": 1000}]),
    (5, [{"kind": "red", "stake": 200}, {"kind": "black", "stake": 200}]),
    (0, [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [0], "stake": 200}]),
]


@pytest.fixture
def corrected(player, live_offering, payments_a, supervisor_a, officer):
    with time_machine.travel(PLAYED_AT):
        account = wallet_top_up(player=player, amount=10_000)
        rounds = [
            round_play(
                player=player,
                session=in_session(player),
                offering_id=live_offering.pk,
                wagers=wagers,
                idempotency_key=f"corrected-round-{number}",
                rng=FixedBits(outcome),
            ).round
            for number, (outcome, wagers) in enumerate(ROUNDS)
        ]
        paid = withdrawal_request(player=player, account_id=account.pk, amount=22_000)
        withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH 7")
        for voided in rounds[:2]:
            proposal = correction_propose(
                actor=supervisor_a, round_id=voided.pk, kind="void", reason="RNG fault 17"
            )
            correction_approve(actor=officer, correction_id=proposal.pk)
        adjustment = correction_propose(
            actor=supervisor_a,
            round_id=rounds[2].pk,
            kind="adjustment",
            finding_id=finding_on(rounds[2].pk),
            amount=150,
            reason="Dispute upheld",
            notice="We credited $1.50 for round 3.",
        )
        correction_approve(actor=officer, correction_id=adjustment.pk)
    return rounds


def report():
    return audit_report(start=DAY, end=DAY, now=PLAYED_AT + datetime.timedelta(days=1))


def sections(document) -> dict:
    return {s["key"]: s for s in document["sections"]}


def details(section: dict) -> list[dict]:
    return [row for row in section["rows"] if row["row_type"] == "detail"]


@pytest.mark.clause("reading:voids-and-adjustments", kind="proves")
def test_617a6_void_rounds_are_counted_apart_from_play(corrected):
    totals = report()["totals"]

    assert (totals["rounds"], totals["bets"], totals["players"]) == (1, 2, 1)
    assert (totals["handle"], totals["returned"], totals["win"]) == (400, 2_500, -2_100)
    assert totals["expected_win"] == "23.0769"
    assert totals["win_sd"] == sqrt_text(Fraction(69_720_000, 169))


def test_617a6_void_rounds_are_still_settled_again_and_chain_checked(corrected):
    document = report()

    assert document["resettlement"]["checked"] == 5
    assert document["resettlement"]["rounds"] == 3
    assert document["resettlement"]["discrepancy_count"] == 0
    assert document["reconciliation"]["round_chains"]["rounds_checked"] == 3


def test_617a6_and_812a7_a_9_the_money_of_voids_and_adjustments_reconciles(corrected):
    reconciliation = report()["reconciliation"]

    assert reconciliation["ok"] is True
    assert reconciliation["stakes"] == {"rounds": 400, "bets": 400, "ledger": 400}
    assert reconciliation["returns"] == {"rounds": 2_500, "bets": 2_500, "ledger": 2_500}
    assert reconciliation["voids"] == {
        "ok": True,
        "rounds": 2,
        "staked": 1_400,
        "returned": 12_400,
        "given_back": 1_400,
        "taken_back": 2_500,
        "uncollected": 9_900,
        # Neither void round was adjusted first: they undid no adjustment.
        "adjustment_debits_given_back": 0,
        "adjustment_credits_taken_back": 0,
    }
    assert reconciliation["adjustments"] == {
        "ok": True,
        "count": 1,
        "difference": 150,
        "credited": 150,
        "debited": 0,
        "uncollected": 0,
    }


def test_811a9_the_account_line_shows_the_voids_and_adjustments(corrected):
    [account] = details(sections(report())["accounts"])

    assert (account["opening"], account["deposits"], account["withdrawals"]) == (
        0,
        10_000,
        22_000,
    )
    assert (account["stakes"], account["returns"]) == (1_800, 14_900)
    assert (account["voids_in"], account["voids_out"]) == (1_400, 2_500)
    assert (account["adjustments_in"], account["adjustments_out"]) == (150, 0)
    assert account["closing"] == 150 and account["flag"] == "ok"


def test_617a6_and_812a7_a_9_voids_uncollected_amounts_and_adjustments_are_exceptions(
    corrected,
):
    found = sections(report())
    voids = details(found["voids"])
    adjustments = details(found["adjustments"])

    assert [(v["round"], v["given_back"], v["taken_back"], v["uncollected"]) for v in voids] == [
        (corrected[0].pk, 1_000, 2_100, 9_900),
        (corrected[1].pk, 400, 400, 0),
    ]
    assert voids[0]["reason"] == "RNG fault 17"
    assert (voids[0]["proposed_by"], voids[0]["decided_by"]) == ("supervisor_a", "officer")
    # The instants as recorded (ISO 8601, UTC): each format shows them in its readers' form.
    assert voids[0]["proposed_at"].startswith("2026-11-16T17:00:")
    assert voids[0]["decided_at"].startswith("2026-11-16T17:00:")
    assert [(a["round"], a["difference"], a["credited"]) for a in adjustments] == [
        (corrected[2].pk, 150, 150)
    ]
    assert adjustments[0]["notice"] == "We credited $1.50 for round 3."


@pytest.mark.clause("812a.7(a)(9)", kind="related")
def test_617a6_and_812a7_a_9_the_detail_marks_each_bet_void_or_adjusted_as_its_round(corrected):
    [detail] = [s for s in report()["sections"] if s.get("streamed")]
    titles = [c["title"] for c in detail["columns"]]
    state, round_id = titles.index("Round state"), titles.index("Round id")

    states = {row[round_id]: row[state] for row in detail["stream"]()}
    assert states == {
        corrected[0].pk: "Void",
        corrected[1].pk: "Void",
        corrected[2].pk: "Adjusted",
    }


def test_617a6_a_void_decided_after_the_report_was_made_leaves_the_round_in_play(
    player, live_offering, supervisor_a, officer
):
    with time_machine.travel(PLAYED_AT):
        wallet_top_up(player=player, amount=10_000)
        played = round_play(
            player=player,
            session=in_session(player),
            offering_id=live_offering.pk,
            wagers=ROUNDS[1][1],
            idempotency_key="later-voided-round",
            rng=FixedBits(5),
        ).round
    with time_machine.travel(PLAYED_AT + datetime.timedelta(days=2)):
        proposal = correction_propose(
            actor=supervisor_a, round_id=played.pk, kind="void", reason="found later"
        )
        correction_approve(actor=officer, correction_id=proposal.pk)

    document = report()  # made the day after play, before the void

    assert (document["totals"]["rounds"], document["totals"]["handle"]) == (1, 400)
    assert document["reconciliation"]["voids"]["rounds"] == 0
    assert document["reconciliation"]["ok"] is True
