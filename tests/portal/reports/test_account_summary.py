"""The daily Player Account Summary (§ 811a.9(d)(1)), worked by hand.

Holder A, minimum paytable, standard wheel (red {1,3,5,8,10,12}); noon in Pennsylvania:

    15 Nov  deposit 5,000 (demo)                                          balance  5,000
    16 Nov  promotional credit 1,000, recorded by payments staff            balance  6,000
            round, outcome 5: red 200 → 400; straight 7 100 → 0           balance  6,100
            a withdrawal of 2,000 is paid                                 balance  4,100
    17 Nov  the round is voided: 300 given back, 400 taken back           balance  4,000

The 16th: beginning 5,000; deposits 1,000 (of which promotional 1,000); transfers to games
300, from games 400, win or loss +100; withdrawals 2,000; ending 4,100. The void counts on
the 17th (reading:late-corrections): −100 there, 4,100 → 4,000.
"""

from __future__ import annotations

import datetime
import io

import pytest
import time_machine

from portal.core.padates import UTC, day_starts, pa_date
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.models import DepositMethod
from portal.game.money.services.deposits import deposit_record
from portal.game.money.services.withdrawals import withdrawal_pay, withdrawal_request
from portal.reports import render
from portal.reports.account_summary import account_summary
from portal.reports.models import ReportRun, RunStatus
from portal.reports.services import runs, schedules
from tests.portal.funding import wallet_top_up
from tests.portal.reports.test_late_corrections import _play

pytestmark = pytest.mark.django_db

NOON = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=UTC)
DAY = pa_date(NOON)
NEXT = DAY + datetime.timedelta(days=1)
LATER = NOON + datetime.timedelta(days=3)


@pytest.fixture
def day(player, live_offering, payments_a, supervisor_a, officer):
    with time_machine.travel(NOON - datetime.timedelta(days=1)):
        account = wallet_top_up(player=player, amount=5_000)
    with time_machine.travel(NOON):
        deposit_record(
            actor=payments_a,
            account_id=account.pk,
            amount=1_000,
            method=DepositMethod.PROMOTIONAL,
            reference="Welcome offer 12",
        )
        played = _play(
            player,
            live_offering,
            [{"kind": "red", "stake": 200}, {"kind": "straight", "numbers": [7], "stake": 100}],
            5,
            "summary-round-1",
        )
        paid = withdrawal_request(player=player, account_id=account.pk, amount=2_000)
        withdrawal_pay(actor=payments_a, withdrawal_id=paid.pk, payout_reference="ACH 9")
    with time_machine.travel(NOON + datetime.timedelta(days=1)):
        proposal = correction_propose(
            actor=supervisor_a, round_id=played.pk, kind="void", reason="RNG fault"
        )
        correction_approve(actor=officer, correction_id=proposal.pk)
    return account


def lines(document) -> list[dict]:
    [accounts] = document["sections"]
    return [row for row in accounts["rows"] if row["row_type"] == "detail"]


@pytest.mark.clause("811a.9(d)(1)", kind="proves")
def test_811a9_d_1_each_account_by_the_rules_categories(day, holder_a, player):
    document = account_summary(day=DAY, holder_id=holder_a.pk, now=LATER)

    [line] = lines(document)
    assert line == {
        "holder": holder_a.name,
        "account": f"Account #{day.pk}",
        "player": f"P{player.pk}",
        "opening": 5_000,
        "deposits": 1_000,
        "promotional": 1_000,
        "bonus_deposited": 0,
        "bonus_wagered": 0,
        "bonus_expired": 0,
        "to_games": 300,
        "from_games": 400,
        "withdrawals": 2_000,
        "on_game_start": 0,
        "on_game_end": 0,
        "win_loss": 100,
        "corrections": 0,
        "carried": 0,
        "closing": 4_100,
        "flag": "ok",
        "row_type": "detail",
    }
    assert document["title"] == "Player Account Summary"
    assert document["holder"] == holder_a.name
    assert document["period"] == {"gaming_day": DAY.isoformat()}
    assert document["reconciliation"] == {"ok": True, "accounts": 1, "mismatched": []}


def test_811a9_d_1_the_categories_are_named_and_the_readings_said(day, holder_a):
    [accounts] = account_summary(day=DAY, holder_id=holder_a.pk, now=LATER)["sections"]

    titles = [c["title"] for c in accounts["columns"]]
    for category in (
        "Beginning balance",
        "Deposits",
        "Noncashable bonuses deposited",
        "Noncashable bonuses wagered: tables",
        "Noncashable bonuses expired",
        "Transfers to games: tables",
        "Transfers from games: tables",
        "Withdrawals",
        "Funds on game at the start of the day",
        "Funds on game at the end of the day",
        "Player win or loss",
        "Ending balance",
    ):
        assert category in titles
    notes = " ".join(accounts["notes"])
    assert "Promotional credit is deposited as cash" in notes
    assert "not a noncashable bonus" in notes
    assert "Test accounts: none exist" in notes
    assert "reported under tables" in notes


def test_811a9_d_1_a_void_counts_on_the_day_it_was_applied(day, holder_a):
    [line] = lines(account_summary(day=NEXT, holder_id=holder_a.pk, now=LATER))

    assert (line["opening"], line["to_games"], line["from_games"]) == (4_100, 0, 0)
    assert (line["corrections"], line["closing"]) == (-100, 4_000)
    assert line["flag"] == "ok"


@pytest.mark.clause("811a.9", kind="proves")
def test_811a9_a_day_with_no_account_moving_says_no_activity(day, holder_a, holder_b):
    document = account_summary(day=DAY, holder_id=holder_b.pk, now=LATER)
    [accounts] = document["sections"]

    assert accounts["no_activity"] is True and accounts["totals"] is None
    quiet = account_summary(day=DAY - datetime.timedelta(days=5), now=LATER)
    assert quiet["sections"][0]["no_activity"] is True
    out = io.BytesIO()
    render.FORMATS["csv"][0](quiet, out)
    assert "No Activity" in out.getvalue().decode()


def test_811a9_d_1_every_holder_with_a_subtotal_each(day, holder_a, holder_b, player):
    document = account_summary(day=DAY, now=LATER)
    [accounts] = document["sections"]

    subtotals = [row for row in accounts["rows"] if row["row_type"] == "subtotal"]
    assert [row["label"] for row in subtotals] == [f"Subtotal {holder_a.name}"]
    assert accounts["totals"]["values"]["closing"] == 4_100
    assert document["holder"] == "All certificate holders"


def test_811a9_d_1_another_holders_gaming_day_is_its_own(day, holder_a):
    # A day that starts at 13:00: the 16th's noon belongs to the 15th.
    holder_a.gaming_day_start_hour = 13
    holder_a.save(update_fields=["gaming_day_start_hour"])

    [line] = lines(account_summary(day=DAY - datetime.timedelta(days=1), now=LATER))

    assert (line["opening"], line["deposits"], line["closing"]) == (5_000, 1_000, 4_100)


def test_811a9_d_1_the_schedule_makes_each_holders_previous_day_once(
    day, holder_a, holder_b, settings, tmp_path
):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    now = day_starts(NEXT, 0) + datetime.timedelta(minutes=20)

    with time_machine.travel(now):
        first = schedules.account_summaries_daily(now=now)
        again = schedules.account_summaries_daily(now=now)
        for run in first:
            runs.report_run_execute(run_id=run.pk)

    assert {run.holder_id: run.parameters["day"] for run in first} == {
        holder_a.pk: DAY.isoformat(),
        holder_b.pk: DAY.isoformat(),
    }
    assert [run.pk for run in again] == [run.pk for run in first]
    done = ReportRun.objects.filter(pk__in=[run.pk for run in first])
    assert set(done.values_list("status", flat=True)) == {RunStatus.SUCCEEDED}
    entry = settings.CELERY_BEAT_SCHEDULE["account-summary-daily"]
    assert entry["schedule"].minute == {20} and len(entry["schedule"].hour) == 24


def test_811a9_d_1_asked_for_on_the_reports_page(
    day, client, auditor, holder_a, settings, tmp_path
):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    client.force_login(auditor)
    with time_machine.travel(LATER):
        asked = client.post(
            "/reports/", {"kind": "account_summary", "day": DAY.isoformat(), "holder": holder_a.pk}
        )
        assert asked.status_code == 302, asked.content
        run = ReportRun.objects.get(kind="account_summary")
        runs.report_run_execute(run_id=run.pk)
    page = " ".join(client.get(f"/reports/{run.pk}/").content.decode().split())

    assert "Player Account Summary" in page
    assert "Gaming day 16 November 2026" in page
    assert f"Holder: {holder_a.name}" in page


def test_811a9_d_1_a_day_not_yet_begun_is_refused(client, auditor):
    client.force_login(auditor)
    tomorrow = (pa_date(datetime.datetime.now(UTC)) + datetime.timedelta(days=1)).isoformat()

    refused = client.post("/reports/", {"kind": "account_summary", "day": tomorrow})

    assert refused.status_code == 400
    assert f"The gaming day ({tomorrow}) is after today" in refused.content.decode()
    assert not ReportRun.objects.exists()
