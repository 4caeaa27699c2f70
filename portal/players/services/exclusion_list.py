"""The holders' copy of the Board's interactive-gaming self-exclusion list (§ 815a.4),
imported by compliance officers (reading:exclusion-list-import).

Each file is declared a full edition or additions and removals; it is read whole or refused
whole (``portal.players.list_file``), kept sealed with who imported it, and never imported
twice. A person is matched by the keyed digest of their normalised legal name or any alias
with their date of birth (``portal.players.sealing``):

- an exact match excludes the player at once at every holder: the exclusion is written on
  their wallet under its lock (so no round or deposit that takes the lock afterwards goes
  through), their browser sessions end and their API tokens are revoked, and each holder
  they hold an account with is told (the audit event its payments staff are notified of);
- an exact match whose SSN digits conflict, or a near match (the same surname and date of
  birth), goes to an officer's review instead of being decided alone;
- a removal (asked by a changes file, or implied by a full edition that no longer lists the
  person) applies only once a second officer confirms it.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import F, Value
from django.db.models.functions import Greatest
from django.utils import timezone

from portal.access.roles import Role, has_role
from portal.accounts.models import ApiToken
from portal.audit.services import audit_record
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed
from portal.core.padates import pa_time, pa_today
from portal.core.validation import MAX_ID
from portal.game.models import GamingAccount, PlaySession
from portal.players import list_file, sealing
from portal.players.models import (
    ExclusionPeriod,
    ExclusionSource,
    ListEntry,
    ListEntryName,
    ListImport,
    ListKind,
    ListReview,
    PlayerExclusion,
    PlayerFile,
    ReviewCause,
    ReviewOutcome,
)
from portal.players.services.exclusion import locked_wallet, standing_apply

OFFICERS_ONLY = "§ 815a.4: only compliance officers import the Board's list and decide on it"
KIND_UNKNOWN = "§ 815a.4: say whether the file is a full edition or additions and removals"
FILE_NEEDED = "§ 815a.4: choose the list file to import"
FILE_NAME_LIMIT = 200
ALREADY_IMPORTED = "§ 815a.4: this file was already imported on {when} (import #{id})"
NO_SUCH_ENTRY = "no list entry {id}"
NO_SUCH_REVIEW = "no review {id}"
NOT_ASKED = "§ 815a.4: no removal of this entry is waiting for confirmation"
OWN_REMOVAL = (
    "§ 815a.4: a removal is confirmed by a second officer, not by the officer who imported it"
)
REVIEW_DECIDED = "§ 815a.4: this review was already decided"
OWN_ENTRY = (
    "§ 815a.4: you may not decide on a listing that concerns you; another officer decides it"
)
OUTCOME_UNKNOWN = "§ 815a.4: decide whether this player is the listed person or not"
NOTE_NEEDED = "§ 815a.4: say how you decided (up to 2,000 characters)"

PERIODS = {
    list_file.Period.ONE_YEAR: ExclusionPeriod.ONE_YEAR,
    list_file.Period.FIVE_YEARS: ExclusionPeriod.FIVE_YEARS,
    list_file.Period.LIFE: ExclusionPeriod.LIFE,
}
KINDS = {
    ListKind.FULL_EDITION: list_file.ListKind.FULL_EDITION,
    ListKind.CHANGES: list_file.ListKind.CHANGES,
}


def _officer(actor) -> None:
    if not (has_role(actor, Role.COMPLIANCE) or getattr(actor, "is_superuser", False)):
        raise NotPermitted(OFFICERS_ONLY)


def person_key(person: list_file.ListedPerson) -> str:
    return sealing.person_key(person.full_name, person.date_of_birth)


def _name_keys(person: list_file.ListedPerson) -> list[str]:
    return list(dict.fromkeys(sealing.person_key(n, person.date_of_birth) for n in person.names))


def _sealed_person(person: list_file.ListedPerson) -> str:
    return sealing.seal(
        {
            "surname": person.surname,
            "given_names": person.given_names,
            "aliases": list(person.aliases),
            "date_of_birth": person.date_of_birth.isoformat(),
            "ssn_last4": person.ssn_last4 or "",
            "date_listed": person.date_listed.isoformat(),
            "period": str(person.period),
        }
    )


@dataclass
class _Plan:
    additions: list[list_file.ListedPerson]
    removals: list[ListEntry]
    # Listed again while a removal of them waited for its confirmation: the removal is
    # withdrawn, the Board having the last word.
    kept: list[ListEntry]


def _plan(parsed: list_file.ListFile, current: dict[str, ListEntry]) -> _Plan:
    if parsed.kind is list_file.ListKind.FULL_EDITION:
        incoming = {person_key(p): p for p in parsed.people}
        additions = [p for key, p in incoming.items() if key not in current]
        removals = [e for key, e in current.items() if key not in incoming]
        listed_again = [e for key, e in current.items() if key in incoming]
    else:
        additions, removals, listed_again = [], [], []
        for person in parsed.people:
            key = person_key(person)
            if person.change is list_file.Change.ADD:
                if key in current:
                    listed_again.append(current[key])
                else:
                    additions.append(person)
            elif person.change is list_file.Change.REMOVE and key in current:
                removals.append(current[key])
    return _Plan(
        additions,
        [e for e in removals if e.removal_asked_by_id is None],
        [e for e in listed_again if e.removal_asked_by_id is not None],
    )


@transaction.atomic
def list_import(*, actor, data, file_name: str, kind, today: datetime.date | None = None):
    """Import one file of the Board's list; the import as kept."""
    _officer(actor)
    if kind not in ListKind.values:
        raise ValidationFailed.on("kind", KIND_UNKNOWN)
    if not isinstance(data, bytes) or not data:
        raise ValidationFailed.on("file", FILE_NEEDED)
    try:
        parsed = list_file.read_list_file(
            data, kind=KINDS[ListKind(kind)], today=today or pa_today()
        )
    except list_file.ListFileRefused as refused:
        raise ValidationFailed.on("file", str(refused)) from None
    earlier = ListImport.objects.filter(digest=parsed.digest).first()
    if earlier is not None:
        raise ValidationFailed.on(
            "file",
            ALREADY_IMPORTED.format(when=f"{pa_time(earlier.imported_at):%d %B %Y}", id=earlier.pk),
        )
    now = timezone.now()
    record = ListImport.objects.create(
        kind=kind,
        digest=parsed.digest,
        file_name=(file_name or "")[:FILE_NAME_LIMIT],
        sealed_file=sealing.seal({"file": data.decode("utf-8-sig")}),
        imported_by=actor,
        imported_at=now,
        people=len(parsed.people),
    )
    current = {
        e.person_key: e
        for e in ListEntry.objects.select_for_update().filter(removed_at__isnull=True)
    }
    plan = _plan(parsed, current)
    added = _add(record, plan.additions)
    for entry in plan.removals:
        entry.removal_asked_by = record
    for entry in plan.kept:
        entry.removal_asked_by = None
    ListEntry.objects.bulk_update([*plan.removals, *plan.kept], ["removal_asked_by"])
    excluded, reviews = _match(added, actor=actor, at=now, source=record)
    record.added = len(added)
    record.removals_asked = len(plan.removals)
    record.players_excluded = len(excluded)
    record.reviews_opened = reviews
    record.save(update_fields=["added", "removals_asked", "players_excluded", "reviews_opened"])
    audit_record(
        actor=actor,
        action="exclusion_list.import",
        object_type="exclusion_list_import",
        object_id=record.pk,
        after={
            "kind": kind,
            "people": record.people,
            "added": record.added,
            "removals_asked": record.removals_asked,
            "players_excluded": record.players_excluded,
            "reviews_opened": reviews,
        },
    )
    return record


def _add(record: ListImport, people: list[list_file.ListedPerson]) -> list[tuple]:
    entries = ListEntry.objects.bulk_create(
        ListEntry(
            person_key=person_key(person),
            surname_key=sealing.person_key(person.surname, person.date_of_birth),
            sealed=_sealed_person(person),
            period=PERIODS[person.period],
            date_listed=person.date_listed,
            added_by=record,
        )
        for person in people
    )
    if any(entry.pk is None for entry in entries):  # a database without RETURNING
        by_key = {e.person_key: e for e in ListEntry.objects.filter(added_by=record)}
        entries = [by_key[person_key(person)] for person in people]
    ListEntryName.objects.bulk_create(
        ListEntryName(entry=entry, key=key)
        for entry, person in zip(entries, people, strict=True)
        for key in _name_keys(person)
    )
    return list(zip(entries, people, strict=True))


def _match(added: list[tuple], *, actor, at, source) -> tuple[set[int], int]:
    """Exclude the players the new entries name; open reviews for the uncertain ones."""
    if not added:
        return set(), 0
    by_key: dict[str, list[tuple]] = defaultdict(list)
    by_surname: dict[str, list[tuple]] = defaultdict(list)
    for entry, person in added:
        for key in _name_keys(person):
            by_key[key].append((entry, person))
        by_surname[entry.surname_key].append((entry, person))
    exact = PlayerFile.objects.filter(name_key__in=list(by_key))
    to_exclude: dict[int, ListEntry] = {}
    reviews: list[ListReview] = []
    for player_file in exact:
        for entry, person in by_key[player_file.name_key]:
            theirs = sealing.unseal(player_file.sealed).get("ssn_last4") or ""
            if person.ssn_last4 and theirs and person.ssn_last4 != theirs:
                reviews.append(_review(entry, player_file.player_id, ReviewCause.SSN_CONFLICT, at))
            else:
                to_exclude.setdefault(player_file.player_id, entry)
    matched = {pf.player_id for pf in exact}
    near = PlayerFile.objects.filter(surname_key__in=list(by_surname)).exclude(
        player_id__in=matched
    )
    for player_file in near:
        for entry, _person in by_surname[player_file.surname_key]:
            reviews.append(_review(entry, player_file.player_id, ReviewCause.NEAR_MATCH, at))
    ListReview.objects.bulk_create(reviews, ignore_conflicts=True)
    for player_id in sorted(to_exclude):  # wallets locked in one order: no deadlock
        exclude_listed(player_id=player_id, entry=to_exclude[player_id], actor=actor, at=at)
    return set(to_exclude), len(reviews)


def _review(entry: ListEntry, player_id: int, cause: ReviewCause, at) -> ListReview:
    return ListReview(entry=entry, player_id=player_id, cause=cause, opened_at=at)


def sessions_end(player_id: int, *, at) -> tuple[int, int]:
    """End every open session of the player at once: their browser sessions (by the key
    each play session recorded) and their API tokens. (sessions, tokens) ended."""
    open_sessions = PlaySession.objects.filter(user_id=player_id, ended_at__isnull=True)
    keys = [key for key in open_sessions.values_list("session_key", flat=True) if key]
    Session.objects.filter(session_key__in=keys).delete()
    # A session begun after ``at`` (a sign-in racing the exclusion) ends as it begins.
    sessions = open_sessions.update(ended_at=Greatest(Value(at), F("started_at")))
    tokens = ApiToken.objects.filter(user_id=player_id, revoked_at__isnull=True).update(
        revoked_at=at
    )
    return sessions, tokens


def exclude_listed(*, player_id: int, entry: ListEntry, actor, at) -> PlayerExclusion:
    """The listed player excluded at every holder: under their wallet's lock."""
    wallet = locked_wallet(player_id)
    exclusion = PlayerExclusion.objects.create(
        player_id=player_id,
        source=ExclusionSource.BOARD_LIST,
        period=entry.period,
        starts_at=at,
        list_entry=entry,
        recorded_by=actor,
    )
    standing_apply(wallet, at=at)
    sessions, tokens = sessions_end(player_id, at=at)
    holders = sorted(
        GamingAccount.objects.filter(player_id=player_id).values_list("holder_id", flat=True)
    )
    audit_record(
        actor=actor,
        action="player.list_exclude",
        object_type="player",
        object_id=player_id,
        after={
            "list_entry": entry.pk,
            "holder_ids": holders,
            "sessions_ended": sessions,
            "tokens_revoked": tokens,
        },
    )
    return exclusion


def listed(identity) -> bool:
    """Whether the holders' copy of the list names this person (by name or alias, with the
    date of birth)."""
    return ListEntryName.objects.filter(
        key=identity.name_key, entry__removed_at__isnull=True
    ).exists()


def _entry_or_404(entry_id) -> ListEntry:
    if type(entry_id) is not int or not 0 < entry_id <= MAX_ID:
        raise NotFound(NO_SUCH_ENTRY.format(id=entry_id))
    entry = (
        ListEntry.objects.select_for_update(of=("self",))
        .select_related("removal_asked_by")
        .filter(pk=entry_id)
        .first()
    )
    if entry is None:
        raise NotFound(NO_SUCH_ENTRY.format(id=entry_id))
    return entry


@transaction.atomic
def list_removal_confirm(*, actor, entry_id) -> ListEntry:
    """A second officer confirms a removal the Board asked: the entry leaves the copy and its
    players' exclusions by it are lifted (each under its wallet's lock)."""
    _officer(actor)
    entry = _entry_or_404(entry_id)
    if entry.removal_asked_by is None or entry.removed_at is not None:
        raise Conflict(NOT_ASKED)
    if entry.removal_asked_by.imported_by_id == actor.pk:
        raise NotPermitted(OWN_REMOVAL)
    if PlayerExclusion.objects.filter(list_entry=entry, player=actor).exists():
        raise NotPermitted(OWN_ENTRY)
    now = timezone.now()
    entry.removal_confirmed_by = actor
    entry.removed_at = now
    entry.save(update_fields=["removal_confirmed_by", "removed_at"])
    lifted = list(
        PlayerExclusion.objects.filter(list_entry=entry, lifted_at__isnull=True)
        .order_by("player_id")
        .values_list("player_id", flat=True)
    )
    for player_id in lifted:
        wallet = locked_wallet(player_id)
        PlayerExclusion.objects.filter(list_entry=entry, player_id=player_id).update(lifted_at=now)
        standing_apply(wallet, at=now)
    audit_record(
        actor=actor,
        action="exclusion_list.removal_confirm",
        object_type="exclusion_list_entry",
        object_id=entry.pk,
        after={"removal_asked_by": entry.removal_asked_by_id, "players_lifted": lifted},
    )
    return entry


@transaction.atomic
def list_review_decide(*, actor, review_id, outcome, note) -> ListReview:
    """An officer decides a possible match: the listed person (excluded at once), or not."""
    _officer(actor)
    if type(review_id) is not int or not 0 < review_id <= MAX_ID:
        raise NotFound(NO_SUCH_REVIEW.format(id=review_id))
    review = ListReview.objects.select_for_update().filter(pk=review_id).first()
    if review is None:
        raise NotFound(NO_SUCH_REVIEW.format(id=review_id))
    if review.player_id == actor.pk:
        raise NotPermitted(OWN_ENTRY)
    if outcome not in ReviewOutcome.values:
        raise ValidationFailed.on("outcome", OUTCOME_UNKNOWN)
    note = note.strip() if isinstance(note, str) else ""
    if not note or len(note) > 2000:
        raise ValidationFailed.on("note", NOTE_NEEDED)
    if review.decided_at is not None:
        raise Conflict(REVIEW_DECIDED)
    now = timezone.now()
    review.outcome = outcome
    review.note = note
    review.decided_by = actor
    review.decided_at = now
    review.save(update_fields=["outcome", "note", "decided_by", "decided_at"])
    entry = ListEntry.objects.get(pk=review.entry_id)
    if outcome == ReviewOutcome.SAME_PERSON and entry.removed_at is None:
        exclude_listed(player_id=review.player_id, entry=entry, actor=actor, at=now)
    audit_record(
        actor=actor,
        action="exclusion_list.review_decide",
        object_type="exclusion_list_review",
        object_id=review.pk,
        after={"outcome": outcome, "player_id": review.player_id, "list_entry": entry.pk},
        reason=note,
    )
    return review
