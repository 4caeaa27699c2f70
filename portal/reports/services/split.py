"""An audit report's pass over every bet, split by gaming day over several workers.

With a result backend (``CELERY_RESULT_BACKEND``), an audit run over more than one gaming
day is not made by the one task that claims it: that task fixes the instant the report
reads the rounds as of (the run's ``cutoff``) and sends a chord: one part per stretch of
consecutive gaming days (``JINZI_AUDIT_SPLITS`` at most), each an unfinished pass
(``resettle(part, part=True)``) sent back as JSON, then the join, which joins the parts
(``finishing.joined``: the figures of a single pass), builds the document with that
pass and writes its files. If a part or the join fails, the error callback marks the run
failed. Nothing waits on a result inside a task.

Without a result backend (``make run``'s filesystem broker, or no broker) the run is made
in one piece, as ever. The chord is sent by its tasks' names, like the run itself: the
services import no task. The run's life (claim, finish, fail) is ``runs``'s.
"""

from __future__ import annotations

import datetime

from celery import chord, current_app
from django.conf import settings

from portal.reports import audit_report, definitions
from portal.reports.audit_report.resettlement.findings import Pass
from portal.reports.audit_report.resettlement.finishing import joined
from portal.reports.audit_report.resettlement.resettle import resettle
from portal.reports.audit_report.scope import scope_of
from portal.reports.definitions import AuditParameters
from portal.reports.models import ReportKind, ReportRun

PART_TASK = "reports.audit_part"  # one part's pass (``portal.reports.tasks.audit_part``)
JOIN_TASK = "reports.audit_join"  # the chord's body (``portal.reports.tasks.audit_join``)
FAILED_TASK = "reports.audit_failed"  # its error callback (``tasks.audit_failed``)

Days = tuple[datetime.date, datetime.date]


def split_days(start: datetime.date, end: datetime.date, splits: int) -> list[Days]:
    """``start`` to ``end`` in at most ``splits`` stretches of consecutive gaming days, as
    even as they come (the longer ones first), in order: each day in exactly one."""
    count = (end - start).days + 1
    splits = max(1, min(splits, count))
    size, longer = divmod(count, splits)
    parts, first = [], start
    for number in range(splits):
        days = size + (1 if number < longer else 0)
        last = first + datetime.timedelta(days=days - 1)
        parts.append((first, last))
        first = last + datetime.timedelta(days=1)
    return parts


def split_plan(run: ReportRun, parameters: AuditParameters | None = None) -> list[Days] | None:
    """The parts ``run`` is made in on several workers, or None when it is made in one
    piece: not an audit report, no result backend, ``JINZI_AUDIT_SPLITS`` 1, or a single
    gaming day. ``parameters``: the run's, read already (``Definition.read``)."""
    if run.kind != ReportKind.AUDIT or not settings.CELERY_RESULT_BACKEND:
        return None
    if parameters is None:
        parameters = AuditParameters.read(run.parameters)
    splits = settings.JINZI_AUDIT_SPLITS
    if splits <= 1 or parameters.start >= parameters.end:
        return None
    return split_days(parameters.start, parameters.end, splits)


def split_launch(run: ReportRun, cutoff: datetime.datetime, plan: list[Days]) -> None:
    """Send the chord: a part task per stretch of ``plan``, then the join; the error
    callback (on the join: Celery calls it when a part fails too) fails the run. Each part
    and the join get the report's time limits."""
    soft, hard = definitions.definition(run.kind).time_limits
    at = cutoff.isoformat()
    limits = {"soft_time_limit": soft, "time_limit": hard}
    header = [
        current_app.signature(
            PART_TASK, args=(run.pk, at, first.isoformat(), last.isoformat()), **limits
        )
        for first, last in plan
    ]
    body = current_app.signature(JOIN_TASK, args=(run.pk, at), **limits)
    body.link_error(current_app.signature(FAILED_TASK, kwargs={"run_id": run.pk, "cutoff": at}))
    chord(header, body).apply_async()


def pass_part(
    parameters: AuditParameters,
    cutoff: datetime.datetime,
    last_round: int,
    first: datetime.date,
    last: datetime.date,
) -> dict:
    """The unfinished pass over the gaming days ``first`` to ``last`` of the report as of
    ``cutoff`` (and its ``last_round``, fixed with it), as JSON (a Celery result)."""
    scope = scope_of(**parameters.scope_arguments(), cutoff=cutoff, last_round=last_round)
    part = scope.part(first, last)
    return resettle(part, part=True).to_json()


def joined_document(
    parameters: AuditParameters, cutoff: datetime.datetime, last_round: int, parts: list[dict]
) -> dict:
    """The report's document from its parts' passes (``pass_part``), as of ``cutoff``: the
    same as the report made in one piece as of that instant."""
    found = joined(Pass.from_json(part) for part in parts)
    return audit_report.audit_report(
        **parameters.scope_arguments(),
        win_threshold=parameters.win_threshold,
        now=cutoff,
        last_round=last_round,
        found=found,
    )
