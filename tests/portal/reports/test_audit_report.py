"""The audit report (reading:expected-win, § 811a.9), on three rounds worked out by hand.

Minimum paytable (§ 617b.8(f)), standard wheel (red {1,3,5,8,10,12}); the player
deposits 100,000 cents into their account with the table's holder first.

    round 1, outcome 0: red 200 → half back 100 (§ 617b.8(g)(2)); straight 0 200 → 2,400
    round 2, outcome 5: red 200 → 400; black 200 → 0
    round 3, outcome 7: straight 7 1,000 → 12,000; split 0-1 200 → 0

H = 2,000; returned = 14,900; W = −12,900.
E = (200 + 200 + 200 + 1,000)/26 + (200 + 200)/13 = 1,200/13 = 92.3077 (to 4 places).
Each round's return over the 13 outcomes (169 × variance = 13 ΣR² − (ΣR)²):
    round 1: 2,500 on 0, 400 on the 6 reds, 0 on the blacks → 69,720,000
    round 2: 200 on 0, 400 on the other 12                → 480,000
    round 3: 1,700 on 0, 1,200 on 1, 12,000 on 7, else 0    → 1,706,280,000
Var W = 1,776,480,000/169, SD = 3,242.1777; z = −4.007, but 3 rounds: "low volume".
Outcomes 0, 5 and 7 once each: chi-square = 10 exactly (12 d.f.), p = 0.615961.
"""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
import time_machine
from django.conf import settings
from django.db import connection

from portal.core import append_only
from portal.core.padates import UTC, pa_date
from portal.game.models import Bet, Round
from portal.reports.audit_report import audit_report
from portal.reports.audit_report.values import sqrt_text
from portal.reports.document import NO_ACTIVITY
from tests.portal.factories import approved_offering, in_session
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db

PLAYED_AT = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=UTC)  # noon in Pennsylvania
DAY = pa_date(PLAYED_AT)
ROUNDS = [
    (0, [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [0], "stake": 200}]),
    (5, [{"kind": "red", "stake": 200}, {"kind": "black", "stake": 200}]),
    (
        7,
        [
            {"kind": "straight", "numbers": [7], "stake": 1000},
            {"kind": "split", "numbers": [0, 1], "stake": 200},
        ],
    ),
]


@pytest.fixture
def played(player, live_offering):
    from portal.game.play.services import round_play
    from tests.portal.funding import wallet_top_up

    # The whole history on the day played, in order (the ledger's time follows its ids).
    with time_machine.travel(PLAYED_AT):
        wallet_top_up(player=player, amount=100_000)
        for number, (outcome, wagers) in enumerate(ROUNDS):
            round_play(
                player=player,
                session=in_session(player),
                offering_id=live_offering.pk,
                wagers=wagers,
                idempotency_key=f"audit-round-{number}",
                rng=FixedBits(outcome),
            )
    return live_offering


def report(**kwargs):
    kwargs.setdefault("start", DAY)
    kwargs.setdefault("end", DAY)
    return audit_report(now=PLAYED_AT + datetime.timedelta(days=1), **kwargs)


def sections(document) -> dict:
    return {s["key"]: s for s in document["sections"]}


def test_617b8_g_the_totals_are_the_hand_worked_figures(played):
    document = report()

    assert document["report"] == "audit"
    assert document["period"] == {"start": "2026-11-16", "end": "2026-11-16"}
    totals = document["totals"]
    assert (totals["rounds"], totals["bets"], totals["players"]) == (3, 6, 1)
    assert (totals["handle"], totals["returned"], totals["win"]) == (2000, 14_900, -12_900)
    assert totals["expected_win"] == "92.3077"
    assert totals["win_sd"] == "3242.1777"
    assert totals["win_sd"] == sqrt_text(Fraction(1_776_480_000, 169))
    assert totals["flag"] == "low volume"


def test_811a9_the_summary_groups_by_holder_offering_and_paytable_version(played):
    document = report()

    [group] = document["groups"]
    assert group["offering_id"] == played.pk
    assert group["paytable_id"] == played.paytable_id
    assert (group["rounds"], group["bets"], group["handle"], group["win"]) == (3, 6, 2000, -12_900)
    assert group["hold"] == pytest.approx(-12_900 / 2000)
    assert group["expected_hold"] == pytest.approx(1200 / 13 / 2000)
    assert group["z"] == "-4.007"
    rows = sections(document)["summary"]["rows"]
    assert [r["row_type"] for r in rows] == ["detail", "subtotal", "subtotal"]
    assert sections(document)["summary"]["totals"]["values"]["handle"] == 2000


def test_617b8_g_by_kind_splits_wagers_covering_zero_from_the_rest(played):
    by_kind = {row["kind"]: row for row in report()["by_kind"]}

    assert by_kind["straight"]["handle"] == 1200
    assert by_kind["straight"]["win"] == 1200 - 2400 - 12_000
    assert by_kind["red"]["handle"] == 400 and by_kind["red"]["win"] == 400 - 500
    assert by_kind["covers_zero"]["handle"] == 400  # straight 0 and split 0-1
    assert by_kind["covers_zero"]["expected_hold"] == pytest.approx(1 / 13)
    assert by_kind["not_zero"]["handle"] == 1600
    assert by_kind["not_zero"]["expected_hold"] == pytest.approx(1 / 26)


def test_810a5_outcome_counts_and_chi_square_are_exact(played):
    document = report()

    assert document["outcome_counts"] == [1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0]
    assert document["chi_square"] == "10.0000"
    assert document["chi_square_p"] == "0.615961"
    assert document["chi_square_alarm"] is False
    # The rounds here were drawn from an injected source, and the round recorded so (§ 810a.5).
    listed = [r for r in sections(document)["rng"]["rows"] if r["row_type"] == "detail"]
    assert [r["outcome"] for r in listed] == [0, 5, 7]
    assert all("FixedBits" in r["method"] for r in listed)


def test_810a5_rounds_drawn_by_the_os_csprng_are_not_listed(funded_player, live_offering):
    from portal.game.play.services import round_play

    round_play(
        player=funded_player,
        session=in_session(funded_player),
        offering_id=live_offering.pk,
        wagers=[{"kind": "red", "stake": 200}],
        idempotency_key="audit-csprng-1",
    )
    today = pa_date(datetime.datetime.now(UTC))
    document = audit_report(start=today, end=today)

    assert document["totals"]["rounds"] == 1
    assert sections(document)["rng"]["no_activity"]


def test_617b8_f_every_bet_is_settled_again_without_discrepancy(played):
    resettlement = report()["resettlement"]

    assert (resettlement["checked"], resettlement["rounds"]) == (6, 3)
    assert resettlement["discrepancies"] == []


def accounts_of(document) -> list[dict]:
    return [r for r in sections(document)["accounts"]["rows"] if r["row_type"] == "detail"]


def test_811a9_stakes_returns_and_the_account_reconcile(player, played):
    document = report()
    reconciliation = document["reconciliation"]

    assert reconciliation["ok"] is True
    assert reconciliation["stakes"] == {"rounds": 2000, "bets": 2000, "ledger": 2000}
    assert reconciliation["returns"] == {"rounds": 14_900, "bets": 14_900, "ledger": 14_900}
    assert reconciliation["accounts"] == {"checked": 1, "mismatched": []}
    [account] = accounts_of(document)
    assert (account["opening"], account["deposits"], account["stakes"], account["returns"]) == (
        0,
        100_000,
        2000,
        14_900,
    )
    assert (account["withdrawals"], account["carried_in"], account["carried_out"]) == (0, 0, 0)
    assert account["holder"] == played.holder.name
    assert account["closing"] == 112_900 and account["flag"] == "ok"
    last = Round.objects.filter(player=player).order_by("-sequence").first()
    assert reconciliation["round_chains"]["ok"] is True
    heads = [r for r in sections(document)["chains"]["rows"] if r.get("hash")]
    assert [(h["sequence"], h["hash"]) for h in heads] == [(3, last.hash)]
    assert reconciliation["audit_chain"]["ok"] is True
    assert len(reconciliation["audit_chain"]["head"]["hash"]) == 64


def test_811a7_a_tampered_bet_is_a_discrepancy_and_a_broken_chain(played):
    bet = Bet.objects.get(round__outcome=5, spot="black")
    append_only.drop_all(connection)
    try:
        Bet.objects.filter(pk=bet.pk).update(returned=400)
    finally:
        append_only.install_all(connection)

    document = report()

    [discrepancy] = [d for d in document["resettlement"]["discrepancies"] if d["spot"] == "black"]
    assert (discrepancy["paid"], discrepancy["settled"]) == (400, 0)
    assert document["reconciliation"]["ok"] is False
    assert document["reconciliation"]["round_chains"]["ok"] is False
    problems = [r for r in sections(document)["chains"]["rows"] if r.get("problem")]
    assert problems[0]["round"] == bet.round_id and "altered" in problems[0]["problem"]


def test_811a9_an_empty_period_says_no_activity(played):
    document = report(start=DAY - datetime.timedelta(days=3), end=DAY - datetime.timedelta(days=1))

    assert document["totals"]["rounds"] == 0
    for key in ("summary", "by_kind", "outcomes", "resettlement", "detail"):
        assert sections(document)[key]["no_activity"], key
    assert NO_ACTIVITY == "No Activity"
    assert document["reconciliation"]["ok"] is True


def test_811a9_the_detail_streams_one_row_per_bet(played):
    detail = sections(report())["detail"]

    rows = list(detail["stream"]())
    assert detail["row_count"] == len(rows) == 6
    keys = [c["key"] for c in detail["columns"]]
    first = dict(zip(keys, rows[0], strict=True))
    assert (first["outcome"], first["colour"], first["spot"], first["stake"]) == (
        0,
        "white",
        "red",
        200,
    )
    assert (first["returned"], first["win"]) == (100, 100)
    assert first["edge"] == pytest.approx(1 / 26)
    assert first["player"].startswith("P")


def test_811a9_big_wins_above_the_threshold_are_exceptions(played):
    document = report(win_threshold=10_800)

    rows = [r for r in sections(document)["big_wins"]["rows"] if r["row_type"] == "detail"]
    assert [(r["staked"], r["returned"], r["won"]) for r in rows] == [(1200, 12_000, 10_800)]
    assert sections(report(win_threshold=10_801))["big_wins"]["no_activity"]


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_routine_changes_are_listed_apart_and_not_counted_as_exceptions(
    played, manager_a, officer, holder_a
):
    with time_machine.travel(PLAYED_AT + datetime.timedelta(hours=1)):
        approved_offering(manager_a, officer, holder_a, name="Table 2")  # approvals that day
    document = report()
    found = sections(document)
    changes = [r for r in found["changes"]["rows"] if r["row_type"] == "detail"]

    assert len(changes) >= 3  # its layout, paytable and rules submission approved
    # What needs an auditor's attention, counted; the one round on a table not yet live.
    assert [(p["key"], p["count"]) for p in document["exceptions"]] == [
        ("big_wins", 0),
        ("generous", 0),
        ("voids", 0),
        ("adjustments", 0),
        ("late_corrections", 0),
        ("violations", 1),
    ]
    # The routine records beside them, each saying so in every format (its first note).
    assert [(p["key"], p["count"]) for p in document["routine"]] == [
        ("changes", len(changes)),
        ("exports", 0),
    ]
    for key in ("changes", "exports"):
        assert found[key]["notes"][0].startswith("Routine: listed for the record, not counted")
    keys = [s["key"] for s in document["sections"]]
    assert keys.index("violations") < keys.index("changes") < keys.index("exports")


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_report_runs_a_fixed_number_of_queries(player, played):
    from portal.game.play.services import round_play

    def count() -> int:
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            document = report()
            list(sections(document)["detail"]["stream"]())
        return len(queries)

    before = count()
    with time_machine.travel(PLAYED_AT + datetime.timedelta(hours=1)):
        for number in range(5):
            round_play(
                player=player,
                session=in_session(player),
                offering_id=played.pk,
                wagers=[
                    {"kind": "small", "stake": 200},
                    {"kind": "column", "numbers": [1, 4, 7, 10], "stake": 400},
                ],
                idempotency_key=f"audit-more-{number}",
            )

    assert count() == before == QUERIES


# Scope 4 (holders, offerings, the last round id, the void rounds); figures 6 (rounds,
# distinct players three ways, outcomes, odd RNG: the bets by spot and stake are the pass's
# own sums); the pass's 2 cursors (on PostgreSQL 3: the round ids, then the block's rounds
# and bets, two COPYs per block of 20,000 rounds, test_columnar_pass.py) and
# the round after each player's last and their wallets 2 (+1 per 1,000 players whose
# previous round is outside the report; these +2 per 1,000 players); paytable names 1;
# reconciliation 3 + voids and adjustments 1 + those applied to earlier gaming days 1 +
# the audit chain 3; big wins 1; voids and adjustments listed 2; corrections to earlier
# gaming days listed 1; the expiry report's world 7 and its two sections 3; exports 1; the
# detail's 2 cursors.
QUERIES = 40 + (settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql")


def _tamper(change) -> None:
    """Change stored rows as an attacker with the database would: triggers dropped."""
    append_only.drop_all(connection)
    try:
        change()
    finally:
        append_only.install_all(connection)


def test_811a7_a_deleted_latest_round_breaks_the_chain(player, played):
    from portal.game.models import LedgerEntry

    last = Round.objects.filter(player=player).order_by("-sequence").first()

    def delete_it():
        LedgerEntry.objects.filter(round=last).delete()
        Bet.objects.filter(round=last).delete()
        Round.objects.filter(pk=last.pk).delete()

    _tamper(delete_it)
    document = report()

    assert document["totals"]["rounds"] == 2
    assert document["reconciliation"]["round_chains"]["ok"] is False
    problems = [r["problem"] for r in sections(document)["chains"]["rows"] if r.get("problem")]
    assert any("later round is missing" in p for p in problems)
    assert document["reconciliation"]["ok"] is False


def test_811a9_a_forged_deposit_does_not_reconcile(player, played):
    from portal.game.models import LedgerEntry

    deposit = LedgerEntry.objects.get(kind="deposit")
    _tamper(lambda: LedgerEntry.objects.filter(pk=deposit.pk).update(amount=1))

    document = report()

    [account] = accounts_of(document)
    assert account["opening"] == 0 and account["deposits"] == 1
    assert account["flag"] == (
        f"ledger entry #{deposit.pk} says the balance is {deposit.balance_after}, the entries "
        "up to it add up to 1"
    )
    assert document["reconciliation"]["ok"] is False
    assert document["reconciliation"]["accounts"]["mismatched"] == [
        f"account #{deposit.account_id}"
    ]


@pytest.mark.clause("reading:one-account-per-holder", kind="related")
def test_811a9_a_holder_report_counts_only_its_rounds_and_hides_other_play(
    player, played, manager_b, officer, holder_b
):
    from portal.game.play.services import round_play
    from tests.portal.funding import wallet_top_up

    other = approved_offering(manager_b, officer, holder_b)
    with time_machine.travel(PLAYED_AT + datetime.timedelta(hours=1)):
        wallet_top_up(player=player, amount=10_000, holder=holder_b)
        round_play(
            player=player,
            session=in_session(player),
            offering_id=other.pk,
            wagers=[{"kind": "big", "stake": 600}],
            idempotency_key="audit-other-holder",
            rng=FixedBits(9),
        )

    everything = report()
    only_b = report(holder_id=holder_b.pk)

    assert [g["offering_id"] for g in everything["groups"]] == [played.pk, other.pk]
    assert (everything["totals"]["rounds"], everything["totals"]["handle"]) == (4, 2600)
    assert (only_b["totals"]["rounds"], only_b["totals"]["handle"]) == (1, 600)
    assert [g["offering_id"] for g in only_b["groups"]] == [other.pk]
    # Its previous round was at the other holder: the link is checked in the database.
    assert only_b["reconciliation"]["round_chains"]["ok"] is True
    assert only_b["reconciliation"]["ok"] is True
    # Only the player's account with holder B, with only B's money: nothing of the play,
    # deposits or balance at holder A's tables.
    [account] = accounts_of(only_b)
    assert account["holder"] == holder_b.name and account["flag"] == "ok"
    assert (account["opening"], account["deposits"], account["stakes"]) == (0, 10_000, 600)
    assert account["closing"] == 10_000 - 600 + account["returns"]
    assert len(accounts_of(everything)) == 2


def test_reading_player_internal_id_names_each_player_in_the_report(player, played):
    document = report()
    detail = sections(document)["detail"]
    keys = [c["key"] for c in detail["columns"]]
    rows = [dict(zip(keys, row, strict=True)) for row in detail["stream"]()]
    assert rows and {r["player"] for r in rows} == {f"P{player.pk}"}
    accounts = accounts_of(document)
    assert [a["player"] for a in accounts] == [f"P{player.pk}"]
    for row in rows + accounts:
        assert player.username not in {str(value) for value in row.values()}


class ShiftingBits(FixedBits):
    """Draws ``outcome`` after moving the clock on: the round ends ``by`` after it began."""

    def __init__(self, outcome: int, traveller, by: datetime.timedelta) -> None:
        super().__init__(outcome)
        self.traveller = traveller
        self.by = by

    def getrandbits(self, k: int) -> int:
        self.traveller.shift(self.by)
        return super().getrandbits(k)


def test_reading_round_start_day_a_round_across_midnight_counts_in_the_day_it_started(
    player, live_offering
):
    from portal.game.play.services import round_play
    from tests.portal.funding import wallet_top_up

    last_second = datetime.datetime(2026, 11, 17, 4, 59, 59, tzinfo=UTC)  # 23:59:59 EST
    assert pa_date(last_second) == DAY
    with time_machine.travel(PLAYED_AT):
        wallet_top_up(player=player, amount=100_000)
    with time_machine.travel(last_second, tick=False) as traveller:
        played = round_play(
            player=player,
            session=in_session(player),
            offering_id=live_offering.pk,
            wagers=[{"kind": "red", "stake": 200}],
            idempotency_key="across-midnight",
            rng=ShiftingBits(5, traveller, datetime.timedelta(seconds=2)),
        ).round

    assert pa_date(played.started_at) == DAY
    assert pa_date(played.ended_at) == DAY + datetime.timedelta(days=1)
    that_day = report()
    next_day = report(start=DAY + datetime.timedelta(days=1), end=DAY + datetime.timedelta(days=1))
    assert (that_day["totals"]["rounds"], that_day["totals"]["handle"]) == (1, 200)
    assert next_day["totals"]["rounds"] == 0


@pytest.mark.clause("reading:one-account-per-holder", kind="related")
def test_812a10_deposits_and_paid_withdrawals_reconcile_per_account_worked_by_hand(
    player, live_offering, payments_a
):
    """Each account over the day, by hand (§ 811a.9, § 812a.7, § 812a.10):

    The day before, the player deposits 10,000 with the table's holder; another player,
    from before accounts per holder, tops their single wallet up with 15,000. On the day
    (all at the holder's tables, in order):

        the upgrade carries the single wallet's 15,000 into the other player's account
        deposit by card              +50,000
        round, outcome 5: red 1,000  stake −1,000, return +2,000
        deposit of cash at the cage  +20,000
        withdrawal of 30,000         requested, then paid  −30,000
        withdrawal of 5,000          requested, still pending: held, no money moved
        round, outcome 3: straight 7 200   stake −200, no return

    The player's account: opening 10,000 + deposits 70,000 − withdrawals paid 30,000
    − stakes 1,200 + returns 2,000 = closing 50,800 (5,000 of it held back, not counted).
    The single wallet: opening 15,000 − carried out 15,000 = closing 0.
    The other player's account: opening 0 + carried in 15,000 = closing 15,000.
    """
    from portal.access.roles import Role
    from portal.game.models import GamingAccount, Wallet
    from portal.game.money.services.deposits import deposit_make, deposit_record
    from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
    from portal.game.play.services import round_play
    from tests.portal.factories import make_user
    from tests.portal.funding import wallet_top_up
    from tests.portal.integrity.legacy_money import carry_over, legacy_top_up

    holder = live_offering.holder
    earlier = make_user("earlier", Role.PLAYER)
    with time_machine.travel(PLAYED_AT - datetime.timedelta(days=1)):
        account = wallet_top_up(player=player, amount=10_000, holder=holder)
        legacy_top_up(earlier, 15_000)
    with time_machine.travel(PLAYED_AT):
        carry_over()  # before anyone played
        deposit_make(
            player=player, holder_id=holder.pk, amount=50_000, method="card", reference="4242"
        )
        round_play(
            player=player,
            session=in_session(player),
            offering_id=live_offering.pk,
            wagers=[{"kind": "red", "stake": 1000}],
            idempotency_key="worked-1",
            rng=FixedBits(5),
        )
        deposit_record(
            actor=payments_a,
            account_id=account.pk,
            amount=20_000,
            method="cash",
            reference="cage 1",
        )
        paid = withdrawal_request(player=player, account_id=account.pk, amount=30_000)
        withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH 42")
        withdrawal_request(player=player, account_id=account.pk, amount=5_000)
        round_play(
            player=player,
            session=in_session(player),
            offering_id=live_offering.pk,
            wagers=[{"kind": "straight", "numbers": [7], "stake": 200}],
            idempotency_key="worked-2",
            rng=FixedBits(3),
        )

    document = report()

    reconciliation = document["reconciliation"]
    assert reconciliation["ok"] is True
    assert reconciliation["accounts"] == {"checked": 3, "mismatched": []}
    moved = ("opening", "deposits", "withdrawals", "stakes", "returns", "carried_in")
    by_line = {
        (row["account"], row["player"]): tuple(row[key] for key in (*moved, "carried_out"))
        + (row["closing"], row["flag"])
        for row in accounts_of(document)
    }
    theirs = GamingAccount.objects.get(player=earlier)
    single = Wallet.objects.get(player=earlier)
    assert by_line == {
        (account.pk, f"P{player.pk}"): (10_000, 70_000, 30_000, 1_200, 2_000, 0, 0, 50_800, "ok"),
        (theirs.pk, f"P{earlier.pk}"): (0, 0, 0, 0, 0, 15_000, 0, 15_000, "ok"),
        ("single wallet", f"P{earlier.pk}"): (15_000, 0, 0, 0, 0, 0, 15_000, 0, "ok"),
    }
    account.refresh_from_db()
    assert (account.balance, account.held) == (50_800, 5_000)
    assert single.pk and reconciliation["stakes"]["ledger"] == 1_200
    totals = sections(document)["accounts"]["totals"]["values"]
    assert (totals["deposits"], totals["withdrawals"]) == (70_000, 30_000)
    assert totals["carried_in"] == totals["carried_out"] == 15_000
