"""The expiry report: what each approval's expiry and § 617b.8's sunset take down, as of a date.

A pure read (no files, no Celery): ``expiry_report`` returns the document of
``portal.reports.document`` (§ 811a.9: title, software and definition versions, holder,
period, generation time, column titles, subtotals and totals, filters, "No Activity").

Sections, in order:
1. ``rule``: § 617b.8's life, effective 2025-06-14, sunset 2028-06-14 (reading:pennsylvania-dates).
2. ``approvals``: every layout (§ 601a.10), paytable (§ 617b.8(f)) and rules submission
   (§ 601a.2) version; its stored status against the status its dates imply on ``as_of``.
3. ``superseded``: superseded layout and paytable versions still in play, because an active
   table's approved rules submission still lists them, and the amendment each needs
   (reading:supersede).
4. ``offerings``: live or not on ``as_of`` (reading:live-offering), when each goes dark, its rounds.
5. ``changes``: approvals, supersessions, expiries and withdrawals (the audit trail,
   § 811a.7) and the game availability log (§ 811a.7(f)) over the report's period.
6. ``stuck``: drafts and submissions that can no longer be approved, and layout reviews
   past § 601a.10(a)'s 15 days.
7. ``job``: when the midnight expiry job last ran and what it changed.
8. ``violations``: rounds (§ 810a.11) played while a part of their offering did not hold
   (a superseded version its rules submission still listed held on: reading:supersede).

Choices this report makes (each is also a note in the document):
- every date is a Pennsylvania date (``portal.core.padates``, reading:pennsylvania-dates),
  ``as_of`` included;
- the period of ``changes`` is the 30 PA days up to and including ``as_of``;
- liveness is asked at noon of ``as_of`` (PA): ``offering_is_live`` reads only the PA date,
  and noon lies inside that date even on the days the clocks change;
- an approval without an expiry date holds until the sunset (reading:open-approval-sunset);
- rounds and audit events after the end of ``as_of`` are left out.

It runs a fixed number of queries whatever the number of rows: 11, one more with a holder
filter, one more once the expiry job has run (its last run is a second read). Rounds are
aggregated in the database, one row per offering and part versions.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from django.utils import timezone

from portal.accounts.models import CertificateHolder
from portal.reports.document import made
from portal.reports.expiry.activity import SECTIONS
from portal.reports.expiry.world import load_world

DEFINITION_VERSION = "2"  # 2: the superseded versions still in play
TITLE = "Expiry report"
ALL_HOLDERS = "All certificate holders"


def expiry_report(
    *,
    as_of: datetime.date,
    holder_id: int | None = None,
    offering_id: int | None = None,
    now: datetime.datetime | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """The expiry report as of the Pennsylvania date ``as_of`` (a § 811a.9 document).

    ``progress(done, total)`` is called after each of the eight sections.
    """
    now = now or timezone.now()
    holder = (
        CertificateHolder.objects.get(pk=holder_id).name if holder_id is not None else ALL_HOLDERS
    )
    world = load_world(as_of, holder_id, offering_id)
    sections = []
    for done, build in enumerate(SECTIONS, 1):
        sections.append(build(world))
        if progress is not None:
            progress(done, len(SECTIONS))
    return {
        "report": "expiry",
        "title": TITLE,
        "definition_version": DEFINITION_VERSION,
        **made(now),
        "holder": holder,
        "period": {"as_of": as_of.isoformat()},
        "filters": {"holder": holder_id, "offering": offering_id},
        "sections": sections,
    }
