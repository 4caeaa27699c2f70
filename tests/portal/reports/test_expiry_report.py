"""The expiry report (§ 617b.8's sunset, § 601a.10 approvals, § 811a.9 report shape)."""

from __future__ import annotations

import datetime
import hashlib
import io
import re

import pytest
import time_machine
from django.utils import timezone

from portal.compliance.models import SUNSET, Layout, OfferingStatus, RecordStatus
from portal.compliance.services.expiry import records_expire_due
from portal.compliance.services.layouts import layout_submit, layout_withdraw
from portal.compliance.services.paytables import (
    paytable_amend,
    paytable_approve,
    paytable_submit,
    paytable_withdraw,
)
from portal.compliance.services.rules import (
    rules_submission_amend,
    rules_submission_approve,
    rules_submission_submit,
    rules_submission_update,
)
from portal.core.padates import day_starts, pa_date, pa_today
from portal.game.models import Round
from portal.game.play.services import round_play
from portal.reports import render
from portal.reports.expiry import expiry_report, register
from tests.portal.factories import (
    approved_offering,
    in_session,
    listing,
    make_layout,
    make_rules,
    offering_in_force,
)

pytestmark = pytest.mark.django_db


def written_csv(document) -> str:
    out = io.BytesIO()
    render.write_csv(document, out)
    return out.getvalue().decode()


DAY = datetime.timedelta(days=1)
KEYS = ["rule", "approvals", "superseded", "offerings", "changes", "stuck", "job", "violations"]


def sections(document) -> dict:
    return {s["key"]: s for s in document["sections"]}


def details(document, key) -> list[dict]:
    return [r for r in sections(document)[key]["rows"] if r["row_type"] == "detail"]


def row_of(document, key, **match) -> dict:
    rows = [r for r in details(document, key) if all(r[k] == v for k, v in match.items())]
    assert len(rows) == 1, rows
    return rows[0]


def play(player, offering, key="report-round-1"):
    wagers = [{"kind": "straight", "numbers": [1], "stake": 200}]
    return round_play(
        player=player,
        session=in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=key,
    ).round


def copy_round(played: Round, started_at: datetime.datetime) -> Round:
    """A round row like ``played`` at another time (rounds are append-only: inserted, never
    changed)."""
    fields = Round.objects.filter(pk=played.pk).values().get()
    fields.pop("id")
    count = Round.objects.filter(player_id=played.player_id).count()
    fields.update(
        idempotency_key=f"copy-{count}",
        sequence=played.sequence + count,
        hash=hashlib.sha256(f"copy-{played.pk}-{count}".encode()).hexdigest(),
        started_at=started_at,
        bets_closed_at=started_at + datetime.timedelta(seconds=1),
        ended_at=started_at + datetime.timedelta(seconds=2),
    )
    return Round.objects.create(**fields)


def layout_lapsing(manager, officer, holder, expiry: datetime.date):
    """A live table whose layout's approval expires on ``expiry`` (a PA date)."""
    return offering_in_force(
        manager,
        officer,
        holder,
        effective=datetime.date(2025, 7, 1),
        expiry=datetime.date(2028, 1, 1),
        layout_expiry=expiry,
    )


def test_811a9_the_header_names_title_versions_holder_period_time_and_filters(live_offering):
    calls = []
    now = datetime.datetime(2026, 11, 30, 15, 26, 12, tzinfo=datetime.UTC)
    document = expiry_report(
        as_of=datetime.date(2026, 11, 30), now=now, progress=lambda *a: calls.append(a)
    )

    assert document["report"] == "expiry"
    assert document["title"] == "Expiry report"
    assert document["definition_version"] == "2"  # 2: superseded versions still in play
    assert set(document["software_versions"]) == {"portal", "engine"}
    assert all(document["software_versions"].values())
    assert document["holder"] == "All certificate holders"
    assert document["period"] == {"as_of": "2026-11-30"}
    assert document["generated_at"] == {
        "pa": "2026-11-30T10:26:12-05:00",
        "utc": "2026-11-30T15:26:12+00:00",
    }
    assert document["filters"] == {"holder": None, "offering": None}
    assert [s["key"] for s in document["sections"]] == KEYS
    assert calls == [(n, 8) for n in range(1, 9)]
    for s in document["sections"]:
        assert s["title"] and s["columns"] and s["notes"]
        keys = {c["key"] for c in s["columns"]}
        for row in s["rows"]:
            if row["row_type"] == "detail":
                assert set(row) - {"row_type"} == keys
            else:
                assert row["row_type"] == "subtotal" and row["label"]
    approvals = sections(document)["approvals"]
    assert approvals["totals"]["label"] == "Total"
    assert [r["label"] for r in approvals["rows"] if r["row_type"] == "subtotal"] == [
        "Keystone Casino"
    ]


def test_617b8_the_rule_is_in_force_until_the_sunset(db):
    rule = details(expiry_report(as_of=datetime.date(2028, 6, 13)), "rule")[0]
    assert (rule["in_force"], rule["days_left"]) == (True, 1)
    assert (rule["effective"], rule["sunset"]) == ("2025-06-14", "2028-06-14")


def test_601a10_layout_expiring_within_30_days_is_bucketed_and_its_table_flagged(
    manager_a, officer, holder_a
):
    today = pa_today()
    offering = layout_lapsing(manager_a, officer, holder_a, today + 20 * DAY)
    document = expiry_report(as_of=today)

    layout = row_of(document, "approvals", kind="layout")
    assert (layout["days_left"], layout["bucket"], layout["flag"]) == (20, "<= 30 days", "")
    assert layout["status_on_date"] == "In force"
    assert layout["reference"] == "BGO-DATED-0001"
    assert layout["decided_by"] == "officer" and layout["decided_at"]
    assert layout["offerings"] == offering.name
    paytable = row_of(document, "approvals", kind="paytable")
    assert (paytable["expiry"], paytable["expiry_basis"]) == ("2028-06-14", "sunset")
    table = row_of(document, "offerings", name=offering.name)
    assert table["live"] is True
    assert table["flag"] == "live with a part expiring within 30 days"
    assert table["goes_dark"] == (today + 20 * DAY).isoformat()
    assert "layout" in table["dark_by"]


def test_617b8_stored_approval_whose_dates_lapsed_is_flagged_until_the_job_runs(
    manager_a, officer, holder_a
):
    today = pa_today()
    offering = layout_lapsing(manager_a, officer, holder_a, today + DAY)
    later = expiry_report(as_of=today + 3 * DAY)

    layout = row_of(later, "approvals", kind="layout")
    assert (layout["status"], layout["status_on_date"]) == ("Approved", "Lapsed")
    assert "expiry job has not run" in layout["flag"]
    assert (layout["days_left"], layout["bucket"]) == (0, "expired")
    table = row_of(later, "offerings", name=offering.name)
    assert table["live"] is False and table["flag"] == "active but not live"
    assert "expired on" in table["reasons"]
    assert any(
        "still stored approved" in n and ": 1 " in n for n in sections(later)["job"]["notes"]
    )

    records_expire_due(today=today + DAY)  # stored expired; the dates hold today
    layout = row_of(expiry_report(as_of=today), "approvals", kind="layout")
    assert layout["status"] == "Expired"
    assert layout["flag"].startswith("stored expired, but its dates hold")


def test_811a9_an_empty_period_says_no_activity(live_offering):
    document = expiry_report(as_of=datetime.date(2026, 1, 1))  # before anything happened
    changes = sections(document)["changes"]
    assert changes["rows"] == [] and changes["no_activity"] is True
    assert "30 Pennsylvania days 2025-12-03 to 2026-01-01" in changes["notes"][0]


def test_811a9_an_empty_database_has_no_activity_but_the_rule(db):
    document = expiry_report(as_of=pa_today())
    assert [s["key"] for s in document["sections"] if not s["no_activity"]] == ["rule"]
    assert any("never ran" in n for n in sections(document)["job"]["notes"])
    assert sections(document)["approvals"]["totals"] is None


def test_617b8_at_the_sunset_nothing_is_in_force_and_every_active_table_is_flagged(
    live_offering, manager_a, officer, holder_a
):
    second = approved_offering(manager_a, officer, holder_a, name="Table 2")
    document = expiry_report(as_of=SUNSET)

    rule = details(document, "rule")[0]
    assert (rule["in_force"], rule["days_left"]) == (False, 0)
    tables = details(document, "offerings")
    assert {t["name"] for t in tables} == {live_offering.name, second.name}
    assert all("active after the sunset" in t["flag"] and not t["live"] for t in tables)
    approved = [r for r in details(document, "approvals") if r["status"] == "Approved"]
    assert approved and all(r["status_on_date"] == "Lapsed" for r in approved)
    assert all(r["bucket"] == "expired" for r in approved)


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_expiry_report_shows_statuses_in_the_pages_words(live_offering, officer):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")
    document = expiry_report(as_of=pa_today())
    words = {
        *RecordStatus.labels,
        *OfferingStatus.labels,
        register.LAPSED,
        register.NOT_YET_IN_FORCE,
        register.IN_FORCE,
    }

    shown = [
        row[key]
        for part in document["sections"]
        for row in part["rows"]
        for key in ("status", "status_on_date")
        if row["row_type"] == "detail" and key in row
    ]
    assert shown and set(shown) <= words  # labels, never the stored values
    assert not set(shown) & {*RecordStatus.values, *OfferingStatus.values}
    layout = row_of(document, "approvals", kind="layout")
    assert (layout["status"], layout["status_on_date"]) == ("Withdrawn", "Withdrawn")
    assert row_of(document, "offerings", name=live_offering.name)["status"] == "Active"
    text = written_csv(document)
    assert ",Withdrawn," in text and ",withdrawn," not in text and ",approved," not in text


def test_601a2_drafts_that_can_no_longer_be_approved_are_stuck(live_offering, manager_a, officer):
    today = pa_today()
    holder = live_offering.holder
    draft = make_rules(
        manager_a,
        holder,
        live_offering.paytable,
        live_offering.layout,
        title="Short-lived rules",
        effective_date=datetime.date(2025, 7, 1),
        expiry_date=today + DAY,
    )
    assert details(expiry_report(as_of=today), "stuck") == []

    stuck = row_of(expiry_report(as_of=today + 2 * DAY), "stuck", title="Short-lived rules")
    assert stuck["status"] == "Draft" and "is not after" in stuck["flag"]

    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")
    stuck = row_of(expiry_report(as_of=today), "stuck", title=draft.title)
    assert "which is withdrawn" in stuck["flag"]


def test_601a10_a_layout_review_past_15_days_is_stuck(manager_a, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    assert details(expiry_report(as_of=layout.review_due), "stuck") == []

    row = row_of(expiry_report(as_of=layout.review_due + DAY), "stuck", kind="layout")
    assert row["days_overdue"] == 1 and "§ 601a.10(a)" in row["flag"]
    assert row["review_due"] == layout.review_due.isoformat()


def test_811a9_the_holder_and_offering_filters_restrict_every_section(
    live_offering, manager_b, officer, holder_b
):
    other = approved_offering(manager_b, officer, holder_b, name="Table B")
    document = expiry_report(as_of=pa_today(), holder_id=holder_b.pk)

    assert document["holder"] == "Susquehanna Gaming"
    assert document["filters"] == {"holder": holder_b.pk, "offering": None}
    for key in ("approvals", "offerings", "changes"):
        rows = details(document, key)
        assert rows and {r["holder"] for r in rows} == {"Susquehanna Gaming"}, key

    only = expiry_report(as_of=pa_today(), offering_id=other.pk)
    assert [t["name"] for t in details(only, "offerings")] == ["Table B"]
    assert len(details(only, "approvals")) == 3  # its three series, one version each
    assert {r["subject"] for r in details(only, "changes") if "offering" in r["change"]} == {
        "Table B"
    }


def test_811a7_changes_and_the_job_come_from_the_audit_trail_and_availability_log(
    live_offering, officer
):
    today = pa_today()
    paytable_withdraw(actor=officer, paytable=live_offering.paytable, reason="Pulled")
    changes = details(expiry_report(as_of=today), "changes")
    kinds = [r["change"] for r in changes]
    assert {"layout approved", "paytable withdrawn", "offering opened", "offering closed"} <= set(
        kinds
    )
    assert row_of(expiry_report(as_of=today), "changes", change="paytable withdrawn")["by"] == (
        "officer"
    )

    expiry = live_offering.layout.expiry_date
    with time_machine.travel(day_starts(expiry) + datetime.timedelta(hours=1), tick=False):
        records_expire_due()
    job = sections(expiry_report(as_of=expiry))["job"]
    # When it ran, in Pennsylvania time with its zone (an hour after the expiry's midnight).
    assert re.match(rf"Last ran: {expiry} 01:00:00 E[SD]T \(its latest change\)", job["notes"][0])
    assert {r["change"] for r in job["rows"]} == {"layout expired", "rules submission expired"}


def test_810a11_rounds_played_within_every_approval_are_no_violation(funded_player, live_offering):
    played = play(funded_player, live_offering)
    document = expiry_report(as_of=pa_date(played.started_at) + 7 * DAY)

    violations = sections(document)["violations"]
    assert violations["no_activity"] is True
    assert "No round was played on an offering that was not live." in violations["notes"]
    table = row_of(document, "offerings", name=live_offering.name)
    assert table["rounds"] == 1 and table["last_round_ended"]


def test_810a11_round_after_its_layout_expired_is_a_violation(funded_player, live_offering):
    played = play(funded_player, live_offering)
    expiry = live_offering.layout.expiry_date
    copy_round(played, day_starts(expiry) + datetime.timedelta(hours=9))

    assert details(expiry_report(as_of=expiry - DAY), "violations") == []  # not yet played
    document = expiry_report(as_of=expiry + 7 * DAY)
    (row,) = details(document, "violations")
    assert row["offering"] == live_offering.name and row["rounds"] == 2
    assert re.search(
        rf"played after the layout v1 was expired \({expiry} 00:00 E[SD]T\)", row["flag"]
    )
    assert sections(document)["violations"]["totals"]["values"] == {"rounds": 2}


def test_810a11_round_after_a_withdrawal_or_before_the_approval_is_a_violation(
    funded_player, live_offering, officer
):
    played = play(funded_player, live_offering)
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Recalled")
    late = copy_round(played, timezone.now() + datetime.timedelta(minutes=1))
    copy_round(played, Layout.objects.get(pk=live_offering.layout_id).decided_at - DAY)

    (row,) = details(expiry_report(as_of=pa_date(late.started_at)), "violations")
    assert "played after the layout v1 was withdrawn" in row["flag"]
    assert "played before the layout v1 held" in row["flag"]
    assert row["rounds"] == 3


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_report_runs_a_fixed_number_of_queries(
    funded_player, live_offering, manager_a, manager_b, officer, holder_a, holder_b,
    django_assert_num_queries,
):  # fmt: skip
    play(funded_player, live_offering)
    today = pa_today()
    with django_assert_num_queries(11):
        small = expiry_report(as_of=today)
    with django_assert_num_queries(12):
        expiry_report(as_of=today, holder_id=holder_a.pk)

    for n in range(2, 5):
        table = approved_offering(manager_a, officer, holder_a, name=f"Table {n}")
        play(funded_player, table, key=f"report-round-{n}")
    approved_offering(manager_b, officer, holder_b, name="Table B")
    make_layout(manager_a, holder_a, title="Another draft")
    with django_assert_num_queries(11):
        large = expiry_report(as_of=today)
    with django_assert_num_queries(12):
        expiry_report(as_of=today, holder_id=holder_a.pk)
    assert len(details(large, "approvals")) > 3 * len(details(small, "approvals"))
    assert len(details(large, "offerings")) == 5


def test_reading_open_approval_sunset_an_approval_without_an_expiry_holds_until_the_sunset(
    live_offering,
):
    eve = SUNSET - DAY
    paytable = row_of(expiry_report(as_of=eve), "approvals", kind="paytable")
    assert paytable["status"] == "Approved"
    assert (paytable["expiry"], paytable["expiry_basis"]) == ("2028-06-14", "sunset")
    assert (paytable["status_on_date"], paytable["days_left"]) == ("In force", 1)
    assert paytable["bucket"] != "expired"

    at_sunset = row_of(expiry_report(as_of=SUNSET), "approvals", kind="paytable")
    assert (at_sunset["status_on_date"], at_sunset["days_left"]) == ("Lapsed", 0)


def _paytable_v2(manager, officer, offering):
    draft = paytable_amend(actor=manager, paytable=offering.paytable)
    return paytable_approve(actor=officer, paytable=paytable_submit(actor=manager, paytable=draft))


def test_reading_supersede_the_report_counts_superseded_versions_still_in_play(
    funded_player, live_offering, manager_a, officer
):
    v2 = _paytable_v2(manager_a, officer, live_offering)
    played = play(funded_player, live_offering)  # still on v1, which it lists
    document = expiry_report(as_of=pa_today())

    (row,) = details(document, "superseded")
    assert (row["kind"], row["version"], row["superseded_by"]) == ("paytable", 1, "v2")
    assert row["offerings"] == live_offering.name and row["tables"] == 1
    assert row["rules"] == "'Jinzi Roulette rules' v1"
    assert "amend rules submission 'Jinzi Roulette rules' v1 to list v2" in row["flag"]
    assert sections(document)["superseded"]["totals"]["values"]["tables"] == 1
    # Played on v1 after it was superseded, as its rules submission listed it: no violation.
    assert played.paytable_id == live_offering.paytable_id
    assert details(document, "violations") == []

    # The amendment approved moves the table: nothing superseded is left in play.
    draft = rules_submission_amend(actor=manager_a, submission=live_offering.rules_submission)
    draft = rules_submission_update(
        actor=manager_a, submission=draft, games=[listing(v2, live_offering.layout)]
    )
    rules_submission_approve(
        actor=officer, submission=rules_submission_submit(actor=manager_a, submission=draft)
    )
    assert sections(expiry_report(as_of=pa_today()))["superseded"]["no_activity"] is True
