"""A paytable's PAR sheet as a PDF (``par_sheet``'s data, as the page shows it): its heading,
the stakes it is worked over, each wager's line, the hold to expect with its 95 % band, the
betting mix, the precision and the game software's identity. Set in DejaVu Sans (embedded:
``portal.core.pdf_fonts``), text in words.

``par_flowables`` is the sheet alone, for any document to place at any width (a filing
package's PDF sets it among its other parts); ``write_par_pdf`` makes the sheet's own file:
landscape letter, "Page X of Y" on each page, and, in ReportLab's invariant mode, the same
bytes for the same sheet.
"""

from __future__ import annotations

import io
from typing import Any, BinaryIO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import landscape, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Spacer, Table

from portal.compliance.presenters.par import LINE_COLUMNS
from portal.core.pdf_fonts import register

PAGE = landscape(letter)
MARGIN = 0.5 * inch
FOOTER_Y = 0.3 * inch
FRAME_PADDING = 6  # the padding inside platypus's page frame, each side
SIZE = 7.5  # points: the tables' type
CELL_PADDING = 3

# Each column's share of the width: the wager's name, and a pay or a return given as a
# span ("96.1538 % to 96.1539 %"), take more than a single figure.
LINE_SHARES = (1.7, 0.7, 0.6, 1, 1, 1, 1.5, 1.6, 1.6, 1, 1, 1.2)
HOLD_COLUMNS = ("Rounds", "Handle", "Expected hold", "95 % band")
HOLD_SHARES = (1, 1.3, 1, 2)
# Words, and the spans given in words ("a to b"), start at the left; the figures are set
# to the right, read down their column.
LEFT = frozenset({"Wager", "Covers 0", "Pays (as paid)", "95 % band"})


def title(sheet: dict) -> str:
    """How the sheet is named: "PAR sheet: Standard v1"."""
    paytable = sheet["paytable"]
    return f"PAR sheet: {paytable['name']} v{paytable['version']}"


def _text(value: Any) -> str:
    """Text as the PDF draws it: control characters, which no font draws, as spaces."""
    return "".join(" " if ord(char) < 0x20 else char for char in str(value))


def _styles() -> dict[str, ParagraphStyle]:
    regular, bold = register()

    def style(name: str, font: str, size: float, **kwargs: Any) -> ParagraphStyle:
        return ParagraphStyle(name, fontName=font, fontSize=size, leading=size * 1.22, **kwargs)

    return {
        "heading": style("par-heading", bold, 14, spaceAfter=4),
        "subheading": style("par-subheading", bold, 10.5, spaceBefore=8, spaceAfter=3),
        "text": style("par-text", regular, 8.5),
        "cell": style("par-cell", regular, SIZE),
        "cell-right": style("par-cell-right", regular, SIZE, alignment=TA_RIGHT),
        "bold": style("par-bold", bold, SIZE),
        "bold-right": style("par-bold-right", bold, SIZE, alignment=TA_RIGHT),
        # The software's digest: one long token, broken where the line ends.
        "digest": style("par-digest", regular, 8.5, splitLongWords=1),
    }


def _widths(shares: tuple[float, ...], width: float) -> list[float]:
    return [width * share / sum(shares) for share in shares]


def _table(
    columns: tuple[str, ...], rows: list[list[str]], widths: list[float], styles: dict
) -> Table:
    """Column titles (repeated on each page) over ``rows``, every cell wrapping in its
    column; a row's first cell, which names it, in bold; the figures to the right."""

    def cell(text: str, index: int, *, bold: bool) -> Paragraph:
        right = columns[index] not in LEFT
        name = ("bold" if bold else "cell") + ("-right" if right else "")
        return Paragraph(escape(_text(text)), styles[name])

    grid = [[cell(column, index, bold=True) for index, column in enumerate(columns)]]
    grid += [[cell(text, index, bold=index == 0) for index, text in enumerate(row)] for row in rows]
    regular, _bold = register()
    return Table(
        grid,
        colWidths=widths,
        repeatRows=1,
        hAlign="LEFT",
        style=[
            ("FONT", (0, 0), (-1, -1), regular, SIZE),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8e8e8")),
            ("GRID", (0, 0), (-1, -1), 0.25, colors.grey),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PADDING),
            ("TOPPADDING", (0, 0), (-1, -1), 1.5),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ],
    )


def _line_row(line: dict) -> list[str]:
    shown = line["shown"]
    return [
        line["wager"],
        "yes" if line["covers_zero"] else "no",
        str(line["spots"]),
        shown["win"],
        shown["half_back"],
        shown["loss"],
        shown["pay"],
        shown["return"],
        shown["edge"],
        shown["hit"],
        shown["hit_or_half"],
        shown["standard_deviation"],
    ]


def _hold_row(hold: dict) -> list[str]:
    shown = hold["shown"]
    return [shown["rounds"], shown["handle"], shown["expected_hold"], shown["band"]]


def par_flowables(sheet: dict, *, width: float) -> list:
    """The sheet as ReportLab flowables ``width`` points wide: its heading, the stakes,
    each wager's line, the hold to expect, the betting mix, the precision and the game
    software. Every figure is the one the page shows (the sheet's ``shown`` words)."""
    styles = _styles()

    def para(text: str, style: str = "text") -> Paragraph:
        return Paragraph(escape(_text(text)), styles[style])

    software = sheet["software"]
    lines = [_line_row(line) for line in sheet["lines"]]
    holds = [_hold_row(hold) for hold in sheet["holds"]]
    return [
        para(title(sheet), "heading"),
        para(
            f"What each wager pays and returns as paid, each return rounded up to the cent, "
            f"over {sheet['stakes_words']}."
        ),
        para("Each wager", "subheading"),
        _table(LINE_COLUMNS, lines, _widths(LINE_SHARES, width), styles),
        para("Hold to expect", "subheading"),
        para(f"Betting {sheet['mix']}; the band holds the period's hold 95 % of the time."),
        Spacer(1, 3),
        _table(HOLD_COLUMNS, holds, _widths(HOLD_SHARES, min(width, 6.5 * inch)), styles),
        para("How it is worked", "subheading"),
        para(
            "Exact from the game engine: chances, pays, returns and house edges are exact "
            f"fractions; the standard deviations and the bands are worked to "
            f"{sheet['precision']} significant digits. Percentages and the standard "
            "deviation per unit staked are shown to 4 decimal places."
        ),
        Spacer(1, 3),
        para(f"Game software {software['version']}, digest {software['digest']}.", "digest"),
    ]


def _build(sheet: dict, out: BinaryIO, total: int) -> int:
    """One build of the file, each page's footer naming the sheet and saying "Page X of
    ``total``"; returns how many pages it has."""
    regular, _bold = register()
    name = _text(title(sheet))
    pages = [0]

    def footer(canvas, _document) -> None:
        pages[0] = canvas.getPageNumber()
        canvas.saveState()
        canvas.setFont(regular, 7)
        canvas.drawString(MARGIN, FOOTER_Y, name)
        canvas.drawRightString(PAGE[0] - MARGIN, FOOTER_Y, f"Page {pages[0]} of {total}")
        canvas.restoreState()

    document = SimpleDocTemplate(
        out,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN + 0.2 * inch,  # room for the footer
        title=name,
        # The canvas starts in DejaVu Sans too: its default, Helvetica, would be named in
        # the file without being embedded.
        initialFontName=regular,
        invariant=1,  # the same sheet, the same bytes
    )
    width = PAGE[0] - 2 * MARGIN - 2 * FRAME_PADDING
    story: list[Flowable] = par_flowables(sheet, width=width)
    document.build(story, onFirstPage=footer, onLaterPages=footer)
    return pages[0]


def write_par_pdf(sheet: dict, out: BinaryIO) -> None:
    """The sheet's own PDF: landscape letter, titled "PAR sheet: <name> v<version>", each
    page's footer naming it with "Page X of Y". Built twice, the first time only to count
    its pages; invariant, so the same sheet gives the same bytes."""
    total = _build(sheet, io.BytesIO(), 0)
    _build(sheet, out, total)
