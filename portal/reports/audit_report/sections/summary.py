"""The audit report's hold tables as sections: the summary (holder → offering → paytable
version), the by-kind table and the outcomes, from the hold figures (``figures.hold``), the
sums by spot and the outcome counts.

reading:expected-win: handle H = Σ stakes, win W = H − Σ returns, hold % = W / H; expected
win E = Σ stake × the exact edge of the spot at that stake under the odds the round
recorded (reading:round-up; ``figures.spots.Edges``); SD from each round's exact variance;
z = (W − E) / SD, flagged by ``jinzi.hold_check``.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import jinzi
from jinzi.stats import EXCEPTION_Z, LOW_VOLUME_ROUNDS, REVIEW_Z
from portal.compliance.models import Paytable
from portal.core.padates import pa_stamp
from portal.reports.audit_report.figures.hold import Hold
from portal.reports.audit_report.figures.spots import SpotTotal
from portal.reports.audit_report.figures.sums import Players
from portal.reports.audit_report.scope import Scope
from portal.reports.audit_report.values import GroupKey, decimal_text, ratio
from portal.reports.document import column, section

SUMMARY_COLUMNS = [
    column("holder", "Certificate holder"),
    column("offering", "Offering"),
    column("paytable", "Paytable version"),
    column("rounds", "Rounds", "integer"),
    column("players", "Distinct players", "integer"),
    column("bets", "Bets", "integer"),
    column("handle", "Handle H", "money"),
    column("returned", "Returned", "money"),
    column("win", "Win W", "money"),
    column("hold", "Hold % (W/H)", "percent"),
    column("expected_win", "Expected win E (cents)", "decimal"),
    column("expected_hold", "Expected hold % (E/H)", "percent"),
    column("win_sd", "SD of W (cents)", "decimal"),
    column("z", "z = (W − E)/SD", "decimal"),
    column("flag", "Flag", "flag"),
]


def summary(
    scope: Scope, holds: dict[GroupKey, Hold], players: Players
) -> tuple[dict, list[dict], Hold]:
    """(the summary section, the contract's ``groups``, the grand total)."""
    names = {
        pk: f"{name} v{version} (#{pk})"
        for pk, name, version in Paytable.objects.filter(
            pk__in={key[1] for key in holds}
        ).values_list("pk", "name", "version")
    }
    by_holder: dict[int, dict[int, list[GroupKey]]] = defaultdict(lambda: defaultdict(list))
    for key in holds:
        by_holder[scope.offerings[key[0]][0]][key[0]].append(key)
    rows, groups, total = [], [], Hold(players=players.total)
    for holder_pk in sorted(by_holder, key=lambda pk: scope.holders[pk].name):
        holder_name = scope.holders[holder_pk].name
        holder_hold = Hold(players=players.by_holder.get(holder_pk, 0))
        offerings = by_holder[holder_pk]
        for offering_pk in sorted(offerings, key=lambda pk: scope.offerings[pk][1]):
            offering_name = scope.offerings[offering_pk][1]
            offering_hold = Hold(players=players.by_offering.get(offering_pk, 0))
            for key in sorted(offerings[offering_pk], key=lambda k: (k[1], k[2])):
                values = holds[key].values()
                row = {"holder": holder_name, "offering": offering_name, "paytable": names[key[1]]}
                rows.append({**row, **values})
                groups.append(
                    {
                        "holder_id": holder_pk,
                        "offering_id": offering_pk,
                        "paytable_id": key[1],
                        "paytable_version": key[2],
                        **row,
                        **values,
                    }
                )
                offering_hold += holds[key]
            rows.append(
                {
                    "label": f"Subtotal {offering_name}",
                    "row_type": "subtotal",
                    **offering_hold.values(),
                }
            )
            holder_hold += offering_hold
        rows.append(
            {"label": f"Subtotal {holder_name}", "row_type": "subtotal", **holder_hold.values()}
        )
        total += holder_hold
    notes = [
        "H, returned and W are the bets' own figures, in cents; E and SD are exact, in "
        "cents to four decimal places (reading:expected-win).",
        "E = Σ stake × the exact house edge of its spot at that stake under the odds the round "
        "recorded, from what the stake is paid: a return that fractional odds make fractional "
        "is rounded up to the cent (reading:round-up). SD from each round's exact variance "
        "over the 13 outcomes (a round's bets share one outcome; rounds are independent, so "
        "variances add).",
        f"Flag: 'review' outside E ± {REVIEW_Z} SD, 'exception' beyond "
        f"± {EXCEPTION_Z} SD, 'low volume' under "
        f"{LOW_VOLUME_ROUNDS:,} rounds (too few for the normal band to hold, reading:low-volume).",
        "Distinct players of a subtotal or the total count each player once.",
        f"Rounds stored when the report began ({pa_stamp(scope.cutoff, seconds=True)}; up to "
        f"round id {scope.last_round}): a gaming day not yet over is counted up "
        "to then, and every part of the report reads the same rounds while play goes on.",
    ]
    body = section(
        "summary",
        "Summary by certificate holder, offering and paytable version",
        SUMMARY_COLUMNS,
        rows,
        totals=total.values() if rows else None,
        notes=notes,
        sheet="Summary",
    )
    return body, groups, total


BY_KIND_COLUMNS = [
    column("kind", "Wager kind"),
    column("bets", "Bets", "integer"),
    column("handle", "Handle H", "money"),
    column("win", "Win W", "money"),
    column("hold", "Hold % (W/H)", "percent"),
    column("expected_hold", "Expected hold % (E/H)", "percent"),
    column("expected_win", "Expected win E (cents)", "decimal"),
]
# reading:placed-on-zero: a wager covering 0 is "placed on zero", so § 617b.8(g)(2)'s half
# back on 0 is not for it (it wins there instead); (g)(1) speaks of the straight up on 0 only.
COVERS_ZERO = "Covering 0 (placed on zero: no half back, § 617b.8(g)(2))"
NOT_ZERO = "Not covering 0 (§ 617b.8(g)(2): half back on 0)"


def by_kind(spots: list[SpotTotal]) -> tuple[dict, list[dict]]:
    """(the by-kind section, the contract's ``by_kind``)."""
    kinds: dict[str, list[SpotTotal]] = defaultdict(list)
    zero: dict[bool, list[SpotTotal]] = defaultdict(list)
    for spot in spots:
        kinds[spot.wager.kind.value].append(spot)
        zero[spot.wager.covers_zero].append(spot)

    def values(group: list[SpotTotal]) -> dict:
        handle = sum(s.handle for s in group)
        win = handle - sum(s.returned for s in group)
        expected = sum((s.expected_win for s in group), Fraction(0))
        return {
            "bets": sum(s.bets for s in group),
            "handle": handle,
            "win": win,
            "hold": ratio(win, handle),
            "expected_hold": ratio(expected, handle),
            "expected_win": decimal_text(expected),
        }

    rows = [
        {"kind": jinzi.KIND_LABELS[jinzi.WagerKind(kind)], "key": kind, **values(kinds[kind])}
        for kind in jinzi.WAGER_KINDS
        if kind in kinds
    ]
    split = [
        {"label": label, "row_type": "subtotal", "key": key, **values(zero[covers])}
        for covers, label, key in (
            (True, COVERS_ZERO, "covers_zero"),
            (False, NOT_ZERO, "not_zero"),
        )
        if covers in zero
    ]
    notes = [
        "Under the minimum paytable (§ 617b.8(f)) a wager covering 0 has an edge of 1/13 "
        "(7.692 %), any other 1/26 (3.846 %): zero's half-back (§ 617b.8(g)(2)) halves it.",
        "E adds each stake times its spot's edge at that stake, as paid: fractional odds "
        "round a return up to the cent (reading:round-up), which lowers the edge of some "
        "stakes.",
    ]
    body = section(
        "by_kind",
        "By wager kind, and covering 0 or not",
        BY_KIND_COLUMNS,
        [*rows, *split],
        totals=values(spots) if spots else None,
        notes=notes,
        sheet="By wager kind",
    )
    contract = [
        {key: value for key, value in row.items() if key not in ("row_type", "label")}
        | {"kind": row.get("key")}
        for row in [*rows, *split]
    ]
    return body, contract


def outcomes(counts: list[int]) -> tuple[dict, jinzi.ChiSquare]:
    chi = jinzi.outcome_chi_square(counts)
    total = sum(counts)
    expected = Fraction(total, jinzi.WHEEL_SIZE)
    rows = [
        {
            "number": str(number),
            "rounds": count,
            "expected": decimal_text(expected),
            "share": ratio(count, total),
        }
        for number, count in enumerate(counts)
    ]
    flag = "p < 0.01: the outcomes are less even than a fair wheel's" if chi.alarm else ""
    notes = [
        f"Chi-square {decimal_text(chi.statistic)} with {chi.degrees_of_freedom} degrees of "
        f"freedom, p = {chi.p_value:.6f}{' (' + flag + ')' if flag else ''}; a fair RNG "
        "(§ 810a.5, § 617b.8(e)) gives each number 1/13 of the rounds.",
    ]
    columns = [
        column("number", "Number"),
        column("rounds", "Rounds", "integer"),
        column("expected", "Expected (1/13)", "decimal"),
        column("share", "Share", "percent"),
    ]
    body = section(
        "outcomes",
        "Outcomes",
        columns,
        rows if total else [],
        totals={"rounds": total, "expected": decimal_text(total), "share": 1.0 if total else None}
        if total
        else None,
        notes=notes,
    )
    return body, chi
