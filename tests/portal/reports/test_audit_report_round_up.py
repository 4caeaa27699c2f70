"""The audit report's expected win follows what each stake is paid (reading:round-up,
reading:expected-win), on three rounds worked out by hand.

Paytable: the minimum, but splits at 16 to 3 and straight ups at 34 to 3 (approved with an
override); a table taking stakes in 2 cents from 2 cents (its rules approved with a reason).
A split wins 19/3 times its stake, a straight up 37/3, each rounded up to the cent:

    round 1, outcome 1: split 1-2 2 → 38/3 = 12.67, paid 13; straight 5 2 → 0
    round 2, outcome 0: split 1-2 2 → half back 1;           straight 5 6 → half back 3
    round 3, outcome 5: split 0-1 4 → 0;                     straight 5 4 → 148/3, paid 50

H = 20, returned = 67, W = −47. Each spot's edge at its stake, over the 13 outcomes:

    split 1-2 on 2:   13 + 13 + 1 = 27 for 26 staked        → −1/26  (odds alone −1/78)
    straight 5 on 2:  25 + 1 = 26 for 26                    → 0      (odds alone 1/78)
    straight 5 on 4:  50 + 2 = 52 for 52                    → 0
    straight 5 on 6:  74 + 3 = 77 for 78 (exact)            → 1/78
    split 0-1 on 4:   26 + 26 = 52 for 52 (no half back)    → 0      (odds alone 1/39)

E = 2 × 2 × (−1/26) + 6 × 1/78 = −2/13 + 1/13 = −1/13 = −0.0769 cents. From the odds alone
it would be (−4 + 2 + 6 + 4)/78 + 8/78 = 16/78 = 0.2051: the wrong sign.
By kind: splits H 8, E −2/13; straight ups H 12, E 1/13. Covering 0: split 0-1, H 4, E 0.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
import time_machine

import jinzi
from portal.compliance.services.paytables import paytable_approve, paytable_submit
from portal.compliance.services.rules import rules_submission_approve, rules_submission_submit
from portal.core.padates import UTC, pa_date
from portal.reports.audit_report import audit_report
from portal.reports.audit_report.values import decimal_text
from tests.portal.factories import (
    MINIMUM_ODDS,
    acknowledged,
    approved_layout,
    in_session,
    listing,
    make_offering,
    make_paytable,
    make_rules,
)
from tests.portal.game.conftest import FixedBits
from tests.portal.reports.test_audit_report import QUERIES

pytestmark = pytest.mark.django_db

PLAYED_AT = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=UTC)
DAY = pa_date(PLAYED_AT)
ODDS = {**MINIMUM_ODDS, "split": "16/3", "straight": "34/3"}
ROUNDS = [
    (1, [("split", [1, 2], 2), ("straight", [5], 2)]),
    (0, [("split", [1, 2], 2), ("straight", [5], 6)]),
    (5, [("split", [0, 1], 4), ("straight", [5], 4)]),
]


@pytest.fixture
def generous_table(manager_a, officer, holder_a):
    paytable = paytable_submit(
        actor=manager_a, paytable=make_paytable(manager_a, holder_a, odds=ODDS)
    )
    paytable = paytable_approve(
        actor=officer,
        paytable=paytable,
        override_reason="Promotion",
        edge_acknowledged=acknowledged(paytable),
    )
    layout = approved_layout(manager_a, officer, holder_a)
    small = listing(paytable, layout, chip_unit=2, min_wager=2, max_wager=1_000)
    rules = make_rules(manager_a, holder_a, paytable, layout, games=[small])
    rules = rules_submission_submit(actor=manager_a, submission=rules)
    rules = rules_submission_approve(
        actor=officer,
        submission=rules,
        reason="2-cent promotion",
        edge_acknowledged=acknowledged(rules),
    )
    return make_offering(manager_a, holder_a, rules, layout, paytable)


@pytest.fixture
def played(player, holder_a, generous_table):
    from portal.game.play.services import round_play
    from tests.portal.funding import wallet_top_up

    with time_machine.travel(PLAYED_AT):
        wallet_top_up(player=player, amount=10_000, holder=holder_a)
        for number, (outcome, bets) in enumerate(ROUNDS):
            wagers = [{"kind": k, "numbers": n, "stake": s} for k, n, s in bets]
            round_play(
                player=player,
                session=in_session(player),
                offering_id=generous_table.pk,
                wagers=wagers,
                idempotency_key=f"round-up-{number}",
                rng=FixedBits(outcome),
            )
    return generous_table


def report():
    return audit_report(start=DAY, end=DAY, now=PLAYED_AT + datetime.timedelta(days=1))


def sections(document) -> dict:
    return {s["key"]: s for s in document["sections"]}


def test_reading_round_up_e_is_worked_out_from_what_each_stake_is_paid(played):
    document = report()
    totals = document["totals"]

    assert (totals["handle"], totals["returned"], totals["win"]) == (20, 67, -47)
    assert totals["expected_win"] == "-0.0769" == decimal_text(Fraction(-1, 13))
    assert document["resettlement"]["discrepancies"] == []
    # The same E as the rounds' own moments, whose returns jinzi.settle pays.
    paytable = jinzi.Paytable.from_dict(ODDS)
    moments = [
        jinzi.round_moments([(jinzi.Wager(k, tuple(n)), s) for k, n, s in bets], paytable=paytable)
        for _, bets in ROUNDS
    ]
    assert sum(m.expected_win for m in moments) == Fraction(-1, 13)
    [group] = document["groups"]
    assert group["expected_win"] == "-0.0769"
    assert group["expected_hold"] == pytest.approx(-1 / 13 / 20)


def test_reading_round_up_by_kind_adds_each_stakes_own_edge(played):
    by_kind = {row["kind"]: row for row in report()["by_kind"]}

    assert (by_kind["split"]["handle"], by_kind["split"]["expected_win"]) == (8, "-0.1538")
    assert (by_kind["straight"]["handle"], by_kind["straight"]["expected_win"]) == (12, "0.0769")
    assert (by_kind["covers_zero"]["handle"], by_kind["covers_zero"]["expected_win"]) == (
        4,
        "0.0000",
    )
    assert by_kind["not_zero"]["expected_win"] == "-0.0769"


def test_reading_round_up_the_detail_gives_each_bets_edge_at_its_stake(played):
    detail = sections(report())["detail"]
    keys = [c["key"] for c in detail["columns"]]
    rows = [dict(zip(keys, row, strict=True)) for row in detail["stream"]()]

    edges = [(r["spot"], r["stake"], r["returned"], r["edge"]) for r in rows]
    assert edges == [
        ("split:1-2", 2, 13, pytest.approx(-1 / 26)),
        ("straight:5", 2, 0, 0.0),
        ("split:1-2", 2, 1, pytest.approx(-1 / 26)),
        ("straight:5", 6, 3, pytest.approx(1 / 78)),
        ("split:0-1", 4, 0, 0.0),
        ("straight:5", 4, 50, 0.0),
    ]


def test_reading_round_up_spots_that_took_a_stake_with_no_edge_are_exceptions(played):
    generous = sections(report())["generous"]

    rows = [r for r in generous["rows"] if r["row_type"] == "detail"]
    # From the odds alone only split 1-2 (−1/78) would be listed.
    assert [(r["spot"], r["edge"], r["stake"], r["bets"], r["handle"]) for r in rows] == [
        ("Straight up 5", "0.0000", 2, 3, 12),
        ("Split 0-1", "0.0000", 4, 1, 4),
        ("Split 1-2", "-3.8462", 2, 2, 4),
    ]
    assert rows[0]["expected_hold"] == pytest.approx(1 / 13 / 12)
    assert rows[2]["expected_hold"] == pytest.approx(-1 / 26)
    assert any("reading:round-up" in note for note in generous["notes"])


def test_reading_round_up_each_odds_spot_and_stake_is_worked_out_once(played, monkeypatch):
    calls = []
    real = jinzi.house_edge

    def counted(wager, **kwargs):
        calls.append((wager.spot, kwargs.get("stake")))
        return real(wager, **kwargs)

    monkeypatch.setattr(jinzi, "house_edge", counted)
    report()

    # Each spot's own edge once (with whole odds, what every stake earns), then, where its
    # fractional odds round some stakes, each stake it took once.
    assert sorted(calls, key=str) == [
        ("split:0-1", 4),
        ("split:0-1", None),
        ("split:1-2", 2),
        ("split:1-2", None),
        ("straight:5", 2),
        ("straight:5", 4),
        ("straight:5", 6),
        ("straight:5", None),
    ]


def test_reading_round_up_the_report_runs_the_same_number_of_queries(played):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        document = report()
        list(sections(document)["detail"]["stream"]())

    assert len(queries) == QUERIES


def test_reading_round_up_a_stake_no_table_takes_is_listed_not_fatal(played):
    """An odd stake (a row altered outside the portal) cannot be paid under
    reading:even-stakes: the re-settlement lists it, and its E uses the odds' own edge."""
    from portal.game.models import Bet
    from tests.portal.reports.test_audit_report import _tamper

    bet = Bet.objects.get(spot="straight:5", stake=6)
    _tamper(lambda: Bet.objects.filter(pk=bet.pk).update(stake=7))

    document = report()

    problems = [d["problem"] for d in document["resettlement"]["discrepancies"]]
    assert any(p.startswith("cannot be settled again") for p in problems), problems
    # −2/13 from the splits, 7 × 1/78 (the odds' own edge) for the altered bet, 0 for the rest.
    assert document["totals"]["expected_win"] == decimal_text(Fraction(-2, 13) + Fraction(7, 78))


def test_reading_round_up_every_format_carries_the_exceptions_with_their_stakes(played):
    import io

    from portal.reports import render

    document = report()
    written = {}
    for name, (writer, _, _) in render.FORMATS.items():
        out = io.BytesIO()
        writer(document, out)
        written[name] = out.getvalue()

    assert all(written.values())
    csv_text = written["csv"].decode("utf-8-sig")
    assert "Lowest house edge (%)" in csv_text and "At a stake of" in csv_text
    assert "-3.8462" in csv_text
