"""Which rounds an audit report covers: a period of gaming days, per certificate holder.

**Reading** (reading:round-start-day): a round belongs to the gaming day its play started
in (``started_at``), even when it ends after that day, counted with its holder's gaming-day
start hour (reading:gaming-day). A report over several holders whose days start at
different hours therefore covers a slightly different stretch of instants for each; every
figure is computed over exactly those rounds.

Rounds started after the report began (``cutoff``), or stored after it (``last_round``), are
left out, so a report of a day still being played is a fixed picture: every part of it
reads the same rounds.

A round voided by then (§ 617a.6, reading:voids-and-adjustments: an approved void decided
before the cutoff) stays in the period of the round but is counted apart from play:
``played`` leaves it out of handle, win, E and SD, while the pass still re-settles and
chain-checks every round of ``q`` and the reconciliation accounts for the void's money. A
round adjusted by then (§ 812a.7(a)(9)) stays in play; both are named (``voided``,
``adjusted``) so the detail can give each bet its round's state.

**Reading** (reading:late-corrections): a correction decided over the period's instants to
a round of an earlier gaming day is reported by this period, apart (``applied_late``); the
handle and win of the round's own period are not rewritten.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime
from dataclasses import dataclass, field

from django.db.models import Max, Q

from portal.accounts.models import CertificateHolder
from portal.compliance.models import Offering
from portal.core.padates import day_starts
from portal.game.models import CorrectionKind, CorrectionStatus, Round, RoundCorrection


@dataclass(frozen=True)
class Holder:
    pk: int
    name: str
    start_hour: int
    first: datetime.datetime  # the instant the period's first gaming day starts (UTC)
    end: datetime.datetime  # the instant after its last gaming day, capped at the cutoff
    # The start of each gaming day of the period, and the instant after the last.
    day_starts: tuple[datetime.datetime, ...] = field(repr=False)


@dataclass(frozen=True)
class Scope:
    start: datetime.date
    end: datetime.date
    holder_id: int | None
    offering_id: int | None
    cutoff: datetime.datetime
    last_round: int  # the highest round id stored when the report began
    holders: dict[int, Holder]
    offerings: dict[int, tuple[int, str]]  # offering pk → (holder pk, name), all in scope
    # The rounds of the period voided before the cutoff: out of play, still in the pass.
    voided: frozenset[int] = frozenset()
    # The rounds of the period adjusted before the cutoff (§ 812a.7(a)(9)): still in play.
    adjusted: frozenset[int] = frozenset()

    @property
    def days(self) -> list[datetime.date]:
        count = (self.end - self.start).days + 1
        return [self.start + datetime.timedelta(days=n) for n in range(count)]

    @property
    def money_span(self) -> tuple[datetime.datetime, datetime.datetime]:
        """The instants the wallets are reconciled over: from the earliest holder's first
        gaming day to the latest's end (one span when every day starts at the same hour)."""
        if not self.holders:
            start = day_starts(self.start)
            return start, min(day_starts(self.end + datetime.timedelta(days=1)), self.cutoff)
        return (
            min(h.first for h in self.holders.values()),
            max(h.end for h in self.holders.values()),
        )

    def spans(self) -> list[tuple[datetime.datetime, datetime.datetime, list[int]]]:
        """The scope's rounds as instants of play: (from, until, holders), one per distinct
        stretch (one in all when every holder's day starts at the same hour)."""
        spans: dict[tuple[datetime.datetime, datetime.datetime], list[int]] = {}
        for h in self.holders.values():
            spans.setdefault((h.first, h.end), []).append(h.pk)
        return [(first, end, pks) for (first, end), pks in spans.items()]

    def q(self, prefix: str = "") -> Q:
        """The filter of the scope's rounds; ``prefix`` reaches a round from another model
        (``"round__"`` from a bet or a ledger entry)."""
        spans = self.spans()
        if not spans:
            return Q(pk__in=[])
        condition = Q()
        for first, end, pks in spans:
            condition |= Q(
                **{
                    f"{prefix}offering__holder_id__in": pks,
                    f"{prefix}started_at__gte": first,
                    f"{prefix}started_at__lt": end,
                }
            )
        if self.offering_id is not None:
            condition &= Q(**{f"{prefix}offering_id": self.offering_id})
        return condition & Q(**{f"{prefix}pk__lte": self.last_round})

    def applied_late(self) -> Q:
        """The filter of the corrections applied (decided) over the period's instants to
        rounds of earlier gaming days (reading:late-corrections), from a ``RoundCorrection``:
        per holder, decided within its days (up to the cutoff), its round started before
        its first day. A correction of a round of the period is not late: it is reported
        with its round."""
        spans = self.spans()
        if not spans:
            return Q(pk__in=[])
        condition = Q()
        for first, end, pks in spans:
            condition |= Q(
                round__offering__holder_id__in=pks,
                decided_at__gte=first,
                decided_at__lt=end,
                round__started_at__lt=first,
            )
        if self.offering_id is not None:
            condition &= Q(round__offering_id=self.offering_id)
        return condition

    def part(self, first: datetime.date, last: datetime.date) -> Scope:
        """The same scope over some of its gaming days, ``first`` to ``last``: the same
        cutoff, last round and voids, so the parts of a period are its rounds exactly once
        (the pass may be split by gaming day and joined again)."""
        offset, count = (first - self.start).days, (last - first).days + 1
        if offset < 0 or last > self.end or count < 1:
            raise ValueError(f"{first} to {last} is not within {self.start} to {self.end}")
        holders = {}
        for pk, h in self.holders.items():
            starts = h.day_starts[offset : offset + count + 1]
            end = min(starts[-1], self.cutoff)
            holders[pk] = dataclasses.replace(h, first=starts[0], end=end, day_starts=starts)
        return dataclasses.replace(self, start=first, end=last, holders=holders)

    def played(self, prefix: str = "") -> Q:
        """``q`` without the void rounds: the rounds that count as play."""
        if not self.voided:
            return self.q(prefix)
        return self.q(prefix) & ~Q(**{f"{prefix}pk__in": sorted(self.voided)})

    def gaming_day(self, offering_id: int, started_at: datetime.datetime) -> datetime.date:
        """The gaming day of a round in scope (by bisection on its holder's day starts)."""
        starts = self.holders[self.offerings[offering_id][0]].day_starts
        index = bisect.bisect_right(starts, started_at) - 1
        return self.start + datetime.timedelta(days=index)


def last_round_before(cutoff: datetime.datetime) -> int:
    """The highest id of the rounds stored now that started before ``cutoff`` (0 if none)."""
    return Round.objects.filter(started_at__lt=cutoff).aggregate(last=Max("pk"))["last"] or 0


def scope_of(
    *,
    start: datetime.date,
    end: datetime.date,
    holder_id: int | None,
    offering_id: int | None,
    cutoff: datetime.datetime,
    last_round: int | None = None,
) -> Scope:
    """The scope of a report as of ``cutoff``. ``last_round``: the highest round id it reads,
    when it was fixed already (the parts of a report split over several workers read the
    same rounds); otherwise the highest stored now (``last_round_before``)."""
    holders = CertificateHolder.objects.order_by("name")
    offerings = Offering.objects.order_by("name")
    if holder_id is not None:
        holders = holders.filter(pk=holder_id)
        offerings = offerings.filter(holder_id=holder_id)
    if offering_id is not None:
        offerings = offerings.filter(pk=offering_id)
        holders = holders.filter(pk__in=offerings.values("holder_id"))
    count = (end - start).days + 1
    found = {}
    for pk, name, hour in holders.values_list("pk", "name", "gaming_day_start_hour"):
        starts = tuple(
            day_starts(start + datetime.timedelta(days=n), hour) for n in range(count + 1)
        )
        found[pk] = Holder(pk, name, hour, starts[0], min(starts[-1], cutoff), starts)
    # Rounds are append-only and stored in one short transaction: capping the id as well
    # as the start keeps every part of the report on the same rounds while play goes on.
    if last_round is None:
        last_round = last_round_before(cutoff)
    scope = Scope(
        start=start,
        end=end,
        holder_id=holder_id,
        offering_id=offering_id,
        cutoff=cutoff,
        last_round=last_round,
        holders=found,
        offerings={
            pk: (holder, name)
            for pk, holder, name in offerings.values_list("pk", "holder_id", "name")
        },
    )
    decided = RoundCorrection.objects.filter(
        scope.q("round__"),
        kind__in=(CorrectionKind.VOID, CorrectionKind.ADJUSTMENT),
        status=CorrectionStatus.APPROVED,
        decided_at__lt=cutoff,
    ).values_list("round_id", "kind")
    found: dict[str, set[int]] = {CorrectionKind.VOID: set(), CorrectionKind.ADJUSTMENT: set()}
    for round_id, kind in decided:
        found[kind].add(round_id)
    return dataclasses.replace(
        scope,
        voided=frozenset(found[CorrectionKind.VOID]),
        adjusted=frozenset(found[CorrectionKind.ADJUSTMENT]),
    )
