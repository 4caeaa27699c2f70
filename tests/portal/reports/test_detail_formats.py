"""The audit report's detail in its three files of rows: the CSV made by PostgreSQL's COPY is
the very bytes of the Python path's, the Parquet file holds the same rows typed, and the
XLSX keeps to one sheet (test_render.py holds its limit).

The day played: two holders (one's table named like a formula), the minimum paytable and a
generous one whose splits and straight ups pay fractional odds (returns rounded up,
reading:round-up), a void round (§ 617a.6), a round at a whole second and a round that
starts before midnight in Pennsylvania and ends after it.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from zoneinfo import ZoneInfo

import pytest
import time_machine
from django.db import connection

from portal.accounts.models import CertificateHolder
from portal.compliance.services.paytables import paytable_approve, paytable_submit
from portal.compliance.services.rules import rules_submission_approve, rules_submission_submit
from portal.core import append_only
from portal.core.csv_export import safe_cell
from portal.core.padates import UTC
from portal.core.software import running_identity
from portal.game.corrections.services import correction_approve, correction_propose
from portal.game.models import Round
from portal.game.play.services import round_play
from portal.reports import render
from portal.reports.audit_report import audit_report
from portal.reports.audit_report.reading import copy_out, detail_copy, detail_statements
from portal.reports.audit_report.sections import detail
from portal.reports.render.tabular import csv_column_title, percent_number
from tests.portal.factories import (
    MINIMUM_ODDS,
    acknowledged,
    approved_layout,
    approved_offering,
    in_session,
    listing,
    make_offering,
    make_paytable,
    make_rules,
)
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

pytestmark = pytest.mark.django_db

PA = ZoneInfo("America/New_York")
NOON = datetime.datetime(2026, 11, 16, 12, 0, tzinfo=PA)
BEFORE_MIDNIGHT = datetime.datetime(2026, 11, 16, 23, 59, 59, 999_990, tzinfo=PA)
DAYS = (datetime.date(2026, 11, 16), datetime.date(2026, 11, 17))
GENEROUS = {**MINIMUM_ODDS, "split": "16/3", "straight": "34/3"}


def _generous_table(manager, officer, holder):
    paytable = paytable_submit(
        actor=manager, paytable=make_paytable(manager, holder, odds=GENEROUS)
    )
    paytable = paytable_approve(
        actor=officer,
        paytable=paytable,
        override_reason="Promotion",
        edge_acknowledged=acknowledged(paytable),
    )
    layout = approved_layout(manager, officer, holder)
    small = listing(paytable, layout, chip_unit=2, min_wager=2, max_wager=1_000)
    rules = make_rules(manager, holder, paytable, layout, games=[small])
    rules = rules_submission_submit(actor=manager, submission=rules)
    rules = rules_submission_approve(
        actor=officer,
        submission=rules,
        reason="2-cent promotion",
        edge_acknowledged=acknowledged(rules),
    )
    return make_offering(manager, holder, rules, layout, paytable, name="Promo table")


def _play(player, offering, key: str, outcome: int, wagers: list[dict], session=None):
    return round_play(
        player=player,
        session=session or in_session(player),
        offering_id=offering.pk,
        wagers=wagers,
        idempotency_key=f"detail-round-{key}",
        rng=FixedBits(outcome),
    ).round


@pytest.fixture
def day(player, live_offering, holder_a, holder_b, manager_a, manager_b, officer, supervisor_a):
    generous = _generous_table(manager_a, officer, holder_a)
    other = approved_offering(manager_b, officer, holder_b, name="=Table B")
    CertificateHolder.objects.filter(pk=holder_b.pk).update(name="-Minus Gaming, Inc.")
    straight = {"kind": "straight", "numbers": [5], "stake": 6}
    split = {"kind": "split", "numbers": [1, 2], "stake": 4}
    with time_machine.travel(NOON, tick=False):  # whole seconds: no microseconds
        wallet_top_up(player=player, amount=50_000)
        wallet_top_up(player=player, amount=50_000, holder=holder_b)
        voided = _play(player, live_offering, "a", 7, [{"kind": "red", "stake": 200}])
        _play(player, generous, "b", 5, [straight, split, {"kind": "black", "stake": 2}])
        _play(player, generous, "c", 0, [{**straight, "stake": 2}, {**split, "stake": 8}])
        _play(player, other, "d", 0, [{"kind": "red", "stake": 100}])
        proposal = correction_propose(
            actor=supervisor_a, round_id=voided.pk, kind="void", reason="RNG fault 17"
        )
        correction_approve(actor=officer, correction_id=proposal.pk)
    with time_machine.travel(BEFORE_MIDNIGHT - datetime.timedelta(minutes=1), tick=False):
        session = in_session(player)  # signed in a minute before
    with time_machine.travel(BEFORE_MIDNIGHT, tick=True):  # starts on the 16th, ends the 17th
        bets = [split, {"kind": "straight", "numbers": [1], "stake": 2}]
        _play(player, generous, "e", 1, bets, session=session)
    return voided


def report():
    return audit_report(start=DAYS[0], end=DAYS[1], now=NOON + datetime.timedelta(days=3))


def written(writer, document) -> bytes:
    out = io.BytesIO()
    writer(document, out)
    return out.getvalue()


def the_python_path(document) -> dict:
    """The document with its detail made only by iterating (no faster route offered)."""
    sections = []
    for section in document["sections"]:
        if section.get("streamed"):
            stream = section["stream"]
            section = {**section, "stream": lambda stream=stream: iter(stream())}
        sections.append(section)
    return {**document, "sections": sections}


def detail_lines(data: bytes) -> tuple[list[str], list[list[str]]]:
    """The detail's column titles and rows, as the CSV has them."""
    rows = list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))
    at = rows.index(["Detail: every bet"])
    end = rows.index([], at)
    return rows[at + 1], rows[at + 2 : end - 1]  # the last line before the blank: its note


@pytest.mark.postgres
@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_copy_csv_detail_is_byte_identical_to_the_python_paths(day):
    document = report()
    [section] = [s for s in document["sections"] if s.get("streamed")]
    assert section["stream"]().write_csv(io.BytesIO()) is True  # the COPY route is taken

    by_copy = written(render.write_csv, document)
    by_python = written(render.write_csv, the_python_path(document))

    assert by_copy == by_python
    titles, rows = detail_lines(by_copy)
    assert titles == [csv_column_title(c) for c in detail.COLUMNS]
    assert len(rows) == document["totals"]["bets"] + 1  # the void round's bet is listed too
    cells = {title: [row[i] for row in rows] for i, title in enumerate(titles)}
    # Each bet's round's state in the round lists' words: the void round's one bet, the rest
    # complete (§ 617a.6).
    assert cells["Round state"].count("Void") == 1
    assert set(cells["Round state"]) == {"Void", "Complete"}
    assert (
        "'=Table B" in cells["Offering"] and "'-Minus Gaming, Inc." in cells["Certificate holder"]
    )
    assert {"16/3", "34/3", "1"} <= set(cells["Odds (to 1)"])
    assert "2026-11-16T17:00:00+00:00" in cells["Started"]  # a whole second: no microseconds
    crossing = [
        (start, end)
        for start, end in zip(cells["Started"], cells["Ended"], strict=True)
        if start.startswith("2026-11-17T04:59:59.")
    ]
    assert crossing and all(end >= "2026-11-17T05:00:00" for _, end in crossing)
    # A 4-cent split at 16 to 3 wins 26 (76/3 rounded up): −1/26 as paid, −3.846 %.
    assert "-3.846" in cells["House edge (%)"]
    # The game software each round was played under (§ 461a.4), as its record names it.
    assert set(cells["Software"]) == {running_identity().digest}


@pytest.mark.clause("461a.4", kind="related")
def test_461a4_every_detail_row_names_the_software_its_round_was_played_under(day):
    played_before = Round.objects.order_by("pk").first()
    append_only.drop_all(connection)
    try:  # as a round recorded before the identity was kept
        Round.objects.filter(pk=played_before.pk).update(software_identity="")
    finally:
        append_only.install_all(connection)

    titles, rows = detail_lines(written(render.write_csv, report()))

    software = {row[0]: row[titles.index("Software")] for row in rows}
    assert software.pop(str(played_before.pk)) == ""
    assert set(software.values()) == {running_identity().digest}


@pytest.mark.clause("617a.6", kind="related")
def test_617a6_every_detail_row_says_its_rounds_state_the_void_rounds_bet_void(day):
    voided = day
    document = report()
    titles, rows = detail_lines(written(render.write_csv, the_python_path(document)))
    state, round_id = titles.index("Round state"), titles.index("Round id")

    states = {(row[round_id], row[state]) for row in rows}
    assert (str(voided.pk), "Void") in states
    assert {word for _, word in states} == {"Void", "Complete"}  # never blank, never a code
    assert [row[state] for row in rows].count("Void") == 1  # its one bet


@pytest.mark.postgres
@pytest.mark.parametrize("narrowed", ["holder", "offering", "nothing played"])
def test_the_copy_csv_detail_reads_the_rounds_the_scope_reads(day, holder_b, narrowed):
    from django.db.models import Q

    from portal.game.models import Round
    from portal.reports.audit_report.scope import scope_of

    promo = Round.objects.filter(~Q(offering__holder=holder_b)).latest("pk").offering_id
    start, end = DAYS
    if narrowed == "nothing played":
        start = end = DAYS[1] + datetime.timedelta(days=1)
    scope = scope_of(
        start=start,
        end=end,
        holder_id=holder_b.pk if narrowed == "holder" else None,
        offering_id=promo if narrowed == "offering" else None,
        cutoff=NOON + datetime.timedelta(days=3),
    )
    by_copy, by_python = io.BytesIO(), io.BytesIO()
    assert detail.detail_rows(scope).write_csv(by_copy) is True
    with render.common.text_stream(by_python) as text:
        kinds = [c["type"] for c in detail.COLUMNS]
        csv.writer(text).writerows(
            [render.tabular._csv_cell(k, v) for k, v in zip(kinds, values, strict=True)]
            for values in iter(detail.detail_rows(scope))
        )

    assert by_copy.getvalue() == by_python.getvalue()
    lines = by_copy.getvalue().count(b"\r\n")
    assert lines == {"holder": 1, "offering": 7, "nothing played": 0}[narrowed]


@pytest.mark.postgres
def test_where_the_sql_cannot_promise_the_values_the_python_path_writes_the_same_csv(
    day, monkeypatch
):
    monkeypatch.setattr(detail_copy, "EXACT_BELOW", 1)  # every rounded edge out of its reach
    document = report()
    [section] = [s for s in document["sections"] if s.get("streamed")]
    assert section["stream"]().write_csv(io.BytesIO()) is False  # declined, nothing written

    assert written(render.write_csv, document) == written(
        render.write_csv, the_python_path(document)
    )


@pytest.mark.postgres
@pytest.mark.clause("reading:round-up", kind="related")
@pytest.mark.parametrize("odds", [GENEROUS, {**MINIMUM_ODDS, "split": "51/10", "street": "31/10"}])
def test_reading_round_up_the_sqls_edge_at_every_stake_is_the_python_paths(odds):
    """Stake by stake, 2 to 20,000 cents, the percent the SQL works out in whole numbers is
    the one the CSV writes from the exact edge as paid (``spots.Edges``)."""
    from django.db import connection

    from portal.reports.audit_report.figures.spots import Edges

    spots = ["split:1-2", "split:0-1", "straight:5", "straight:0", "street:1-2-3", "red"]
    lookup = detail_copy.spot_lookup([odds], [20_000])
    places = json.loads(lookup["spot_places"])
    query = (
        "SELECT b.spot, b.stake, " + detail_statements._PERCENT + " AS percent FROM ("
        "SELECT spot, stake, ({spot_places}::jsonb ->> spot)::int AS spot_at"
        " FROM unnest({spots}::text[]) AS spot, generate_series(1, 20000) AS stake) b"
    )
    with connection.cursor() as cursor:
        cursor.execute(copy_out.bound(query, {**lookup, "spots": spots}))
        names = [column.name for column in cursor.description]
        found = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    edges = Edges()
    assert {row["spot"] for row in found} == set(spots) and set(places) >= set(spots)
    for row in found:
        expected = percent_number(float(edges.of(odds, row["spot"], row["stake"])))
        assert row["percent"] == str(expected), row


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_parquet_detail_holds_every_csv_row_typed(day):
    import pyarrow as pa
    import pyarrow.parquet as pq

    document = report()
    table = pq.read_table(io.BytesIO(written(render.FORMATS["parquet"][0], document)))
    titles, rows = detail_lines(written(render.write_csv, document))

    types = {
        "integer": pa.int64(),
        "money": pa.int64(),
        "datetime": pa.timestamp("us", tz="UTC"),
        "percent": pa.float64(),
        "text": pa.string(),
    }
    assert [f.type for f in table.schema] == [types[c["type"]] for c in detail.COLUMNS]
    assert [f.metadata[b"key"].decode() for f in table.schema] == [c["key"] for c in detail.COLUMNS]
    # Names for analysts' tools: snake_case, the unit in the name, no spaces or signs.
    assert all(re.fullmatch(r"[a-z0-9_]+", name) for name in table.schema.names)
    assert {"stake_cents", "win_cents", "edge_fraction", "started_utc"} <= set(table.schema.names)
    assert table.schema.metadata[b"Title"] == b"Audit report"
    assert table.num_rows == len(rows) > 0
    kinds = [c["type"] for c in detail.COLUMNS]
    for values, row in zip(table.to_pylist(), rows, strict=True):
        shown = []
        for kind, value in zip(kinds, values.values(), strict=True):
            if value is None:
                shown.append("")
            elif kind == "datetime":
                assert value.tzinfo is not None
                shown.append(value.astimezone(UTC).isoformat())
            elif kind == "percent":
                shown.append(str(percent_number(value)))
            elif kind == "text":
                shown.append(safe_cell(value))
            else:
                shown.append(str(value))
        assert shown == row


@pytest.mark.postgres
def test_the_parquet_from_copy_is_the_parquet_from_the_python_path(day):
    import pyarrow.parquet as pq

    document = report()
    writer = render.FORMATS["parquet"][0]
    by_copy = pq.read_table(io.BytesIO(written(writer, document)))
    by_python = pq.read_table(io.BytesIO(written(writer, the_python_path(document))))

    assert by_copy.num_rows > 0 and by_copy.equals(by_python)


def test_only_a_document_with_a_streamed_section_gets_a_parquet_file(day):
    document = report()
    assert render.formats_of(document) == ["json", "csv", "xlsx", "pdf", "parquet"]
    without = {**document, "sections": [s for s in document["sections"] if not s.get("streamed")]}
    assert render.formats_of(without) == ["json", "csv", "xlsx", "pdf"]
    with pytest.raises(ValueError, match="has none"):
        written(render.FORMATS["parquet"][0], without)


@pytest.mark.django_db(transaction=True)
def test_811a9_an_audit_run_has_a_parquet_file_and_an_expiry_run_none(
    client, auditor, player, live_offering, tmp_path, settings
):
    from portal.reports.models import ReportRun
    from tests.portal.reports.runs import DAY, play_the_day

    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    play_the_day(player, live_offering, keys="parquet-run")
    client.force_login(auditor)
    for asked in (
        {"kind": "audit", "start": DAY, "end": DAY, "as_of": "", "holder": ""},
        {"kind": "expiry", "start": "", "end": "", "as_of": DAY, "holder": ""},
    ):
        assert client.post("/reports/", asked).status_code == 302
    audit, expiry = ReportRun.objects.get(kind="audit"), ReportRun.objects.get(kind="expiry")

    assert {f.format for f in audit.files.all()} == {"json", "csv", "xlsx", "pdf", "parquet"}
    assert {f.format for f in expiry.files.all()} == {"json", "csv", "xlsx", "pdf"}
    assert "PARQUET" in client.get(f"/reports/{audit.pk}/").content.decode()
    answer = client.get(f"/reports/{audit.pk}/files/parquet/")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content).startswith(b"PAR1")
    assert client.get(f"/reports/{expiry.pk}/files/parquet/").status_code == 404
