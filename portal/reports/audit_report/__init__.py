"""The audit report: what an auditor signs for a period of gaming days (reading:expected-win,
§ 811a.9).

``audit_report`` returns the report document (``portal.reports.document``) with, beside its
sections, the contract's own keys: ``period`` {start, end}, ``totals``, ``outcome_counts``,
``chi_square``, ``chi_square_p``, ``resettlement``, ``reconciliation``, ``groups``,
``by_kind`` and ``charts``. Money is integer cents; expected win and SD are decimal strings
in cents to 4 places.

Its parts, in order (each timed in ``timings``, in seconds):
1. ``figures``: the database's sums of rounds (``figures``): a fixed number of GROUP BY
   queries;
2. ``pass``: one streamed pass over every bet (``resettle``; on PostgreSQL ``columnar``, a
   block of rounds at a time): re-settlement, moments, round chains, and the sums by spot
   and stake, which the reconciliation holds against the rounds' own totals;
3. ``reconciliation``: ledger, accounts and the audit chain (``reconcile``);
4. ``exceptions``: big wins, generous paytables, void rounds and adjustments, changes,
   exports, violations;
and the detail (``detail``), streamed again each time a CSV or XLSX file is written.
"""

from __future__ import annotations

import datetime
import time
from collections.abc import Callable

from django.utils import timezone

from portal.accounts.models import CertificateHolder
from portal.core.padates import pa_time
from portal.reports.audit_report import (
    checks,
    corrections,
    detail,
    exceptions,
    figures,
    hold,
    reconcile,
    resettle,
)
from portal.reports.audit_report.charts import daily_charts, outcome_chart
from portal.reports.audit_report.numbers import band_text, decimal_text, ratio, sqrt_text
from portal.reports.audit_report.scope import scope_of
from portal.reports.document import made, streamed_section

TITLE = "Audit report"
DEFINITION_VERSION = "1"
ALL_HOLDERS = "All certificate holders"
DEFAULT_WIN_THRESHOLD = 1_000_000  # cents: $10,000
PARTS = 4


def _listed(part: dict) -> int:
    """The rows a section lists (its subtotals and totals left out)."""
    return sum(1 for row in part["rows"] if row["row_type"] == "detail")


def audit_report(
    *,
    start: datetime.date,
    end: datetime.date,
    holder_id: int | None = None,
    offering_id: int | None = None,
    win_threshold: int = DEFAULT_WIN_THRESHOLD,
    now: datetime.datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
    found: resettle.Pass | None = None,
    last_round: int | None = None,
) -> dict:
    """The report over ``start`` to ``end``. ``found``: the pass already made (its parts run
    on several workers and joined, ``resettle.joined``) over the same scope: the report
    reads the same rounds (``now`` and ``last_round`` fix them: ``scope_of``) and does not
    make it again."""
    now = now or timezone.now()
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def done(part: str, number: int) -> None:
        nonlocal clock
        timings[part] = round(time.perf_counter() - clock, 3)
        clock = time.perf_counter()
        if progress is not None:
            progress(number, PARTS)

    scope = scope_of(
        start=start,
        end=end,
        holder_id=holder_id,
        offering_id=offering_id,
        cutoff=now,
        last_round=last_round,
    )
    rounds = figures.round_totals(scope)
    players = figures.distinct_players(scope)
    counts = figures.outcome_counts(scope)
    odd = figures.odd_rng_rounds(scope)
    done("figures", 1)

    if found is None:
        found = resettle.resettle(scope)
    # The sums by spot and stake come from the pass, which read every bet; the rounds' own
    # totals (the database's) are reconciled against them below.
    spots = figures.spot_totals_of(found.spot_rows(), figures.Edges())
    done("pass", 2)

    holds = hold.group_holds(spots, rounds, found)
    summary, groups, total = hold.summary(scope, holds, players)
    kinds, by_kind = hold.by_kind(spots)
    outcomes, chi = hold.outcomes(counts)
    stakes_ledger, returns_ledger = reconcile.ledger_of_rounds(scope)
    account_rows = reconcile.accounts(scope)
    reconciliation = reconcile.reconciliation(
        stakes=reconcile.Money(sum(r.staked for r in rounds.values()), total.handle, stakes_ledger),
        returns=reconcile.Money(
            sum(r.returned for r in rounds.values()), total.returned, returns_ledger
        ),
        account_rows=account_rows,
        found=found,
        corrections=reconcile.corrected(scope),
    )
    done("reconciliation", 3)

    wins = figures.big_wins(scope, win_threshold)
    exception_sections = [
        exceptions.big_wins_section(scope, wins, win_threshold),
        exceptions.generous_section(scope, spots),
        *corrections.sections(scope),
        *exceptions.record_sections(scope),
        exceptions.exports_section(scope),
    ]
    done("exceptions", 4)

    sections = [
        summary,
        kinds,
        outcomes,
        checks.odd_rng_section(scope, odd),
        checks.resettlement_section(found),
        checks.reconciliation_section(reconciliation),
        checks.accounts_section(account_rows),
        checks.chains_section(found),
        *exception_sections,
        streamed_section(
            "detail",
            "Detail: every bet",
            detail.COLUMNS,
            lambda: detail.detail_rows(scope),
            count=total.bets,
            notes=["One row per bet of the period, in round order (§ 810a.11's game record)."],
        ),
    ]
    holder = (
        CertificateHolder.objects.get(pk=holder_id).name if holder_id is not None else ALL_HOLDERS
    )
    return {
        "report": "audit",
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        **made(now),
        "holder": holder,
        "period": {"start": start.isoformat(), "end": end.isoformat()},
        "filters": {"holder": holder_id, "offering": offering_id, "win_threshold": win_threshold},
        "cutoff": {
            "pa": pa_time(scope.cutoff).isoformat(),
            "utc": scope.cutoff.isoformat(),
            "last_round": scope.last_round,
        },
        "totals": {
            "rounds": total.rounds,
            "players": total.players,
            "bets": total.bets,
            "handle": total.handle,
            "returned": total.returned,
            "win": total.win,
            "expected_win": decimal_text(total.expected_win),
            "win_sd": sqrt_text(total.variance),
            "flag": summary["totals"]["values"]["flag"] if summary["totals"] else "",
            "hold": ratio(total.win, total.handle),
            "expected_hold": ratio(total.expected_win, total.handle),
            "z": summary["totals"]["values"]["z"] if summary["totals"] else None,
            "band": band_text(total.expected_win, total.variance, total.handle, total.win),
        },
        "exceptions": [
            {"key": part["key"], "title": part["title"], "count": _listed(part)}
            for part in exception_sections
        ],
        "odd_rng_rounds": odd.count,
        "outcome_counts": counts,
        "chi_square": decimal_text(chi.statistic),
        "chi_square_p": f"{chi.p_value:.6f}",
        "chi_square_alarm": chi.alarm,
        "resettlement": {
            "checked": found.bets_checked,
            "rounds": found.rounds_checked,
            "discrepancy_count": found.discrepancy_count,
            "discrepancies": found.discrepancies,
        },
        "reconciliation": reconciliation,
        "groups": groups,
        "by_kind": by_kind,
        "charts": [outcome_chart(counts), *daily_charts(scope, found)],
        "timings": timings,
        "sections": sections,
    }
