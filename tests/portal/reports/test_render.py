"""A report document written as JSON, CSV, XLSX and PDF (no database: documents are dicts)."""

from __future__ import annotations

import csv
import io
import json
import re
import tracemalloc
import zipfile
from datetime import date

import pytest

from portal.reports import render
from portal.reports.document import NO_ACTIVITY, column, section
from portal.reports.render import common, pdf, tabular
from tests.portal.reports.pdf_text import drawn_strings, embedded_fonts

FORMULA = '=HYPERLINK("http://evil.example","click")'
NOVEMBER_30 = (date(2026, 11, 30) - date(1899, 12, 30)).days  # its Excel serial number


class WriteOnly(io.RawIOBase):
    """A binary stream that can only be written to (no seek, no tell, no read), like the
    hashing file the worker hands the writers."""

    def __init__(self) -> None:
        super().__init__()
        self.data = bytearray()

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.data += data
        return len(data)


def hold_columns():
    return [
        column("holder", "Holder"),
        column("day", "Gaming day", "date"),
        column("rounds", "Rounds", "integer"),
        column("handle", "Handle", "money"),
        column("win", "Win", "money"),
        column("hold", "Hold %", "percent"),
        column("last", "Last round", "datetime"),
        column("live", "Live", "boolean"),
        column("flag", "Flag", "flag"),
    ]


def hold_row(number: int, **values):
    row = {
        "holder": f"Holder {number}",
        "day": "2026-11-30",
        "rounds": number,
        "handle": 250_000,
        "win": 12_345,
        "hold": 0.04938,
        "last": "2026-11-30T10:26:12-05:00",
        "live": True,
        "flag": "",
    }
    return row | values


def make_document(rows=None, *, title="Hold report", empty_title="Exceptions"):
    if rows is None:
        rows = [
            hold_row(1, holder=FORMULA, win=-150_000, hold=-0.6, flag="beyond 3.29 SD"),
            hold_row(2),
            {"row_type": "subtotal", "label": "Subtotal", "rounds": 3, "win": -137_655},
        ]
    return {
        "report": "hold",
        "title": title,
        "definition_version": "1",
        "software_versions": {"portal": "0.1.0", "engine": "1.0.0"},
        "holder": "Keystone Casino",
        "period": {"from": "2026-11-01", "to": "2026-11-30"},
        "generated_at": {"pa": "2026-11-30T10:26:12-05:00", "utc": "2026-11-30T15:26:12+00:00"},
        "filters": {"holder": "Keystone Casino", "offering": None},
        "sections": [
            section(
                "hold",
                "Hold by gaming day",
                hold_columns(),
                rows,
                totals={"rounds": 3, "handle": 500_000, "win": -137_655, "hold": -0.27531},
                notes=["Money in cents."],
            ),
            section("exceptions", empty_title, [column("offering", "Offering")], []),
        ],
    }


def written(writer, document, **options) -> bytes:
    out = WriteOnly()
    writer(document, out, **options)
    assert not out.closed
    return bytes(out.data)


# --- JSON ---------------------------------------------------------------------------------


def test_json_is_the_document_with_sorted_keys_and_raw_unicode():
    document = make_document(title="Hold ≤ 3.29 SD")
    data = written(render.write_json, document)
    assert json.loads(data) == document
    assert "Hold ≤ 3.29 SD".encode() in data
    assert data.index(b'"definition_version"') < data.index(b'"title"')


# --- CSV ----------------------------------------------------------------------------------


def csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def test_csv_starts_with_the_header_lines_then_a_blank_row():
    data = written(render.write_csv, make_document())
    rows = csv_rows(data)
    assert rows[:9] == [
        ["Title", "Hold report"],
        ["Report definition version", "1"],
        ["Software versions", "engine 1.0.0, portal 0.1.0"],
        ["Certificate holder", "Keystone Casino"],
        ["Period", "2026-11-01 to 2026-11-30"],
        ["Generated (Pennsylvania time)", "2026-11-30 10:26:12 EST"],
        ["Generated (UTC)", "2026-11-30 15:26:12 UTC"],
        ["Filters", "holder: Keystone Casino; offering: all"],
        [],
    ]
    assert not data.startswith(b"\xef\xbb\xbf")  # no byte-order mark
    assert data.count(b"\r\n") == data.count(b"\n")  # every line ends \r\n


def test_csv_sections_rows_totals_notes_and_no_activity():
    rows = csv_rows(written(render.write_csv, make_document()))[9:]
    assert rows[0] == ["Hold by gaming day"]
    assert rows[1] == [
        "Holder",
        "Gaming day",
        "Rounds",
        "Handle (cents)",
        "Win (cents)",
        "Hold %",
        "Last round",
        "Live",
        "Flag",
    ]
    assert rows[2] == [
        "'" + FORMULA,  # neutralised: a spreadsheet shows it as text
        "2026-11-30",
        "1",
        "250000",
        "-150000",  # a number, no apostrophe
        "-60.000",  # percent, to 3 places (the column's title says %)
        "2026-11-30 10:26:12 EST",  # Pennsylvania time with its zone, as people read it
        "Yes",
        "beyond 3.29 SD",
    ]
    assert rows[4] == ["Subtotal", "", "3", "", "-137655", "", "", "", ""]
    assert rows[5] == ["Total", "", "3", "500000", "-137655", "-27.531", "", "", ""]
    assert rows[6:] == [["Money in cents."], [], ["Exceptions"], ["Offering"], [NO_ACTIVITY], []]


def test_csv_numbers_are_unquoted():
    data = written(render.write_csv, make_document())
    assert b",-150000,-60.000," in data
    assert b",500000,-137655,-27.531," in data


def test_csv_refuses_a_fraction_of_a_cent():
    document = make_document([hold_row(1, win=10.5)])
    with pytest.raises(ValueError, match="not a whole number"):
        written(render.write_csv, document)


# --- XLSX ---------------------------------------------------------------------------------


def xlsx_parts(data: bytes) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name).decode() for name in archive.namelist()}


def test_xlsx_sheets_numbers_dates_and_no_activity():
    awkward = "Exceptions: [beyond 3.29 SD] / by offering and day"
    parts = xlsx_parts(written(render.write_xlsx, make_document(empty_title=awkward)))
    names = re.findall(r'<sheet name="([^"]*)"', parts["xl/workbook.xml"])
    # Cut between whole words, never on a word that leads on ("by"), never mid-word.
    assert names == ["Report", "Hold by gaming day", "Exceptions beyond 3.29 SD"]
    assert all(len(name) <= 31 for name in names)

    report = parts["xl/worksheets/sheet1.xml"]
    assert "Keystone Casino" in report
    assert "holder: Keystone Casino; offering: all" in report

    hold = parts["xl/worksheets/sheet2.xml"]
    for number in (250000, -150000, -137655, 500000, -0.6, NOVEMBER_30):
        assert f"<v>{number}</v>" in hold
    assert "Handle (cents)" in hold
    assert "HYPERLINK" in hold and "<f>" not in hold  # text, never a formula
    assert '<pane ySplit="2"' in hold  # section title and column titles frozen

    assert NO_ACTIVITY in parts["xl/worksheets/sheet3.xml"]
    assert 'formatCode="0.000%"' in parts["xl/styles.xml"]
    assert 'formatCode="yyyy-mm-dd"' in parts["xl/styles.xml"]


def test_xlsx_sheet_names_stay_unique():
    names = tabular._sheet_names(
        [{"title": "Report"}, {"title": "A" * 40}, {"title": "a" * 40}, {"title": "[]"}]
    )
    assert names == ["Report (2)", "A" * 31, "a" * 27 + " (2)", "Section 4"]


def test_xlsx_writes_50000_rows_in_constant_memory_mode():
    data = written(render.write_xlsx, make_document([hold_row(n) for n in range(50_000)]))
    parts = xlsx_parts(data)
    # constant_memory writes each string inline in its row: no shared-string table.
    assert "xl/sharedStrings.xml" not in parts
    assert 't="inlineStr"' in parts["xl/worksheets/sheet2.xml"]
    assert "<v>49999</v>" in parts["xl/worksheets/sheet2.xml"]


class Discard(WriteOnly):
    """Counts what is written and keeps none of it, so only the writer's memory is measured."""

    def write(self, data) -> int:
        self.size = getattr(self, "size", 0) + len(data)
        return len(data)


def peak_memory(writer, rows: int) -> int:
    document = make_document([hold_row(n) for n in range(rows)])
    tracemalloc.start()
    try:
        writer(document, Discard())
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_csv_and_xlsx_memory_does_not_grow_with_the_rows(fmt):
    writer = render.FORMATS[fmt][0]
    small, large = peak_memory(writer, 500), peak_memory(writer, 5000)
    # Ten times the rows, nearly the same peak (holding the cells would take ~10 times more).
    assert large < small * 1.5 + 100_000


# --- PDF ----------------------------------------------------------------------------------


def page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b", data))  # \b: not /Type /Pages


def test_pdf_numbers_its_pages_page_x_of_y():
    rows = [hold_row(number) for number in range(pdf.PDF_TABLE_ROWS + 200)]  # two tables
    data = written(render.write_pdf, make_document(rows), compress=False)
    assert data.startswith(b"%PDF")
    pages = page_count(data)
    assert pages > 3
    assert b"(Holder 0)" in data and f"(Holder {len(rows) - 1})".encode() in data
    for number in (1, pages):
        assert f"(Page {number} of {pages})".encode() in data
    assert f"of {pages + 1})".encode() not in data
    assert b"(Hold report | Generated 2026-11-30 10:26:12 EST)" in data


def test_pdf_has_the_header_the_rows_and_no_activity():
    data = written(render.write_pdf, make_document(), compress=False)
    for text in (
        "Keystone Casino",
        "2026-11-01 to 2026-11-30",
        "2026-11-30 10:26:12 EST",
        "2026-11-30 15:26:12 UTC",
        "holder: Keystone Casino; offering: all",
        "engine 1.0.0, portal 0.1.0",
        "-150,000",
        "-60.000%",
        "-137,655",
        "Subtotal",
        "Total",
        NO_ACTIVITY,
        "Money in cents.",
    ):
        assert text.encode() in data, text
    assert page_count(data) == 1


def test_pdf_wraps_long_text_and_splits_a_row_taller_than_a_page():
    words = " ".join(f"w{number}" for number in range(3000))
    unbroken = "x" * 300
    document = make_document([hold_row(1, flag=words), hold_row(2, holder=unbroken)])
    data = written(render.write_pdf, document, compress=False)
    assert page_count(data) > 2
    drawn = [int(number) for number in re.findall(rb"w(\d+)", data)]
    assert sorted(drawn) == list(range(3000))  # every word, once
    assert data.count(b"x") >= 300


def test_pdf_fits_a_wide_table_on_the_page_in_smaller_type():
    columns = [column(f"c{n}", f"Column {n}", "money" if n % 2 else "date") for n in range(14)]
    row = {f"c{n}": -123_456_789 if n % 2 else "2026-11-30" for n in range(14)}
    size, widths = pdf._pdf_layout(
        [common.column_title(c) for c in columns],
        [[pdf._pdf_display(c["type"], row[c["key"]]) for c in columns]],
    )
    assert size < 8
    assert sum(widths) <= pdf.TABLE_WIDTH + 0.01
    document = make_document()
    document["sections"].append(section("wide", "Wide", columns, [row]))
    assert b"(-123,456,789)" in written(render.write_pdf, document, compress=False)  # whole


def test_pdf_prints_sigma_plus_minus_and_dashes_in_its_embedded_font():
    title = "Hold ≤ 3.29 SD – E = Σ stake × edge ± 1.96 SD — “checked” … § 811a.9 Łódź"
    data = written(render.write_pdf, make_document(title=title), compress=False)

    assert embedded_fonts(data) == {"DejaVuSans", "DejaVuSans-Bold"}
    assert b"/FontFile2" in data  # the TrueType program itself is in the file
    strings = drawn_strings(data)
    assert title in strings  # the header, drawn as written: no "?" and no ASCII look-alike
    assert f"{title} | Generated 2026-11-30 10:26:12 EST" in strings  # the footer
    assert "?" not in "".join(strings)


def test_pdf_text_keeps_every_character_and_spaces_out_control_characters():
    assert pdf.pdf_text("a ≥ b ≤ c – d — e … f ’g’ Σ ±") == "a ≥ b ≤ c – d — e … f ’g’ Σ ±"
    # "§" and its number are joined by a no-break space, so a line never parts them.
    assert pdf.pdf_text("§ 811a.9 café Łódź") == "§\u00a0811a.9 café Łódź"
    assert pdf.pdf_text("tab\tbell\x07") == "tab bell "
    assert pdf.pdf_text(None) == ""


def test_pdf_never_breaks_a_word_or_a_date_and_shows_a_too_wide_table_in_parts():
    days = [f"2025-06-{day:02d}" for day in range(14, 30)]
    columns = [column("version", "Version")] + [
        column(f"d{n}", f"Approved version {n}", "date") for n in range(len(days))
    ]
    row = {"version": "Versioned paytable"} | {f"d{n}": day for n, day in enumerate(days)}
    document = make_document()
    document["sections"].append(section("wide", "Wide", columns, [row]))

    strings = drawn_strings(written(render.write_pdf, document, compress=False))

    for day in days:  # each date drawn whole, as one string
        assert day in strings, day
    assert not [s for s in strings if s.startswith("2025-") and s not in days]  # no "2025-06-1"
    assert "Versioned paytable" in strings  # its column as wide as its words: not "Versio"
    assert not [s for s in strings if s.startswith("Versio") and s.split()[0] == "Versio"]
    assert any(s.startswith("Part 2 of") for s in strings)  # sixteen dates: too wide for one


# --- All formats --------------------------------------------------------------------------


def test_formats_name_writer_content_type_and_extension():
    assert render.FORMATS["csv"][1:] == ("text/csv", "csv")
    assert render.FORMATS["pdf"][1:] == ("application/pdf", "pdf")
    assert render.FORMATS["json"][1:] == ("application/json", "json")
    assert render.FORMATS["xlsx"][2] == "xlsx"
    assert render.FORMATS["parquet"][1:] == ("application/vnd.apache.parquet", "parquet")
    document = make_document()
    assert render.formats_of(document) == ["json", "csv", "xlsx", "pdf"]  # no streamed section
    for fmt in render.formats_of(document):
        assert written(render.FORMATS[fmt][0], document)
    assert render.formats_of(streamed_document(3)) == [*render.FORMATS]
    for writer, _content_type, _extension in render.FORMATS.values():
        assert written(writer, streamed_document(3))


def test_every_format_renders_an_all_empty_document():
    document = make_document([])
    document["sections"][0]["totals"] = None
    for fmt in render.formats_of(document):
        assert written(render.FORMATS[fmt][0], document)
    assert written(render.FORMATS["parquet"][0], streamed_document(0))


# --- Streamed sections and decimal figures ------------------------------------------------


def streamed_document(rows: int, calls: list | None = None):
    from portal.reports.document import streamed_section

    def stream():
        if calls is not None:
            calls.append(1)
        return ([n, f"=spot {n}", "12.3456"] for n in range(rows))

    columns = [
        column("n", "Bet", "integer"),
        column("spot", "Spot"),
        column("e", "Expected (cents)", "decimal"),
    ]
    document = make_document()
    document["sections"].append(
        streamed_section("detail", "Detail", columns, stream, count=rows, notes=["Every bet."])
    )
    return document


def test_a_streamed_section_is_written_row_by_row_in_csv_and_called_once_per_file():
    calls = []
    data = written(render.write_csv, streamed_document(3, calls))
    rows = csv_rows(data)

    at = rows.index(["Bet", "Spot", "Expected (cents)"])
    assert rows[at + 1 : at + 4] == [
        ["0", "'=spot 0", "12.3456"],
        ["1", "'=spot 1", "12.3456"],
        ["2", "'=spot 2", "12.3456"],
    ]
    assert calls == [1]


def test_json_and_pdf_carry_a_streamed_section_without_its_rows():
    data = written(render.write_json, streamed_document(3))
    detail = json.loads(data)["sections"][-1]

    assert detail["streamed"] is True and detail["rows"] == [] and "stream" not in detail
    assert detail["row_count"] == 3
    assert (
        "3 rows, in the CSV file, the XLSX file (up to the 1,048,576 rows of a spreadsheet's "
        "sheet) and the Parquet file of this report." in detail["notes"]
    )
    assert detail["formats"] == ["csv", "xlsx", "parquet"]
    assert written(render.write_pdf_document, streamed_document(3)).startswith(b"%PDF")


def test_an_empty_streamed_section_says_no_activity():
    rows = csv_rows(written(render.write_csv, streamed_document(0)))

    assert rows[rows.index(["Bet", "Spot", "Expected (cents)"]) + 1] == [NO_ACTIVITY]


def test_xlsx_keeps_a_streamed_section_to_one_sheet_and_says_where_the_rest_are(monkeypatch):
    from portal.reports import document as contract

    # A sheet of 9 rows: 2 title rows, a blank and the note leave room for 5 rows, of which
    # one goes to the note saying what is left out: 4 rows kept of 10.
    monkeypatch.setattr(contract, "XLSX_SHEET_ROWS", 9)
    document = streamed_document(10)

    parts = xlsx_parts(written(render.write_xlsx, document))

    names = re.findall(r'<sheet name="([^"]*)"', parts["xl/workbook.xml"])
    assert names[-1] == "Detail" and "Detail (2)" not in names  # one sheet, no more
    sheet = parts[f"xl/worksheets/sheet{len(names)}.xml"]
    assert "<v>3</v>" in sheet and "<v>4</v>" not in sheet  # rows 0 to 3 only
    assert 'r="9"' in sheet and 'r="10"' not in sheet  # within the sheet's rows
    left_out = (
        "The XLSX file holds the first 4 of these 10 rows, as many as a spreadsheet's sheet "
        "takes; the other 6 are in the CSV and Parquet files of this report, which hold every "
        "row."
    )
    assert left_out in sheet and "Every bet." in sheet
    assert "Detail (the first 4 of 10 rows; every row is in the CSV and Parquet files)" in sheet
    assert (
        "the first 4 of 10 rows; every row is in the CSV and Parquet files"
        in (parts["xl/worksheets/sheet1.xml"])
    )
    assert 'formatCode="#,##0.0000"' in parts["xl/styles.xml"]
    # The JSON (and so the PDF) says the same.
    notes = json.loads(written(render.write_json, document))["sections"][-1]["notes"]
    assert left_out in notes


def test_xlsx_keeps_every_row_that_fits(monkeypatch):
    from portal.reports import document as contract

    monkeypatch.setattr(contract, "XLSX_SHEET_ROWS", 8)  # 2 + 4 rows + a blank + 1 note
    parts = xlsx_parts(written(render.write_xlsx, streamed_document(4)))
    names = re.findall(r'<sheet name="([^"]*)"', parts["xl/workbook.xml"])
    sheet = parts[f"xl/worksheets/sheet{len(names)}.xml"]
    assert "<v>3</v>" in sheet and "Every bet." in sheet and "Parquet" not in sheet


def test_parquet_holds_a_streamed_sections_rows_typed():
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pq.read_table(io.BytesIO(written(render.FORMATS["parquet"][0], streamed_document(3))))

    # Named by their keys, for analysts' tools; their titles stay in the CSV and XLSX.
    assert table.column_names == ["n", "spot", "e"]
    assert [f.type for f in table.schema] == [pa.int64(), pa.string(), pa.string()]
    assert table.to_pylist()[2] == {"n": 2, "spot": "=spot 2", "e": "12.3456"}
    assert table.schema.metadata[b"Title"] == b"Hold report"
    empty = pq.read_table(io.BytesIO(written(render.FORMATS["parquet"][0], streamed_document(0))))
    assert empty.num_rows == 0 and empty.column_names == table.column_names


@pytest.mark.parametrize("value", [1.5, "twelve", "NaN", None, True])
def test_a_decimal_cell_must_be_an_exact_figure(value):
    with pytest.raises(ValueError, match="not a decimal figure"):
        common.as_decimal_text(value)


# --- Times as people read them --------------------------------------------------------------

WINTER = "2026-12-04T19:07:31.123456+00:00"  # as the document records an instant
SUMMER = "2026-07-04T16:00:00.5+00:00"


@pytest.mark.clause("811a.9", kind="related")
@pytest.mark.clause("reading:pennsylvania-dates", kind="related")
def test_811a9_csv_xlsx_and_pdf_show_times_in_pennsylvania_time_without_microseconds():
    document = make_document([hold_row(1, last=WINTER), hold_row(2, last=SUMMER)])

    rows = csv_rows(written(render.write_csv, document))
    at = rows.index(["Hold by gaming day"]) + 2
    assert [row[6] for row in rows[at : at + 2]] == [
        "2026-12-04 14:07:31 EST",
        "2026-07-04 12:00:00 EDT",
    ]
    sheet = xlsx_parts(written(render.write_xlsx, document))["xl/worksheets/sheet2.xml"]
    assert "2026-12-04 14:07:31 EST" in sheet and "2026-07-04 12:00:00 EDT" in sheet
    strings = drawn_strings(written(render.write_pdf, document, compress=False))
    assert "2026-12-04 14:07:31 EST" in strings and "2026-07-04 12:00:00 EDT" in strings

    csv_text = "\n".join(",".join(row) for row in rows)
    for shown in (csv_text, sheet, "\n".join(strings)):
        assert "T19:07" not in shown and ".123456" not in shown and "+00:00" not in shown
        assert "T10:26" not in shown and "-05:00" not in shown  # the generation time too
    # The JSON is the document: its instants stay ISO 8601 with their offset, for machines.
    assert json.loads(written(render.write_json, document))["sections"][0]["rows"][0]["last"] == (
        WINTER
    )


def test_a_date_time_cell_that_is_not_an_instant_shows_as_it_is():
    assert common.shown_instant(None) == ""
    assert common.shown_instant("not recorded") == "not recorded"
    assert common.shown_instant("2026-12-04T19:07:31") == "2026-12-04T19:07:31"  # no offset
    assert common.shown_instant(WINTER, utc=True) == "2026-12-04 19:07:31 UTC"


def test_a_streamed_sections_times_stay_iso_in_its_csv_rows_and_parquet_and_read_in_xlsx():
    import pyarrow.parquet as pq

    from portal.reports.document import streamed_section

    document = make_document()
    document["sections"].append(
        streamed_section(
            "detail",
            "Detail",
            [column("n", "Bet", "integer"), column("at", "Started", "datetime")],
            lambda: iter([[1, WINTER]]),
            count=1,
        )
    )

    rows = csv_rows(written(render.write_csv, document))
    assert rows[rows.index(["Bet", "Started"]) + 1] == ["1", WINTER]  # machine-read: as recorded
    table = pq.read_table(io.BytesIO(written(render.FORMATS["parquet"][0], document)))
    assert table.schema.metadata[b"Generated (Pennsylvania time)"] == b"2026-11-30T10:26:12-05:00"
    assert table.column("at_utc").to_pylist()[0].isoformat() == WINTER
    parts = xlsx_parts(written(render.write_xlsx, document))  # for people: as they read it
    sheet = parts[f"xl/worksheets/sheet{len(document['sections']) + 1}.xml"]  # after "Report"
    assert "2026-12-04 14:07:31 EST" in sheet and WINTER not in sheet
