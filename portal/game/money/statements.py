"""A player's statement of one account (§ 812a.11): for any period of Pennsylvania dates,
the opening balance, every movement with its round or reference, and the closing balance;
as a page, a CSV and a PDF.

The opening balance is the account's balance after its last ledger entry before the
period (zero if none); each movement's balance follows from the one before, so opening
plus the movements is the closing balance, which is the balance after the period's last
entry.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape

from django.utils import timezone
from reportlab.lib import colors
from reportlab.lib.pagesizes import letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table

from portal.core.csv_export import csv_lines, csv_response
from portal.core.money import dollars
from portal.core.padates import day_starts, pa_time
from portal.core.pdf_fonts import register
from portal.game.models import LEDGER_NEWEST_FIRST, GamingAccount, LedgerEntry, LedgerKind

CLAUSE = "§ 812a.11"


@dataclass(frozen=True)
class Movement:
    entry_id: int
    at: datetime.datetime
    kind: str  # LedgerKind value
    label: str
    amount: int  # signed cents
    balance_after: int
    round_id: int | None
    reference: str

    @property
    def credit(self) -> int:
        return self.amount if self.amount > 0 else 0

    @property
    def debit(self) -> int:
        return -self.amount if self.amount < 0 else 0


@dataclass(frozen=True)
class Statement:
    account: GamingAccount
    first: datetime.date
    last: datetime.date
    opening: int
    movements: list[Movement]
    generated_at: datetime.datetime

    @property
    def closing(self) -> int:
        return self.movements[-1].balance_after if self.movements else self.opening

    @property
    def credits(self) -> int:
        return sum(m.credit for m in self.movements)

    @property
    def debits(self) -> int:
        return sum(m.debit for m in self.movements)

    @property
    def period(self) -> str:
        return f"{self.first.isoformat()} to {self.last.isoformat()} (Pennsylvania dates)"


def reference_of(entry: LedgerEntry) -> str:
    """What a movement other than a round's names: the deposit's method and reference,
    the withdrawal's payout reference, the carry-over."""
    deposit = getattr(entry, "deposit", None)
    if entry.kind == LedgerKind.DEPOSIT and deposit is not None:
        method = deposit.get_method_display()
        return f"{method}: {deposit.reference}" if deposit.reference else method
    withdrawal = getattr(entry, "withdrawal", None)
    if entry.kind == LedgerKind.WITHDRAWAL and withdrawal is not None:
        return f"Withdrawal {withdrawal.pk}, paid: {withdrawal.payout_reference}"
    if entry.kind == LedgerKind.CARRIED_IN:
        return "Balance carried over from the single wallet"
    return ""


def movement_of(entry: LedgerEntry) -> Movement:
    return Movement(
        entry_id=entry.pk,
        at=entry.created_at,
        kind=entry.kind,
        label=entry.get_kind_display(),
        amount=entry.amount,
        balance_after=entry.balance_after,
        round_id=entry.round_id,
        reference=reference_of(entry),
    )


def entries_with_references():
    return LedgerEntry.objects.select_related("deposit", "withdrawal").order_by("pk")


def latest_movements(account: GamingAccount, count: int = 20) -> list[Movement]:
    entries = entries_with_references().filter(account=account).order_by(*LEDGER_NEWEST_FIRST)
    return [movement_of(entry) for entry in entries[:count]]


def statement(account: GamingAccount, first: datetime.date, last: datetime.date) -> Statement:
    """The account's statement from the start of ``first`` to the end of ``last``."""
    start, end = day_starts(first), day_starts(last + datetime.timedelta(days=1))
    before = (
        LedgerEntry.objects.filter(account=account, created_at__lt=start)
        .order_by(*LEDGER_NEWEST_FIRST)
        .values_list("balance_after", flat=True)
        .first()
    )
    entries = entries_with_references().filter(
        account=account, created_at__gte=start, created_at__lt=end
    )
    return Statement(
        account=account,
        first=first,
        last=last,
        opening=before or 0,
        movements=[movement_of(entry) for entry in entries],
        generated_at=timezone.now(),
    )


def _file_stem(statement_: Statement) -> str:
    return f"statement-{statement_.account.pk}-{statement_.first}-{statement_.last}"


# CSV ---------------------------------------------------------------------------------------

# The statement's download is for its player: dollars and Pennsylvania time, as its page
# and its PDF show them, its rows numbered from 1.
CSV_HEADER = (
    "#",
    "Time (Pennsylvania)",
    "Movement",
    "In",
    "Out",
    "Balance",
    "Round",
    "Reference",
)


def _csv_rows(statement_: Statement) -> Iterator[tuple]:
    # Amounts unsigned, in the column of their direction: a spreadsheet reads a cell that
    # starts with "-" as a formula, which the export writes as text instead.
    yield ("", "", "Opening balance", "", "", dollars(statement_.opening), "", statement_.period)
    for number, m in enumerate(statement_.movements, start=1):
        yield (
            number,
            _when(m.at),
            m.label,
            dollars(m.credit) if m.credit else "",
            dollars(m.debit) if m.debit else "",
            dollars(m.balance_after),
            m.round_id or "",
            m.reference,
        )
    yield ("", "", "Closing balance", "", "", dollars(statement_.closing), "", statement_.period)


def statement_csv(statement_: Statement):
    return csv_response(
        csv_lines(CSV_HEADER, _csv_rows(statement_)), f"{_file_stem(statement_)}.csv"
    )


# PDF ---------------------------------------------------------------------------------------


def pdf_text(value) -> str:
    """Text as the statement draws it, in DejaVu Sans (``portal.core.pdf_fonts``, embedded):
    every character as written; control characters, which no font draws, as spaces."""
    text = str(value if value is not None else "")
    return "".join(" " if ord(char) < 0x20 else char for char in text)


def _when(instant: datetime.datetime) -> str:
    return pa_time(instant).strftime("%Y-%m-%d %H:%M:%S %Z")


def statement_pdf_bytes(statement_: Statement) -> bytes:
    """Letter, DejaVu Sans embedded: the heading, the account, period, opening and closing
    balances, then a table of every movement, numbered from 1. Page streams are written
    uncompressed, so the figures can be read in the file itself."""
    regular, bold = register()
    account = statement_.account
    out = io.BytesIO()
    title = f"Statement of account ({CLAUSE})"
    doc = SimpleDocTemplate(
        out,
        pagesize=letter,
        leftMargin=0.6 * inch,
        rightMargin=0.6 * inch,
        topMargin=0.6 * inch,
        bottomMargin=0.6 * inch,
        title=title,
        # The canvas starts in DejaVu Sans too: its default, Helvetica, would be named in
        # the file without being embedded.
        initialFontName=regular,
        pageCompression=0,
    )
    big = ParagraphStyle("title", fontName=bold, fontSize=14, leading=18)
    body = ParagraphStyle("body", fontName=regular, fontSize=9, leading=11)
    small = ParagraphStyle("small", fontName=regular, fontSize=7.5, leading=9)

    def para(text, style=body):
        return Paragraph(escape(pdf_text(text)), style)

    heading = [
        ["Player", account.player.get_username()],
        ["Certificate holder", account.holder.name],
        ["Account", str(account.pk)],
        ["Period", statement_.period],
        ["Opening balance", dollars(statement_.opening)],
        ["Money in", dollars(statement_.credits)],
        ["Money out", dollars(statement_.debits)],
        ["Closing balance", dollars(statement_.closing)],
        ["Generated", _when(statement_.generated_at)],
    ]
    rows = [["#", "Time (Pennsylvania)", "Movement", "In", "Out", "Balance", "Round or reference"]]
    for number, m in enumerate(statement_.movements, start=1):
        rows.append(
            [
                str(number),
                _when(m.at),
                para(m.label, small),
                dollars(m.credit) if m.credit else "",
                dollars(m.debit) if m.debit else "",
                dollars(m.balance_after),
                para(f"Round {m.round_id}" if m.round_id else m.reference, small),
            ]
        )
    if not statement_.movements:
        rows.append(["", "", "No movements in this period", "", "", "", ""])
    table = Table(
        [[cell if not isinstance(cell, str) else pdf_text(cell) for cell in row] for row in rows],
        colWidths=[
            0.5 * inch,
            1.45 * inch,
            1.35 * inch,
            0.8 * inch,
            0.8 * inch,
            0.9 * inch,
            1.5 * inch,
        ],
        repeatRows=1,
        hAlign="LEFT",
        style=[
            ("FONT", (0, 0), (-1, -1), regular, 7.5),
            ("FONT", (0, 0), (-1, 0), bold, 7.5),
            ("ALIGN", (3, 0), (5, -1), "RIGHT"),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
            ("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, colors.whitesmoke]),
        ],
    )
    story = [
        para(title, big),
        Spacer(1, 6),
        Table(
            [[para(name), para(value)] for name, value in heading],
            colWidths=[1.6 * inch, 5.5 * inch],
            hAlign="LEFT",
            style=[("FONT", (0, 0), (-1, -1), regular, 9)],
        ),
        Spacer(1, 10),
        table,
        Spacer(1, 8),
        para(
            "Opening balance plus money in, less money out, is the closing balance. "
            "Times are Pennsylvania time.",
            small,
        ),
    ]
    doc.build(story)
    return out.getvalue()
