"""A paytable's PAR sheet as its page, its downloads and the API give it (``jinzi.par`` works
every figure out): per wager kind, whether it covers 0, the chances of a win, a half-back
(§ 617b.8(g)(2)) and a loss, the pay, return and house edge as paid over the stakes
(reading:round-up), the hit frequencies and the standard deviation per unit staked; then the
hold to expect over 1,000 to 1,000,000 rounds of one unit on every spot, with its 95 % band.

The stakes are a table's: those of the latest rules submission listing the paytable; for a
paytable no submission lists, every even stake from 2 cents (reading:even-stakes) up to
``UNLISTED_HIGHEST``, said on the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import jinzi
from jinzi.par import DEFAULT_MIX, PRECISION, default_mix, hold_forecast, par_lines
from portal.compliance.models import ListedGame, Paytable
from portal.core.csv_export import csv_lines
from portal.core.errors import ValidationFailed
from portal.core.money import dollars
from portal.core.software import running_identity

STAKES_NOT_WHOLE = "Give the stakes in whole cents, like unit=2&lowest=100&highest=50000"
ODDS_REFUSED = "This paytable's odds give no PAR sheet: {error}"
UNLISTED_HIGHEST = 100_000  # $1,000.00 a spot: the highest stake of an unlisted paytable's sheet
PLACES = 4  # of a percentage shown on the page and in the CSV


def sheet_stakes(paytable: Paytable) -> tuple[jinzi.Stakes, str]:
    """The stakes the sheet is worked over, and where they come from, in words."""
    listing = (
        ListedGame.objects.filter(paytable=paytable)
        .select_related("submission")
        .order_by("-submission__created_at", "-pk")
        .first()
    )
    if listing is None:
        stakes = jinzi.Stakes(unit=2, highest=UNLISTED_HIGHEST)
        return stakes, (
            f"every even stake from {dollars(2)} to {dollars(UNLISTED_HIGHEST)} a spot: no "
            "rules submission lists this paytable yet"
        )
    stakes = jinzi.Stakes(
        unit=listing.chip_unit, lowest=listing.min_wager, highest=listing.max_wager
    )
    return stakes, (
        f"the stakes of rules submission '{listing.submission.title}' "
        f"v{listing.submission.version}: {dollars(listing.min_wager)} to "
        f"{dollars(listing.max_wager)} a spot, in steps of {dollars(listing.chip_unit)}"
    )


def _fraction(value: Fraction) -> str:
    return str(value)


def _percent(value: Fraction) -> str:
    return jinzi.format_percent(value, PLACES)


def _span(low: Fraction, high: Fraction, shown) -> str:
    return shown(low) if low == high else f"{shown(low)} to {shown(high)}"


def par_sheet(paytable: Paytable, stakes: jinzi.Stakes | None = None) -> dict:
    """The sheet as data: exact fractions as "n/d" text, square roots as decimal text, and
    the words a page shows. Raises ``jinzi.JinziError`` for odds the paytable refuses."""
    domain = jinzi.Paytable.from_dict(paytable.odds)
    stakes, stakes_words = (stakes, "the stakes asked for") if stakes else sheet_stakes(paytable)
    identity = running_identity()
    lines = []
    for line in par_lines(domain, stakes=stakes):
        rtp_low, rtp_high = line.return_to_player
        lines.append(
            {
                "kind": line.kind.value,
                "wager": jinzi.KIND_LABELS[line.kind],
                "covers_zero": line.covers_zero,
                "spots": line.spots,
                "numbers": line.numbers,
                "odds": jinzi.format_odds(line.odds),
                "win": _fraction(line.win),
                "half_back": _fraction(line.half_back),
                "loss": _fraction(line.loss),
                "pay_lowest": _fraction(line.pay[0]),
                "pay_highest": _fraction(line.pay[1]),
                "return_lowest": _fraction(rtp_low),
                "return_highest": _fraction(rtp_high),
                "edge_lowest": _fraction(line.edge[0]),
                "edge_highest": _fraction(line.edge[1]),
                "hit": _fraction(line.hit),
                "hit_or_half": _fraction(line.hit_or_half),
                "standard_deviation": str(line.standard_deviation),
                "shown": {
                    "win": _percent(line.win),
                    "half_back": _percent(line.half_back),
                    "loss": _percent(line.loss),
                    "pay": _span(line.pay[0], line.pay[1], jinzi.format_odds),
                    "return": _span(rtp_low, rtp_high, _percent),
                    "edge": _span(line.edge[0], line.edge[1], _percent),
                    "hit": _percent(line.hit),
                    "hit_or_half": _percent(line.hit_or_half),
                    "standard_deviation": f"{float(line.standard_deviation):.4f}",
                },
            }
        )
    holds = []
    for forecast in hold_forecast(default_mix(stakes), paytable=domain):
        low, high = forecast.band
        holds.append(
            {
                "rounds": forecast.rounds,
                "handle": forecast.handle,
                "expected_win": _fraction(forecast.expected_win),
                "win_standard_deviation": str(forecast.win_sd),
                "expected_hold": _fraction(forecast.expected_hold),
                "band_low": str(low),
                "band_high": str(high),
                "shown": {
                    "rounds": f"{forecast.rounds:,}",
                    "handle": dollars(forecast.handle),
                    "expected_hold": _percent(forecast.expected_hold),
                    "band": f"{float(low) * 100:.{PLACES}f} % to {float(high) * 100:.{PLACES}f} %",
                },
            }
        )
    return {
        "paytable": {"id": paytable.pk, "name": paytable.name, "version": paytable.version},
        "stakes": {"unit": stakes.unit, "lowest": stakes.lowest, "highest": stakes.highest},
        "stakes_words": stakes_words,
        "mix": (
            f"{DEFAULT_MIX}, {dollars(stakes.lowest)} a spot, "
            f"{dollars(stakes.lowest * jinzi.SPOT_COUNT)} a round"
        ),
        "software": {"version": identity.version, "digest": identity.digest},
        "precision": PRECISION,
        "lines": lines,
        "holds": holds,
    }


def stakes_asked(query: Mapping[str, str]) -> jinzi.Stakes | None:
    """The stakes a query names (``unit``, ``lowest``, ``highest``, in cents), or None; 400
    for stakes that are not even cents, or out of order (reading:even-stakes)."""
    given = {key: query[key] for key in ("unit", "lowest", "highest") if key in query}
    if not given:
        return None
    try:
        numbers = {key: int(value) for key, value in given.items()}
    except (TypeError, ValueError) as error:
        raise ValidationFailed.on("stakes", STAKES_NOT_WHOLE) from error
    try:
        return jinzi.Stakes(**numbers)
    except jinzi.JinziError as error:
        raise ValidationFailed.on("stakes", str(error)) from error


def checked_sheet(paytable: Paytable, stakes: jinzi.Stakes | None) -> dict:
    """``par_sheet``, or 400 with the paytable's own error for odds the engine refuses."""
    try:
        return par_sheet(paytable, stakes)
    except jinzi.JinziError as error:
        raise ValidationFailed.on("odds", ODDS_REFUSED.format(error=error)) from error


LINE_COLUMNS = (
    "Wager",
    "Covers 0",
    "Spots",
    "Chance of a win",
    "Chance of half back",
    "Chance of a loss",
    "Pays (as paid)",
    "Return to player",
    "House edge",
    "Hit frequency",
    "Win or half back",
    "Standard deviation per unit staked",
)


def par_csv_lines(sheet: dict):
    """The sheet as CSV text, a line at a time: its lines, its holds, then the betting mix,
    the stakes and the software (the download's, and the filing package's file)."""
    rows = [
        (
            line["wager"],
            "yes" if line["covers_zero"] else "no",
            line["spots"],
            line["shown"]["win"],
            line["shown"]["half_back"],
            line["shown"]["loss"],
            line["shown"]["pay"],
            line["shown"]["return"],
            line["shown"]["edge"],
            line["shown"]["hit"],
            line["shown"]["hit_or_half"],
            line["shown"]["standard_deviation"],
        )
        for line in sheet["lines"]
    ]
    yield from csv_lines(LINE_COLUMNS, rows)
    holds = [
        tuple(h["shown"][key] for key in ("rounds", "handle", "expected_hold", "band"))
        for h in sheet["holds"]
    ]
    yield "\r\n"
    yield from csv_lines(("Rounds", "Handle", "Expected hold", "95 % band"), holds)
    software = f"{sheet['software']['version']} ({sheet['software']['digest']})"
    yield "\r\n"
    yield from csv_lines(
        ("Betting mix", "Stakes", "Game software"),
        [(sheet["mix"], sheet["stakes_words"], software)],
    )
