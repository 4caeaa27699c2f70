"""Reads of compliance records: what is live, what awaits whom, and a record's history."""

from __future__ import annotations

import datetime
import functools
from dataclasses import dataclass

from django.db.models import QuerySet
from django.utils import timezone

import jinzi
from portal.accounts.policy import Action, may, visible
from portal.audit.models import AuditEvent
from portal.compliance.models import (
    SUNSET,
    Game,
    Layout,
    ListedGame,
    Offering,
    OfferingStatus,
    Paytable,
    RecordStatus,
    RulesSubmission,
    VersionedRecord,
)
from portal.core.rawsql import RowReader

RECORD_MODELS: tuple[type[VersionedRecord], ...] = (Layout, Paytable, RulesSubmission)


@dataclass(frozen=True)
class Liveness:
    live: bool
    reasons: tuple[str, ...]

    def __bool__(self) -> bool:
        return self.live


def _record_reasons(record: VersionedRecord, what: str, today: datetime.date) -> list[str]:
    reasons = []
    name = f"{what} v{record.version}"
    if record.status == RecordStatus.SUPERSEDED:
        reasons.append(f"the {name} has been superseded by a later version")
    elif record.status == RecordStatus.EXPIRED:
        reasons.append(f"the {name} has expired")
    elif record.status != RecordStatus.APPROVED:
        reasons.append(f"the {name} is not approved (it is {record.get_status_display().lower()})")
    if record.effective_date and today < record.effective_date:
        reasons.append(f"the {name} takes effect on {record.effective_date.isoformat()}")
    if record.expiry_date and today >= record.expiry_date and record.status != "expired":
        reasons.append(f"the {name} expired on {record.expiry_date.isoformat()}")
    return reasons


def offering_is_live(offering: Offering, *, at: datetime.datetime | None = None) -> Liveness:
    """Whether players may bet on ``offering`` at ``at`` (UTC), and if not, every reason why.

    Live needs (DOMAIN.md §3): an approved rules submission listing Jinzi Roulette with
    this layout and paytable, an approved layout, an approved paytable meeting
    § 617b.8(f), none of them superseded, expired or before its effective date, and
    the moment before the regulation's sunset (2028-06-14).
    """
    at = at or timezone.now()
    today = at.astimezone(datetime.UTC).date()
    reasons: list[str] = []
    if offering.status != OfferingStatus.ACTIVE:
        reasons.append("the offering is retired")
    if today >= SUNSET:
        reasons.append("§ 617b.8 expired on 2028-06-14 (sunset)")
    elif today < jinzi.EFFECTIVE:
        reasons.append("§ 617b.8 takes effect on 2025-06-14")
    rules = offering.rules_submission
    reasons += _record_reasons(rules, "rules submission", today)
    reasons += _record_reasons(offering.layout, "layout", today)
    reasons += _record_reasons(offering.paytable, "paytable", today)
    listings = [g for g in rules.games.all() if g.game == Game.JINZI_ROULETTE]
    if not listings:
        reasons.append("the rules submission does not list Jinzi Roulette (§ 617b.8(a))")
    elif listings[0].layout_id != offering.layout_id or listings[0].paytable_id != (
        offering.paytable_id
    ):
        reasons.append("the rules submission lists another layout or paytable for Jinzi Roulette")
    try:
        offering.paytable.to_domain()
    except jinzi.JinziError as exc:
        reasons.append(f"the paytable is not valid: {exc}")
    try:
        offering.layout.wheel()
    except jinzi.JinziError as exc:
        reasons.append(f"the layout's wheel is not valid: {exc}")
    return Liveness(live=not reasons, reasons=tuple(reasons))


def offerings_with_parts() -> QuerySet[Offering]:
    """Offerings with everything ``offering_is_live`` reads, in a constant number of queries."""
    return Offering.objects.select_related(
        "holder", "rules_submission", "layout", "paytable"
    ).prefetch_related("rules_submission__games")


_RECORD_PLAY_FIELDS = ("id", "status", "version", "effective_date", "expiry_date")


@functools.cache
def offering_play_join() -> tuple[tuple[RowReader, ...], str]:
    """How a round reads its offering inside its own statement (``portal.game.store``).

    Returns the readers of the columns to select and the LEFT JOINs that supply them:
    the offering, its rules submission, layout and paytable, and the submission's
    Jinzi Roulette listing: just what ``offering_is_live`` and settlement read. The
    joins take two parameters, the offering's id and then the game.
    """
    readers = (
        RowReader(
            Offering,
            ("id", "holder", "name", "status", "rules_submission", "layout", "paytable"),
            "o",
        ),
        RowReader(RulesSubmission, _RECORD_PLAY_FIELDS, "rs"),
        RowReader(Layout, (*_RECORD_PLAY_FIELDS, "wheel_order"), "l"),
        RowReader(Paytable, (*_RECORD_PLAY_FIELDS, "odds"), "p"),
        RowReader(ListedGame, (f.name for f in ListedGame._meta.concrete_fields), "g"),
    )
    joins = (
        f"LEFT JOIN {Offering._meta.db_table} o ON o.id = %s "
        f"LEFT JOIN {RulesSubmission._meta.db_table} rs ON rs.id = o.rules_submission_id "
        f"LEFT JOIN {Layout._meta.db_table} l ON l.id = o.layout_id "
        f"LEFT JOIN {Paytable._meta.db_table} p ON p.id = o.paytable_id "
        f"LEFT JOIN {ListedGame._meta.db_table} g "
        "ON g.submission_id = rs.id AND g.game = %s"
    )
    return readers, joins


def offering_play_params(pk: int) -> list:
    return [pk, Game.JINZI_ROULETTE.value]


def offering_from_play_row(values, connection) -> Offering | None:
    """The offering read by ``offering_play_join``'s columns, wired together as
    ``select_related`` and ``prefetch_related("rules_submission__games")`` leave it;
    None when there is no such offering."""
    readers, _ = offering_play_join()
    parts = []
    start = 0
    for reader in readers:
        chunk = values[start : start + len(reader)]
        start += len(reader)
        parts.append(reader.read(chunk, connection) if chunk[0] is not None else None)
    offering, rules, layout, paytable, listing = parts
    if offering is None:
        return None
    for name, part in (("rules_submission", rules), ("layout", layout), ("paytable", paytable)):
        Offering._meta.get_field(name).set_cached_value(offering, part)
    # A listing is unique per (submission, game): the join yields at most one.
    rules._prefetched_objects_cache = {"games": [listing] if listing is not None else []}
    return offering


def records_for(user, model: type[VersionedRecord]) -> QuerySet:
    return visible(user, model.objects.select_related("holder", "created_by", "submitted_by"))


def awaiting_review(user) -> list[VersionedRecord]:
    """Submitted records ``user`` could decide (not their own: four-eyes)."""
    from portal.compliance.services.workflow import is_own_work

    if not may(user, Action.DECIDE):
        return []
    items: list[VersionedRecord] = []
    for model in RECORD_MODELS:
        submitted = records_for(user, model).filter(status=RecordStatus.SUBMITTED)
        items += [record for record in submitted if not is_own_work(record, user)]
    return sorted(items, key=lambda r: r.submitted_at or r.created_at)


def expiring_within(user, days: int = 30, *, today: datetime.date | None = None) -> list:
    today = today or timezone.now().date()
    until = today + datetime.timedelta(days=days)
    items: list[VersionedRecord] = []
    for model in RECORD_MODELS:
        items += list(
            records_for(user, model).filter(
                status=RecordStatus.APPROVED, expiry_date__gt=today, expiry_date__lte=until
            )
        )
    return sorted(items, key=lambda r: r.expiry_date)


def drafts_for(user) -> list[VersionedRecord]:
    """Drafts and records sent back for changes, for those who draft (managers)."""
    if not may(user, Action.DRAFT):
        return []
    items: list[VersionedRecord] = []
    for model in RECORD_MODELS:
        items += list(
            records_for(user, model).filter(
                status__in=(RecordStatus.DRAFT, RecordStatus.CHANGES_REQUESTED)
            )
        )
    return sorted(items, key=lambda r: r.updated_at, reverse=True)


def record_history(record) -> QuerySet[AuditEvent]:
    """The audit events of one version of a record (each version has its own id; the
    other versions of its series are listed by ``series_versions``)."""
    return AuditEvent.objects.filter(object_type=record.kind, object_id=str(record.pk)).order_by(
        "sequence"
    )


def series_versions(record: VersionedRecord) -> QuerySet:
    return type(record).objects.filter(series=record.series).order_by("-version")
