"""Reads about report runs: which earlier audit runs a later correction changed.

**Reading** (reading:late-corrections): a void or adjustment decided after an audit run read
the records is not written into that run (no report is rewritten). The run is marked
"corrected since", naming each such correction of a round it covered and the run that
reports it: the audit report of the gaming day the correction was applied, where it is
listed under "Corrections to earlier gaming days" (``audit_report.sections.late_corrections``).
When no such run has been made yet, the day it will be reported in is named instead.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from portal.core.padates import day_starts, gaming_day
from portal.game.models import CorrectionKind, CorrectionStatus, RoundCorrection
from portal.reports.models import ReportKind, ReportRun, RunStatus


@dataclass(frozen=True)
class LaterCorrection:
    """A correction decided after a run read the records, of a round the run covered."""

    correction: int
    kind: str
    round: int
    applied_at: datetime.datetime
    applied_day: datetime.date  # the gaming day it was applied in (its holder's)
    reported_in: int | None  # the audit run listing it as a late correction, if one ran

    @property
    def label(self) -> str:
        return CorrectionKind(self.kind).label


@dataclass(frozen=True)
class _Found:
    pk: int
    kind: str
    round: int
    round_started: datetime.datetime
    round_day: datetime.date
    offering: int
    holder: int
    applied_at: datetime.datetime
    applied_day: datetime.date


@dataclass(frozen=True)
class _Period:
    """What an audit run covered, read from its stored parameters."""

    pk: int
    start: datetime.date
    end: datetime.date
    holder: int | None
    offering: int | None
    as_of: datetime.datetime
    last_round: int | None

    @classmethod
    def of(cls, run: ReportRun) -> _Period | None:
        if run.kind != ReportKind.AUDIT or run.status != RunStatus.SUCCEEDED:
            return None
        if run.as_of is None:
            return None
        parameters = run.parameters or {}
        return cls(
            pk=run.pk,
            start=datetime.date.fromisoformat(parameters["start"]),
            end=datetime.date.fromisoformat(parameters["end"]),
            holder=parameters.get("holder"),
            offering=parameters.get("offering"),
            as_of=run.as_of,
            last_round=run.last_round,
        )

    def narrowed_to(self, found: _Found) -> bool:
        return self.holder in (None, found.holder) and self.offering in (None, found.offering)

    def changed_by(self, found: _Found) -> bool:
        """``found`` corrects a round this run read, after it read it."""
        return (
            self.narrowed_to(found)
            and self.start <= found.round_day <= self.end
            and found.round_started < self.as_of
            and (self.last_round is None or found.round <= self.last_round)
            and found.applied_at >= self.as_of
        )

    def reports_late(self, found: _Found) -> bool:
        """This run lists ``found`` under corrections to earlier gaming days."""
        return (
            self.narrowed_to(found)
            and self.start <= found.applied_day <= self.end
            and found.round_day < self.start
            and found.applied_at < self.as_of
        )


def _corrections_after(periods: list[_Period]) -> list[_Found]:
    """The approved corrections decided after the earliest run read the records, of rounds
    started within the runs' days: one query."""
    earliest = min(p.as_of for p in periods)
    # A gaming day may start up to 23 hours after the calendar day's midnight.
    first = day_starts(min(p.start for p in periods))
    last = max(p.as_of for p in periods)
    rows = (
        RoundCorrection.objects.filter(
            status=CorrectionStatus.APPROVED,
            decided_at__gte=earliest,
            round__started_at__gte=first,
            round__started_at__lt=last,
        )
        .order_by("decided_at", "pk")
        .values_list(
            "pk",
            "kind",
            "round_id",
            "round__started_at",
            "round__offering_id",
            "round__offering__holder_id",
            "round__offering__holder__gaming_day_start_hour",
            "decided_at",
        )
    )
    return [
        _Found(
            pk=pk,
            kind=kind,
            round=round_id,
            round_started=started,
            round_day=gaming_day(started, hour),
            offering=offering,
            holder=holder,
            applied_at=decided,
            applied_day=gaming_day(decided, hour),
        )
        for pk, kind, round_id, started, offering, holder, hour, decided in rows
    ]


def _reporting_runs(after: datetime.datetime) -> list[_Period]:
    """The audit runs that read the records after ``after``: one query."""
    runs = ReportRun.objects.filter(
        Q(cutoff__gt=after) | Q(cutoff=None, started_at__gt=after),
        kind=ReportKind.AUDIT,
        status=RunStatus.SUCCEEDED,
    ).only("pk", "kind", "status", "parameters", "cutoff", "started_at", "last_round")
    return [p for p in map(_Period.of, runs) if p is not None]


def _reporter(found: _Found, runs: list[_Period]) -> int | None:
    """The run that reports ``found`` late: the narrowest (one day, one holder) first, then
    the earliest."""
    reporting = [run for run in runs if run.reports_late(found)]
    if not reporting:
        return None
    best = min(
        reporting,
        key=lambda run: ((run.end - run.start).days, run.holder is None, run.as_of, run.pk),
    )
    return best.pk


def corrected_since(runs: Iterable[ReportRun]) -> dict[int, list[LaterCorrection]]:
    """For each succeeded audit run of ``runs``, the corrections decided after it read the
    records, of rounds it covered, in the order applied (runs no correction changed are left
    out). At most two queries however many runs: none when no run is an audit run, one when
    no correction came after them."""
    periods = [p for p in map(_Period.of, runs) if p is not None]
    if not periods:
        return {}
    found = _corrections_after(periods)
    changed = {period.pk: [f for f in found if period.changed_by(f)] for period in periods}
    changed = {pk: listed for pk, listed in changed.items() if listed}
    if not changed:
        return {}
    later = _reporting_runs(min(f.applied_at for listed in changed.values() for f in listed))
    return {
        pk: [
            LaterCorrection(
                correction=f.pk,
                kind=f.kind,
                round=f.round,
                applied_at=f.applied_at,
                applied_day=f.applied_day,
                reported_in=_reporter(f, later),
            )
            for f in listed
        ]
        for pk, listed in changed.items()
    }
