"""A report run's page shows its figures in words, without a download; amounts are typed in
dollars; a manager runs their own holder's reports only; and the files read as a regulator
reads them: the PDF prints Σ and ± in an embedded font and breaks no word or date, the CSV
gives hold in percent and says "ok" for a check that passed, the XLSX names its sheets in
whole words (§ 811a.9)."""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import pytest

from portal.reports import render
from portal.reports.models import ReportRun, RunStatus
from portal.reports.presenters import parameter_lines
from portal.reports.render.tabular import shortened
from portal.reports.services import runs
from tests.portal.reports.pdf_text import drawn_strings, embedded_fonts
from tests.portal.reports.runs import DAY, api, play_the_day, stored

pytestmark = pytest.mark.django_db(transaction=True)

AUDIT_PAGE = {"kind": "audit", "start": DAY, "end": DAY, "as_of": "", "holder": ""}


@pytest.fixture(autouse=True)
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"
    return settings.JINZI_REPORTS_DIR


@pytest.fixture
def played(player, live_offering):
    play_the_day(player, live_offering, keys="page-run")
    return live_offering


def shown(html: str) -> str:
    """The page's text as read: tags out, spaces folded."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def audit_run(client, auditor, played):
    client.force_login(auditor)
    asked = client.post("/reports/", {**AUDIT_PAGE, "win_threshold": "10000.00"})
    assert asked.status_code == 302, asked.content
    run = ReportRun.objects.get()
    assert run.status == RunStatus.SUCCEEDED
    return run


# --- The run's page -----------------------------------------------------------------------


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_run_page_shows_the_audit_figures_in_words(client, audit_run, played):
    html = client.get(f"/reports/{audit_run.pk}/").content.decode()
    text = shown(html)

    assert "Period: 16 November 2026" in text
    assert "Holder: all certificate holders" in text
    assert "Offering: all offerings" in text
    assert "Win threshold $10,000.00" in text
    for label, value in [
        ("Rounds", "3"),
        ("Bets", "6"),
        ("Handle (H)", "$12.00"),
        ("Returned", "$29.00"),
        ("Win (W = H − returned)", "-$17.00"),
        ("Hold (W / H)", "-141.67%"),
    ]:
        assert f"{label} {value}" in text, label
    assert "Expected band (E ± 1.96 SD)" in text
    assert "Against the band low volume (under 1,000 rounds)" in text
    assert "Reconciliation ok: everything reconciles" in text
    assert "Re-settlement 6 bets settled again, 0 discrepancies" in text
    # The exceptions counted by section (the table was approved after these rounds: one
    # round on an offering not yet live), the routine records apart, and the flags.
    assert "Exceptions 1 to look into Single wins above the threshold: 0" in text
    assert "Rounds on an offering that was not live: 1 Routine records" in text
    assert (
        "Routine records 0 listed for the record, not exceptions Changes in the period: 0 "
        "Exports taken: 0"
    ) in text
    assert "Flags Hold: low volume, under 1,000 rounds" in text
    # Words, not keys and cents.
    for code in ("win_threshold", "1000000", "1,000,000", "holder:", "offering:", "None"):
        assert code not in text, code


def test_the_runs_list_says_each_runs_parameters_in_words(client, audit_run):
    text = shown(client.get("/reports/").content.decode())

    assert "Period: 16 November 2026 · Holder: all certificate holders" in text
    assert "Win threshold $10,000.00" in text
    assert "win_threshold" not in text and "1000000" not in text


def test_the_figures_are_read_from_the_stored_document_not_worked_out_again(
    client, audit_run, reports_folder
):
    path = reports_folder / audit_run.files.get(format="json").name
    document = json.loads(path.read_text())
    document["totals"]["handle"] = 123_456  # what the page shows is what the run stored
    document["reconciliation"]["ok"] = False
    path.write_text(json.dumps(document))

    text = shown(client.get(f"/reports/{audit_run.pk}/").content.decode())

    assert "Handle (H) $1,234.56" in text
    assert "Reconciliation failed: something does not reconcile" in text


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_run_page_does_not_count_routine_changes_as_exceptions(
    client, audit_run, reports_folder
):
    path = reports_folder / audit_run.files.get(format="json").name
    document = json.loads(path.read_text())
    document["routine"][0]["count"] = 26  # a day of approvals and submissions
    path.write_text(json.dumps(document))

    text = shown(client.get(f"/reports/{audit_run.pk}/").content.decode())

    assert "Exceptions 1 to look into" in text  # the round on a table not yet live, only
    assert "Routine records 26 listed for the record, not exceptions" in text
    assert "Changes in the period: 26" in text


def test_the_parameters_of_a_period_and_an_as_of_date_read_as_words(holder_a):
    audit = ReportRun(
        kind="audit",
        parameters={
            "start": "2026-11-01",
            "end": "2026-11-30",
            "holder": holder_a.pk,
            "offering": None,
            "win_threshold": 250_050,
        },
        holder=holder_a,
    )
    expiry = ReportRun(kind="expiry", parameters={"as_of": "2026-12-01", "holder": None})

    assert parameter_lines(audit) == [
        "Period: 1 November 2026 – 30 November 2026",
        "Holder: Keystone Casino",
        "Offering: all offerings",
        "Win threshold $2,500.50",
    ]
    assert parameter_lines(expiry) == ["As of 1 December 2026", "Holder: all certificate holders"]


def test_811a9_the_expiry_run_page_shows_its_counts(client, auditor, live_offering):
    client.force_login(auditor)
    client.post("/reports/", {"kind": "expiry", "as_of": "2026-11-30", "holder": ""})
    run = ReportRun.objects.get()

    text = shown(client.get(f"/reports/{run.pk}/").content.decode())

    assert "As of 30 November 2026" in text
    assert "Counts Section Rows Flagged" in text
    document = json.loads(stored(run, "json"))
    for section in document["sections"]:
        assert section["title"] in text


# --- Dollars typed ------------------------------------------------------------------------


def test_the_big_win_threshold_is_typed_in_dollars_and_stored_in_cents(client, auditor, played):
    client.force_login(auditor)

    odd = client.post("/reports/", {**AUDIT_PAGE, "win_threshold": "ten thousand"})
    nothing = client.post("/reports/", {**AUDIT_PAGE, "win_threshold": "0.00"})
    whole = client.post("/reports/", {**AUDIT_PAGE, "win_threshold": "$2,500.5"})

    assert odd.status_code == 400 and "dollars and cents" in odd.content.decode()
    assert nothing.status_code == 400 and "at least $0.01" in nothing.content.decode()
    assert whole.status_code == 302
    assert ReportRun.objects.get().parameters["win_threshold"] == 250_050
    form = client.get("/reports/").content.decode()
    assert "Big win from (dollars; audit report)" in form and "(cents" not in form


# --- Managers: their own holder's reports -------------------------------------------------


def test_a_manager_runs_their_own_holders_reports_and_sees_them(
    client, manager_a, holder_a, holder_b, monkeypatch
):
    monkeypatch.setattr(runs, "_enqueue", lambda run: None)  # the queue holds it
    client.force_login(manager_a)

    form = client.get("/reports/").content.decode()
    asked = client.post("/reports/", {**AUDIT_PAGE, "holder": str(holder_a.pk)})
    by_api = api(manager_a).post(
        "/api/reports/",
        {"kind": "expiry", "parameters": {"as_of": "2026-11-30", "holder": holder_a.pk}},
        format="json",
    )

    assert 'name="holder"' in form and holder_a.name in form
    assert holder_b.name not in form and "All certificate holders" not in form
    assert asked.status_code == 302 and by_api.status_code == 201
    audit = ReportRun.objects.get(kind="audit")
    assert (audit.holder_id, audit.status, audit.requested_by) == (
        holder_a.pk,
        RunStatus.QUEUED,
        manager_a,
    )
    assert client.get(f"/reports/{audit.pk}/").status_code == 200
    assert ReportRun.objects.get(kind="expiry").holder_id == holder_a.pk


@pytest.mark.parametrize("holder", ["other", "every"])
def test_a_manager_is_refused_another_holders_report_and_nothing_is_queued(
    client, manager_a, holder_b, holder, monkeypatch
):
    queued = []
    monkeypatch.setattr(runs, "_enqueue", queued.append)
    chosen = holder_b.pk if holder == "other" else ""
    client.force_login(manager_a)

    page = client.post("/reports/", {**AUDIT_PAGE, "holder": str(chosen)})
    body = {"kind": "audit", "parameters": {"start": DAY, "end": DAY, "holder": chosen or None}}
    answer = api(manager_a).post("/api/reports/", body, format="json")

    assert (page.status_code, answer.status_code) == (403, 403)
    assert "certificate holder" in answer.json()["detail"]
    assert not ReportRun.objects.exists() and queued == []


def test_a_manager_never_sees_another_holders_run(client, auditor, manager_a, holder_b):
    other = runs.report_run_request(
        actor=auditor, kind="expiry", parameters={"holder": holder_b.pk}, via="api"
    )[0]
    client.force_login(manager_a)

    assert client.get(f"/reports/{other.pk}/").status_code == 404
    assert client.get(f"/reports/{other.pk}/files/pdf/").status_code == 404
    assert client.post(f"/reports/{other.pk}/retry/").status_code == 404


# --- The files ----------------------------------------------------------------------------


@pytest.mark.clause("811a.9", kind="related")
def test_811a9_the_pdf_prints_sigma_and_plus_minus_in_an_embedded_font(audit_run):
    pdf = stored(audit_run, "pdf")
    assert b"/FontFile2" in pdf and {"DejaVuSans", "DejaVuSans-Bold"} <= embedded_fonts(pdf)

    # The same document drawn again uncompressed, to read its text back.
    out = io.BytesIO()
    render.write_pdf(json.loads(stored(audit_run, "json")), out, compress=False)
    strings = drawn_strings(out.getvalue())
    text = "\n".join(strings)

    assert "Σ" in text and "±" in text and "−" in text
    assert "E = ? stake" not in text
    dates = set(re.findall(r"\d{4}-\d\d-\d\d", text))
    assert DAY in dates
    # No date (nor any word) is split across lines: no string ends in a piece of a date.
    pieces = [s for s in strings if re.search(r"(?:^|\s)\d{4}-(?:\d\d?-?\d?)?$", s)]
    assert pieces == [], pieces


def test_811a9_the_pdf_opens_on_its_figures_and_ends_with_its_charts(audit_run):
    from pypdf import PdfReader

    pages = PdfReader(io.BytesIO(stored(audit_run, "pdf"))).pages
    first, last = pages[0].extract_text(), pages[-1].extract_text()

    assert "Summary by certificate holder, offering and paytable version" in first
    assert "Handle" in first  # the summary's figures, on the page the report opens on
    charts = json.loads(stored(audit_run, "json"))["charts"]
    assert last.startswith(charts[-1]["title"])  # the last chart's page closes the report


def test_811a9_a_section_sign_never_parts_from_its_number_in_the_pdf(audit_run):
    """A long note citing clause after clause, wrapped at every width the page gives."""
    document = json.loads(stored(audit_run, "json"))
    note = " ".join(f"see § 811a.9 and item {n}" for n in range(120))
    document["sections"][0]["notes"] = [note]
    out = io.BytesIO()
    render.write_pdf(document, out, compress=False)
    strings = drawn_strings(out.getvalue())

    assert sum("811a.9" in s for s in strings) > 1  # the note wraps over several lines
    assert [s for s in strings if s.endswith("§")] == []


def test_the_csv_gives_hold_in_percent_and_ok_for_a_check_that_passed(audit_run):
    rows = list(csv.reader(io.StringIO(stored(audit_run, "csv").decode())))
    at = rows.index(["Summary by certificate holder, offering and paytable version"])
    titles = rows[at + 1]
    total = next(row for row in rows[at + 2 :] if row and row[0] == "Total")

    hold = titles.index("Hold % (W/H)")
    assert total[hold] == "-141.667"  # percent, to 3 places: −1,700 / 1,200
    at = rows.index(["Reconciliation"])
    result = rows[at + 1].index("Result")
    checks = rows[at + 2 : rows.index([], at)]
    results = [row[result] for row in checks if len(row) > result]
    assert results and set(results) == {"ok"}
    at = rows.index(["Player accounts"])
    check = rows[at + 1].index("Check")
    assert rows[at + 2][check] == "ok"


def test_the_xlsx_sheet_names_are_whole_words(audit_run):
    with zipfile.ZipFile(io.BytesIO(stored(audit_run, "xlsx"))) as archive:
        workbook = archive.read("xl/workbook.xml").decode()
    names = re.findall(r'<sheet name="([^"]*)"', workbook)
    document = json.loads(stored(audit_run, "json"))
    titles = [
        " ".join(re.sub(r"[\[\]:*?/\\]", " ", s.get("sheet") or s["title"]).split())
        for s in document["sections"]
    ]

    assert len(names) == len(titles) + 1 and names[0] == "Report"
    for name, title in zip(names[1:], titles, strict=True):
        assert len(name) <= 31
        words = [word.strip(",;") for word in title.split()]
        named = [word.strip(",;") for word in name.split()]
        assert words[: len(named)] == named, (name, title)


def test_a_sheet_name_is_cut_between_words_and_not_on_a_leading_word():
    assert shortened("Paytables with an edge of 0 or less") == "Paytables with an edge of 0"
    assert shortened("Rounds on an offering that was not live") == "Rounds on an offering"
    assert shortened("Short") == "Short"
    assert shortened("Supercalifragilisticexpialidocious-and-more") == (
        "Supercalifragilisticexpialidoci"
    )
