"""The audit report's document: what an auditor signs for a period of gaming days
(reading:expected-win, § 811a.9), made from its parts in the order the data flows.

``audit_report`` returns the report document (``portal.reports.document``) with, beside its
sections, the contract's own keys: ``period`` {start, end}, ``totals``, ``outcome_counts``,
``chi_square``, ``chi_square_p``, ``resettlement``, ``reconciliation``, ``exceptions`` and
``routine`` (each such section's key, title and count), ``groups``, ``by_kind`` and
``charts``. Money is integer cents; expected win and SD are decimal strings
in cents to 4 places.

Its parts, in order (each timed in ``timings``, in seconds):
1. ``figures``: the database's sums of rounds (``figures.sums``): a fixed number of GROUP BY
   queries;
2. ``pass``: one streamed pass over every bet (``resettlement``; on PostgreSQL the columnar
   pass, a block of rounds at a time): re-settlement, moments, round chains, and the sums by
   spot and stake (``figures.spots``), which the reconciliation holds against the rounds'
   own totals;
3. ``reconciliation``: ledger, accounts (``reading.ledger``) and the audit chain
   (``figures.reconciliation``);
4. ``exceptions``: what needs an auditor's attention (big wins, generous paytables, void
   rounds and adjustments, corrections to earlier gaming days, rounds on an offering that
   was not live), then the routine records listed beside them and not counted as
   exceptions (changes in the period, exports taken) (``sections.exceptions``,
   ``sections.voids_and_adjustments``, ``sections.late_corrections``);
and the detail (``sections.detail``), streamed again each time a CSV or XLSX file is
written.
"""

from __future__ import annotations

import dataclasses
import datetime
import time
from collections.abc import Callable

from django.utils import timezone

from portal.accounts.models import CertificateHolder
from portal.core.padates import pa_time
from portal.reports.audit_report.figures import hold, reconciliation, spots, sums
from portal.reports.audit_report.figures.chart_data import daily_charts, outcome_chart
from portal.reports.audit_report.reading.ledger import account_lines
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.resettle import resettle
from portal.reports.audit_report.scope import Scope, scope_of
from portal.reports.audit_report.sections import (
    checks,
    detail,
    exceptions,
    late_corrections,
    summary,
    voids_and_adjustments,
)
from portal.reports.audit_report.values import (
    GroupKey,
    band_text,
    decimal_text,
    ratio,
    sqrt_text,
)
from portal.reports.document import made, streamed_section

TITLE = "Audit report"
DEFINITION_VERSION = "1"
ALL_HOLDERS = "All certificate holders"
DEFAULT_WIN_THRESHOLD = 1_000_000  # cents: $10,000
PARTS = 4


def _listed(part: dict) -> int:
    """The rows a section lists (its subtotals and totals left out)."""
    return sum(1 for row in part["rows"] if row["row_type"] == "detail")


@dataclasses.dataclass
class _Parts:
    """Times each part as it ends (``timings``, in seconds) and tells ``progress``."""

    progress: Callable[[int, int], None] | None
    timings: dict[str, float] = dataclasses.field(default_factory=dict)
    clock: float = dataclasses.field(default_factory=time.perf_counter)

    def done(self, part: str, number: int) -> None:
        self.timings[part] = round(time.perf_counter() - self.clock, 3)
        self.clock = time.perf_counter()
        if self.progress is not None:
            self.progress(number, PARTS)


@dataclasses.dataclass(frozen=True)
class _Figures:
    """Part 1: the database's sums of the period's rounds."""

    rounds: dict[GroupKey, sums.RoundTotal]
    players: sums.Players
    counts: list[int]
    odd: sums.OddRng

    @classmethod
    def of(cls, scope: Scope) -> _Figures:
        return cls(
            rounds=sums.round_totals(scope),
            players=sums.distinct_players(scope),
            counts=sums.outcome_counts(scope),
            odd=sums.odd_rng_rounds(scope),
        )


def _reconciled(
    scope: Scope, figures: _Figures, total: hold.Hold, found: Pass, lines: list[dict]
) -> dict:
    """Part 3: the stakes and returns three ways (the rounds' own totals, the bets the
    pass re-settled, the ledger), the account lines and the corrections."""
    stakes_ledger, returns_ledger = reconciliation.ledger_of_rounds(scope)
    rounds = figures.rounds.values()
    return reconciliation.reconciliation(
        stakes=reconciliation.Money(sum(r.staked for r in rounds), total.handle, stakes_ledger),
        returns=reconciliation.Money(
            sum(r.returned for r in rounds), total.returned, returns_ledger
        ),
        account_lines=lines,
        found=found,
        corrections=reconciliation.corrected(scope),
        late=reconciliation.corrected_late(scope),
    )


def _exception_sections(
    scope: Scope, by_spot: list[spots.SpotTotal], win_threshold: int
) -> tuple[list[dict], list[dict]]:
    """Part 4: what an auditor looks at by hand: the exceptions, which need their attention
    (each row flagged, an irregularity or a correction), and the routine records listed
    beside them, which are not exceptions (each saying so in a note)."""
    wins = sums.big_wins(scope, win_threshold)
    changes, violations = exceptions.record_sections(scope)
    attention = [
        exceptions.big_wins_section(scope, wins, win_threshold),
        exceptions.generous_section(scope, by_spot),
        *voids_and_adjustments.sections(scope),
        *late_corrections.sections(scope),
        violations,
    ]
    return attention, exceptions.routine([changes, exceptions.exports_section(scope)])


def _counts(parts: list[dict]) -> list[dict]:
    """Each section's key, title and the rows it lists."""
    return [{"key": part["key"], "title": part["title"], "count": _listed(part)} for part in parts]


def _detail_section(scope: Scope, bets: int) -> dict:
    """Every bet, streamed again each time a file is written."""
    return streamed_section(
        "detail",
        "Detail: every bet",
        detail.COLUMNS,
        lambda: detail.detail_rows(scope),
        count=bets,
        notes=["One row per bet of the period, in round order (§ 810a.11's game record)."],
    )


def _totals(total: hold.Hold, summary_section: dict) -> dict:
    """The period's totals, with the summary's flag and z for the whole."""
    whole = summary_section["totals"]["values"] if summary_section["totals"] else None
    return {
        "rounds": total.rounds,
        "players": total.players,
        "bets": total.bets,
        "handle": total.handle,
        "returned": total.returned,
        "win": total.win,
        "expected_win": decimal_text(total.expected_win),
        "win_sd": sqrt_text(total.variance),
        "flag": whole["flag"] if whole else "",
        "hold": ratio(total.win, total.handle),
        "expected_hold": ratio(total.expected_win, total.handle),
        "z": whole["z"] if whole else None,
        "band": band_text(total.expected_win, total.variance, total.handle, total.win),
    }


def _holder_name(holder_id: int | None) -> str:
    if holder_id is None:
        return ALL_HOLDERS
    return CertificateHolder.objects.get(pk=holder_id).name


def audit_report(
    *,
    start: datetime.date,
    end: datetime.date,
    holder_id: int | None = None,
    offering_id: int | None = None,
    win_threshold: int = DEFAULT_WIN_THRESHOLD,
    now: datetime.datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
    found: Pass | None = None,
    last_round: int | None = None,
) -> dict:
    """The report over ``start`` to ``end``. ``found``: the pass already made (its parts run
    on several workers and joined, ``finishing.joined``) over the same scope: the report
    reads the same rounds (``now`` and ``last_round`` fix them: ``scope_of``) and does not
    make it again."""
    now = now or timezone.now()
    parts = _Parts(progress)
    scope = scope_of(
        start=start,
        end=end,
        holder_id=holder_id,
        offering_id=offering_id,
        cutoff=now,
        last_round=last_round,
    )
    figures = _Figures.of(scope)
    parts.done("figures", 1)

    if found is None:
        found = resettle(scope)
    # The sums by spot and stake come from the pass, which read every bet; the rounds' own
    # totals (the database's) are reconciled against them below.
    by_spot = spots.spot_totals_of(found.spot_rows(), spots.Edges())
    parts.done("pass", 2)

    holds = hold.group_holds(by_spot, figures.rounds, found)
    summary_section, groups, total = summary.summary(scope, holds, figures.players)
    kinds, by_kind = summary.by_kind(by_spot)
    outcomes, chi = summary.outcomes(figures.counts)
    lines = account_lines(scope)
    money = _reconciled(scope, figures, total, found, lines)
    parts.done("reconciliation", 3)

    exception_sections, routine_sections = _exception_sections(scope, by_spot, win_threshold)
    parts.done("exceptions", 4)

    return {
        "report": "audit",
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        **made(now),
        "holder": _holder_name(holder_id),
        "period": {"start": start.isoformat(), "end": end.isoformat()},
        "filters": {"holder": holder_id, "offering": offering_id, "win_threshold": win_threshold},
        "cutoff": {
            "pa": pa_time(scope.cutoff).isoformat(),
            "utc": scope.cutoff.isoformat(),
            "last_round": scope.last_round,
        },
        "totals": _totals(total, summary_section),
        "exceptions": _counts(exception_sections),
        "routine": _counts(routine_sections),
        "odd_rng_rounds": figures.odd.count,
        "outcome_counts": figures.counts,
        "chi_square": decimal_text(chi.statistic),
        "chi_square_p": f"{chi.p_value:.6f}",
        "chi_square_alarm": chi.alarm,
        "resettlement": {
            "checked": found.bets_checked,
            "rounds": found.rounds_checked,
            "discrepancy_count": found.discrepancy_count,
            "discrepancies": found.discrepancies,
        },
        "reconciliation": money,
        "groups": groups,
        "by_kind": by_kind,
        "charts": [outcome_chart(figures.counts), *daily_charts(scope, found)],
        "timings": parts.timings,
        "sections": [
            summary_section,
            kinds,
            outcomes,
            checks.odd_rng_section(scope, figures.odd),
            checks.resettlement_section(found),
            checks.reconciliation_section(money),
            checks.accounts_section(lines),
            checks.chains_section(found),
            *exception_sections,
            *routine_sections,
            _detail_section(scope, total.bets),
        ],
    }
