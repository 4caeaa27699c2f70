"""The filing package's one PDF (reading:filing-package): a cover with the holder, the game,
the submission's version and dates; § 617b.8's words beside the options this submission
chose; each layout's schematic and wheel as vector drawings (§ 601a.10(a)); each paytable
with its PAR sheet; the game software's identity and approval; the history of decisions.

Landscape letter, DejaVu Sans embedded, "Page X of Y". Written in ReportLab's invariant mode
(no creation date, a fixed document id) and from the records alone, never the clock: the
same records give the same bytes.
"""

from __future__ import annotations

from functools import partial
from typing import Any, BinaryIO
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import CondPageBreak, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table

import jinzi
from portal.compliance.presenters.par_pdf import par_flowables
from portal.compliance.schematic import layout_drawing, wheel_drawing
from portal.core.padates import pa_stamp
from portal.core.pdf_fonts import BOLD, REGULAR, register
from portal.filings.contents import Filing, Listing
from portal.filings.options import clause_options
from portal.reports.render.pdf import (
    BOTTOM_MARGIN,
    MARGIN,
    PAGE,
    TABLE_WIDTH,
    NumberedCanvas,
    pdf_text,
)

TITLE = "Filing package: Jinzi Roulette"
GRID = colors.HexColor("#999999")
HEAD = colors.HexColor("#eeeeee")


def _style(name: str, *, bold: bool = False, size: float = 9, **kwargs: Any) -> ParagraphStyle:
    kwargs.setdefault("splitLongWords", 0)
    return ParagraphStyle(
        name, fontName=BOLD if bold else REGULAR, fontSize=size, leading=size * 1.25, **kwargs
    )


BIG = _style("big", bold=True, size=18, spaceAfter=10)
H1 = _style("h1", bold=True, size=13, spaceBefore=6, spaceAfter=6)
H2 = _style("h2", bold=True, size=10.5, spaceBefore=6, spaceAfter=4)
BODY = _style("body")
SMALL = _style("small", size=7.5)
LABEL = _style("label", bold=True)
HASH = _style("hash", size=7.5, splitLongWords=1)


def _p(text: Any, style: ParagraphStyle = BODY) -> Paragraph:
    return Paragraph(escape(pdf_text(text)).replace("\n", "<br/>"), style)


def _when(instant) -> str:
    return pa_stamp(instant) if instant else "—"


def _day(day) -> str:
    return day.isoformat() if day else "—"


def _pairs(rows: list[tuple[str, Any]], *, label_width: float = 2.3 * inch) -> Table:
    """A two-column table of a label and its value."""
    return Table(
        [[_p(name, LABEL), _p(value)] for name, value in rows],
        colWidths=[label_width, TABLE_WIDTH - label_width],
        hAlign="LEFT",
        style=[("VALIGN", (0, 0), (-1, -1), "TOP"), ("FONT", (0, 0), (-1, -1), REGULAR, 8)],
    )


def _grid(header: list[str], rows: list[list[Any]], widths: list[float]) -> Table:
    """A table with a header row repeated on each page and a light grid."""
    data = [[_p(title, LABEL) for title in header]]
    data += [
        [cell if isinstance(cell, Paragraph) else _p(cell, SMALL) for cell in row] for row in rows
    ]
    return Table(
        data,
        colWidths=widths,
        repeatRows=1,
        hAlign="LEFT",
        style=[
            ("GRID", (0, 0), (-1, -1), 0.4, GRID),
            ("BACKGROUND", (0, 0), (-1, 0), HEAD),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("FONT", (0, 0), (-1, -1), REGULAR, 8),
        ],
    )


def _cover(filing: Filing, files: list[tuple[str, str, str]]) -> list[Any]:
    submission = filing.submission
    rows = [
        ("Certificate holder", filing.holder),
        ("Game", "Jinzi Roulette (58 Pa. Code § 617b.8), an interactive game with an RNG outcome"),
        ("Rules submission (§ 601a.2)", f"{submission.title}, version {submission.version}"),
        ("Status", submission.get_status_display()),
        ("Drafted", _when(submission.created_at)),
        ("Submitted", _when(submission.submitted_at)),
        ("Decided", _when(submission.decided_at)),
        ("Effective", _day(submission.effective_date)),
        (
            "Expires",
            _day(submission.expiry_date)
            if submission.expiry_date
            else "at the rule's sunset, 2028-06-14",
        ),
        ("Game software", filing.identity.short),
    ]
    if submission.notes:
        rows.append(("Notes", submission.notes))
    story: list[Any] = [_p(TITLE, BIG), _pairs(rows), Spacer(1, 12), _p("Contents", H2)]
    story.append(
        _p(
            "1. § 617b.8 with this submission's options · 2. Layouts: schematic and wheel "
            "(§ 601a.10(a)) · 3. Paytables and their PAR sheets (§ 617b.8(f)) · 4. Game "
            "software and its approval (§ 461a.4) · 5. History of decisions · 6. Files in "
            "this package"
        )
    )
    story.append(Spacer(1, 8))
    story.append(
        _p(
            "This document and the files beside it are built from the records as they stand; "
            "the same records give the same bytes. Each file's SHA-256 is listed in section 6 "
            "and in the package's manifest, which also lists this document's.",
            SMALL,
        )
    )
    return story


def _rule(filing: Filing) -> list[Any]:
    options = clause_options(filing)
    rows = [
        [_p(f"§ {c.clause}", LABEL), _p(c.text, SMALL), _p(options.get(c.clause, ""), SMALL)]
        for c in filing.clauses
    ]
    width = TABLE_WIDTH - 1.1 * inch
    return [
        PageBreak(),
        _p("1. § 617b.8 with this submission's options", H1),
        _grid(
            ["Clause", "The rule's words", "This submission"],
            rows,
            [1.1 * inch, width * 0.55, width * 0.45],
        ),
    ]


def _layouts(filing: Filing) -> list[Any]:
    story: list[Any] = [PageBreak(), _p("2. Layouts: schematic and wheel (§ 601a.10(a))", H1)]
    for number, item in enumerate(filing.layouts):
        layout = item.layout
        if number:
            story.append(PageBreak())  # a layout to a page
        story.append(_p(f"Layout '{layout.title}', version {layout.version}", H2))
        story.append(
            _pairs(
                [
                    ("Status", layout.get_status_display()),
                    ("Reference", layout.reference_number or "—"),
                    ("Conditions", layout.conditions or "—"),
                    ("Review due", _day(layout.review_due)),
                    ("Signage", layout.signage_text or "—"),
                    ("Wheel, clockwise from 0", ", ".join(str(n) for n in layout.wheel_order)),
                    ("After 0", f"{layout.get_first_colour_display()} first"),
                ]
            )
        )
        if item.wheel is None:
            story.append(_p(f"The wheel does not read: {item.wheel_error}"))
            continue
        title = f"Layout '{layout.title}' v{layout.version}"
        drawings = [layout_drawing(item.wheel, title=title), wheel_drawing(item.wheel, title=title)]
        side_by_side = Table(
            [drawings],
            colWidths=[drawing.width + 24 for drawing in drawings],
            hAlign="LEFT",
            style=[("VALIGN", (0, 0), (-1, -1), "TOP")],
        )
        story += [CondPageBreak(5 * inch), Spacer(1, 10), side_by_side]
    return story


def _odds_rows(item: Listing) -> list[list[str]]:
    rows = []
    for kind in jinzi.WagerKind:
        given = item.paytable.odds.get(kind.value, "")
        rows.append(
            [
                jinzi.KIND_LABELS[kind],
                f"{given} to 1" if given else "—",
                f"{jinzi.format_odds(jinzi.MINIMUM_ODDS[kind])} to 1",
            ]
        )
    return rows


def _paytables(filing: Filing) -> list[Any]:
    story: list[Any] = [PageBreak(), _p("3. Paytables and their PAR sheets (§ 617b.8(f))", H1)]
    for item in filing.paytables:
        paytable = item.paytable
        story.append(_p(f"Paytable '{paytable.name}', version {paytable.version}", H2))
        story.append(
            _pairs(
                [
                    ("Status", paytable.get_status_display()),
                    ("Decided", _when(paytable.decided_at)),
                    ("Stakes of its tables", item.stakes_words),
                ]
            )
        )
        story.append(Spacer(1, 4))
        story.append(
            _grid(["Wager", "Pays", "§ 617b.8(f) minimum"], _odds_rows(item), [2.5 * inch] * 3)
        )
        if item.par is None:
            story.append(_p(f"This paytable's odds give no PAR sheet: {item.par_error}"))
        else:
            story += [Spacer(1, 8), *par_flowables(item.par, width=TABLE_WIDTH)]
        story.append(PageBreak())
    return story


def _software(filing: Filing) -> list[Any]:
    identity, approval = filing.identity, filing.approval
    rows = [
        ("Version", identity.version),
        ("Code digest (SHA-256)", identity.digest),
    ]
    if approval is None:
        rows.append(
            ("Approval (§ 461a.4)", "None recorded: tables running this software stay closed.")
        )
    else:
        rows += [
            ("Approval (§ 461a.4)", approval.get_status_display()),
            ("Laboratory reference", approval.lab_reference),
            ("Approved on", _day(approval.approved_on)),
            ("Recorded", _when(approval.created_at)),
            ("Decided", _when(approval.decided_at)),
            ("Approval letter (SHA-256)", approval.document_sha256),
        ]
    return [_p("4. Game software and its approval (§ 461a.4)", H1), _pairs(rows)]


def _history(filing: Filing) -> list[Any]:
    rows = [[d.when, d.record, d.what, d.who, d.reason or ""] for d in filing.decisions]
    if not rows:
        rows = [["No Activity", "", "", "", ""]]
    widths = [1.5 * inch, 2.4 * inch, 1.6 * inch, 1.3 * inch]
    widths.append(TABLE_WIDTH - sum(widths))
    return [
        Spacer(1, 12),
        _p("5. History of decisions", H1),
        _p(
            "Every step recorded in the audit trail on the submission, its layouts and "
            "paytables, and the software's approval, in order; times are Pennsylvania time.",
            SMALL,
        ),
        Spacer(1, 4),
        _grid(["When", "Record", "What", "Who", "Reason"], rows, widths),
    ]


def _files(files: list[tuple[str, str, str]]) -> list[Any]:
    rows = [[_p(name, SMALL), _p(what, SMALL), _p(digest, HASH)] for name, what, digest in files]
    widths = [2.6 * inch, 3.0 * inch]
    widths.append(TABLE_WIDTH - sum(widths))
    return [
        Spacer(1, 12),
        _p("6. Files in this package", H1),
        _grid(["File", "What it is", "SHA-256"], rows, widths),
    ]


def write_package_pdf(filing: Filing, files: list[tuple[str, str, str]], out: BinaryIO) -> None:
    """The package's PDF; ``files``: (name, description, SHA-256) of every other file."""
    register()
    submission = filing.submission
    footer = (
        f"{TITLE} | {filing.holder} | rules submission '{submission.title}' v{submission.version}"
    )
    pdf = SimpleDocTemplate(
        out,
        pagesize=PAGE,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=BOTTOM_MARGIN,
        title=f"{TITLE}, {submission.title} v{submission.version}",
        author=filing.holder,
        initialFontName=REGULAR,
        invariant=1,
    )
    story = [
        *_cover(filing, files),
        *_rule(filing),
        *_layouts(filing),
        *_paytables(filing),
        *_software(filing),
        *_history(filing),
        *_files(files),
    ]
    pdf.build(story, canvasmaker=partial(NumberedCanvas, footer=pdf_text(footer)))
