"""Rules submissions (§ 601a.2, § 617b.8(a)): the games a holder offers, with their options."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction

import jinzi
from portal.access.policy import Action, require
from portal.accounts.models import CertificateHolder
from portal.compliance import messages as msg
from portal.compliance.dates import check_dates, refuse_after_sunset
from portal.compliance.models import (
    Game,
    Layout,
    ListedGame,
    Paytable,
    RecordStatus,
    RulesSubmission,
)
from portal.compliance.services import workflow
from portal.compliance.services.audited import create_with_audit
from portal.compliance.workflow import titled_version
from portal.compliance.zero_edges import FIELD, listings_zero_edges, require_acknowledged
from portal.core.errors import ValidationFailed
from portal.core.validation import clean_text

MAX_MINOR_UNITS = 100_000_000  # $1,000,000 in cents: far above any table limit


@dataclass(frozen=True)
class GameListing:
    """One game as the holder lists it; amounts in minor units."""

    paytable: Paytable
    layout: Layout
    chip_unit: int
    min_wager: int
    max_wager: int
    max_round_stake: int
    game: str = Game.JINZI_ROULETTE


def _check_listing(listing: GameListing, holder_id: int, index: int) -> None:
    prefix = f"games.{index}."
    errors: dict[str, list[str]] = {}

    def add(field: str, message: str) -> None:
        errors.setdefault(prefix + field, []).append(message)

    if listing.game not in Game.values:
        add("game", f"unknown game {listing.game!r}; this portal lists {Game.JINZI_ROULETTE}")
    for field, record in (("paytable", listing.paytable), ("layout", listing.layout)):
        if record.holder_id != holder_id:
            add(field, msg.OTHER_HOLDERS_RECORD.format(kind=field))
    amounts = {
        "chip_unit": listing.chip_unit,
        "min_wager": listing.min_wager,
        "max_wager": listing.max_wager,
        "max_round_stake": listing.max_round_stake,
    }
    for field, value in amounts.items():
        if type(value) is not int or not 0 < value <= MAX_MINOR_UNITS:
            add(field, f"{field} must be a whole number of minor units from 1 to {MAX_MINOR_UNITS}")
    if errors:
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)
    chip = listing.chip_unit
    if chip % 2:
        # One error: the limits are judged in chips of a valid unit, so an odd one would
        # make each of them look wrong too.
        add("chip_unit", msg.CHIP_UNIT_ODD.format(value=chip))
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)
    for field in ("min_wager", "max_wager", "max_round_stake"):
        if amounts[field] % chip:
            add(field, msg.LIMIT_NOT_MULTIPLE.format(field=field, chip=chip, value=amounts[field]))
    if not chip <= listing.min_wager <= listing.max_wager <= listing.max_round_stake:
        add("max_wager", msg.LIMITS_ORDER)
    if errors:
        raise ValidationFailed(" ".join(sum(errors.values(), [])), field_errors=errors)


def check_games(games: list[GameListing], holder_id: int) -> None:
    if not games:
        raise ValidationFailed.on("games", msg.NO_GAMES)
    seen: set[str] = set()
    for index, listing in enumerate(games):
        if listing.game in seen:
            raise ValidationFailed.on("games", msg.GAME_TWICE.format(game=listing.game))
        seen.add(listing.game)
        _check_listing(listing, holder_id, index)


def refuse_new_submission_after_sunset() -> None:
    """§ 617b.8's sunset: once no approval could hold (on or after 2028-06-14, a Pennsylvania
    date), no new rules submission is created; a Conflict says why. Public so that the form
    runs this same check with its others and shows every error at once."""
    refuse_after_sunset("rules submission", "created")


def _title(title: str) -> str:
    return clean_text("title", title, what="the rules submission a title", max_length=200)


def _store_games(submission: RulesSubmission, rows: list[dict]) -> None:
    ListedGame.objects.filter(submission=submission).delete()
    ListedGame.objects.bulk_create(ListedGame(submission=submission, **row) for row in rows)


def _write_games(submission: RulesSubmission, games: list[GameListing]) -> None:
    _store_games(
        submission,
        [
            {
                "game": listing.game,
                "paytable_id": listing.paytable.pk,
                "layout_id": listing.layout.pk,
                "chip_unit": listing.chip_unit,
                "min_wager": listing.min_wager,
                "max_wager": listing.max_wager,
                "max_round_stake": listing.max_round_stake,
            }
            for listing in games
        ],
    )


@transaction.atomic
def rules_submission_create(
    *,
    actor,
    holder: CertificateHolder,
    title: str,
    games: list[GameListing],
    effective_date: datetime.date | None = None,
    expiry_date: datetime.date | None = None,
    notes: str = "",
) -> RulesSubmission:
    require(actor, Action.DRAFT, holder)
    refuse_new_submission_after_sunset()
    check_games(games, holder.pk)
    check_dates(effective_date, expiry_date)
    submission = RulesSubmission(
        holder=holder,
        title=_title(title),
        notes=notes or "",
        effective_date=effective_date,
        expiry_date=expiry_date,
        created_by=actor,
    )
    return create_with_audit(
        submission, actor=actor, after_save=lambda saved: _write_games(saved, games)
    )


_UNSET = object()


@transaction.atomic
def rules_submission_update(
    *,
    actor,
    submission: RulesSubmission,
    title=_UNSET,
    notes=_UNSET,
    effective_date=_UNSET,
    expiry_date=_UNSET,
    games: list[GameListing] | None = None,
) -> RulesSubmission:
    def build(record: RulesSubmission) -> dict:
        changes: dict = {}
        if title is not _UNSET:
            changes["title"] = _title(title)
        if notes is not _UNSET:
            changes["notes"] = notes or ""
        for field, value in (("effective_date", effective_date), ("expiry_date", expiry_date)):
            if value is not _UNSET:
                changes[field] = value
        check_dates(
            changes.get("effective_date", record.effective_date),
            changes.get("expiry_date", record.expiry_date),
        )
        if games is not None:
            check_games(games, record.holder_id)
        return changes

    return workflow.update_draft(
        submission,
        actor=actor,
        build=build,
        apply=(lambda record: _write_games(record, games)) if games is not None else None,
    )


def _listed_records_approved(listings: list[ListedGame]) -> None:
    errors: list[str] = []
    for listing in listings:
        for kind, record in (("paytable", listing.paytable), ("layout", listing.layout)):
            if record.status != RecordStatus.APPROVED:
                errors.append(
                    msg.LISTED_NOT_APPROVED.format(
                        kind=kind,
                        label=titled_version(record),
                        status=record.get_status_display().lower(),
                    )
                )
    if errors:
        raise ValidationFailed(" ".join(errors), field_errors={"games": errors})


def _zero_edges_accepted(
    listings: list[ListedGame], reason: str, acknowledged: str | None
) -> tuple[str, ...]:
    """The edge ≤ 0 check at the stakes each table allows: a paytable approved over every
    even stake may still leave the house no edge at this table's stakes. Approving such a
    listing needs the acknowledgement of exactly those wagers and a reason
    (reading:edge-acknowledgement); returns the wagers acknowledged."""
    try:
        found = listings_zero_edges(listings)
    except jinzi.JinziError as error:
        raise ValidationFailed.on("games", str(error)) from None
    require_acknowledged(found, acknowledged)
    if found and not reason.strip():
        raise ValidationFailed.on("reason", msg.LISTING_EDGE_REASON_REQUIRED)
    return found.lines


def rules_submission_submit(*, actor, submission: RulesSubmission) -> RulesSubmission:
    def check(locked: RulesSubmission) -> None:
        refuse_after_sunset("rules submission", "submitted")
        if not locked.games.exists():
            raise ValidationFailed.on("games", msg.NO_GAMES)

    return workflow.take(submission, "submit", actor=actor, check=check)


def rules_submission_approve(
    *,
    actor,
    submission: RulesSubmission,
    reason: str = "",
    edge_acknowledged: str | None = None,
    impact: str | None = None,
) -> RulesSubmission:
    """Approve a rules submission (§ 601a.2): an amendment supersedes the approved version
    and moves its tables onto this one, with what it lists (reading:supersede). A listing
    that leaves a wager with a house edge of zero or less at its stakes needs that list
    acknowledged and a reason (reading:edge-acknowledgement)."""
    noted: dict = {}

    def check(locked: RulesSubmission) -> None:
        if locked.effective_date is None or locked.expiry_date is None:
            raise ValidationFailed.on("expiry_date", msg.DATES_REQUIRED)
        check_dates(locked.effective_date, locked.expiry_date)
        listings = list(locked.games.select_related("paytable", "layout"))
        _listed_records_approved(listings)
        lines = _zero_edges_accepted(listings, reason or "", edge_acknowledged)
        if lines:
            noted[FIELD] = list(lines)  # recorded by the approval's event

    return workflow.take(
        submission, "approve", actor=actor, reason=reason, check=check, impact=impact, noted=noted
    )


# The steps with nothing of a rules submission's own, as the workflow's table declares them.
rules_submission_reject = workflow.step_entry(
    "reject", kind="rules_submission", keyword="submission"
)
rules_submission_request_changes = workflow.step_entry(
    "request_changes", kind="rules_submission", keyword="submission"
)
rules_submission_withdraw = workflow.step_entry(
    "withdraw", kind="rules_submission", keyword="submission"
)


def _copy_games(old: RulesSubmission, new: RulesSubmission) -> None:
    _store_games(new, list(old.games.values(*ListedGame.COPIED_FIELDS)))


def rules_submission_amend(*, actor, submission: RulesSubmission) -> RulesSubmission:
    """An amendment (§ 601a.2): the next version, which supersedes this one once approved."""
    refuse_after_sunset("rules submission", "amended")
    return workflow.amend(submission, actor=actor, copy=_copy_games)
