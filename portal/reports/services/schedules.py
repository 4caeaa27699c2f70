"""The schedule's report runs: each report asked for once, however often the schedule fires."""

from __future__ import annotations

import datetime
import json

from django.db import transaction

import jinzi
from portal.accounts.models import CertificateHolder
from portal.core.padates import gaming_day, pa_date
from portal.reports import definitions
from portal.reports.models import ReportKind, ReportRun, RunStatus
from portal.reports.services.runs import report_run_request


@transaction.atomic
def report_run_schedule(*, kind: str, parameters: dict) -> tuple[ReportRun, bool]:
    """The schedule's request: as ``report_run_request``, but a report that already ran
    (or is running) with these parameters is not asked for again, so a schedule that fires
    more often than its reports change (hourly, for gaming days that end at different
    hours) makes each report once. A failed run is asked for again."""
    report = definitions.definition(kind)
    cleaned = definitions.clean(kind, parameters)  # once: the request takes them as they are
    key = json.dumps(cleaned, sort_keys=True, separators=(",", ":"))
    done = ReportRun.objects.filter(
        kind=kind, parameters_key=key, definition_version=report.version
    ).exclude(status=RunStatus.FAILED)
    existing = done.order_by("-pk").first()
    if existing is not None:
        return existing, False
    return report_run_request(actor=None, kind=kind, parameters=cleaned, via="schedule")


def _previous_gaming_days(now: datetime.datetime) -> list[tuple[int, datetime.date]]:
    """Each holder and its last gaming day that has ended by ``now`` (within § 617b.8's
    life)."""
    days = []
    for holder_pk, start_hour in CertificateHolder.objects.order_by("pk").values_list(
        "pk", "gaming_day_start_hour"
    ):
        day = gaming_day(now, start_hour) - datetime.timedelta(days=1)
        if jinzi.EFFECTIVE <= day < jinzi.SUNSET:
            days.append((holder_pk, day))
    return days


def audit_runs_daily(*, now: datetime.datetime) -> list[ReportRun]:
    """Each holder's audit report of its previous gaming day, once that day has ended.

    The schedule calls this hourly, since a holder's gaming day may start at any hour
    (reading:gaming-day); a report already made is not asked for again."""
    return [
        report_run_schedule(
            kind=ReportKind.AUDIT,
            parameters={"start": day.isoformat(), "end": day.isoformat(), "holder": holder},
        )[0]
        for holder, day in _previous_gaming_days(now)
    ]


def account_summaries_daily(*, now: datetime.datetime) -> list[ReportRun]:
    """Each holder's Player Account Summary (§ 811a.9(d)(1)) of its previous gaming day,
    once that day has ended; hourly, made once, as the audit report's."""
    return [
        report_run_schedule(
            kind=ReportKind.ACCOUNT_SUMMARY,
            parameters={"day": day.isoformat(), "holder": holder},
        )[0]
        for holder, day in _previous_gaming_days(now)
    ]


def audit_runs_monthly(*, now: datetime.datetime) -> list[ReportRun]:
    """The audit report of the calendar month before ``now``'s (Pennsylvania), for each holder
    once its last gaming day of that month has ended, and for all holders once every
    holder's has (its days within § 617b.8's life).

    The schedule calls this hourly: a holder whose gaming day starts at 06:00 finishes the
    month's last day on the 1st at 06:00, and its report must not be cut short."""
    end = pa_date(now).replace(day=1) - datetime.timedelta(days=1)
    start = max(end.replace(day=1), jinzi.EFFECTIVE)
    end = min(end, jinzi.SUNSET - datetime.timedelta(days=1))
    if start > end:
        return []
    period = {"start": start.isoformat(), "end": end.isoformat()}
    ended = {
        holder_pk: gaming_day(now, start_hour) - datetime.timedelta(days=1) >= end
        for holder_pk, start_hour in CertificateHolder.objects.order_by("pk").values_list(
            "pk", "gaming_day_start_hour"
        )
    }
    holders = [pk for pk, done in ended.items() if done]
    if ended and all(ended.values()):
        holders.insert(0, None)
    return [
        report_run_schedule(kind=ReportKind.AUDIT, parameters={**period, "holder": holder})[0]
        for holder in holders
    ]
