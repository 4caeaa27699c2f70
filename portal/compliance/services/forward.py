"""The way forward to a new layout or paytable version: amend the rules submission to use it.

A table runs on the versions its approved rules submission lists (§ 601a.2, § 617b.8(a)).
Once a new layout or paytable version is approved, the manager moves their tables to it by
amending that rules submission so that its Jinzi Roulette listing names the new version, and
having the amendment approved. ``rules_submission_amend_to_use`` starts that amendment with
the listing filled in: the workflow's own amendment (``rules_submission_amend``: audited,
only the latest version, none open, four-eyes data as any amendment) then its own edit
(``rules_submission_update``: audited, the listing checked as any listing).
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction

from portal.access.policy import Action, require
from portal.compliance import messages as msg
from portal.compliance.models import (
    Game,
    ListedGame,
    RecordStatus,
    RulesSubmission,
    VersionedRecord,
)
from portal.compliance.services.rules import (
    GameListing,
    rules_submission_amend,
    rules_submission_update,
)
from portal.compliance.unlisted import LATER_STEP, listed_part
from portal.compliance.workflow import label
from portal.core.errors import Conflict, ValidationFailed

NOT_A_PART = "only a layout or a paytable version is listed in a rules submission"
NOT_APPROVED = (
    "§ 601a.2: {record} is {status}; only an approved {kind} can be listed in place of the "
    "one a rules submission lists"
)
RULES_NOT_APPROVED = (
    "{rules} is {status}; only an approved rules submission is amended to use a new {kind} "
    "version (a draft is edited instead)"
)
NOT_LISTED = (
    "§ 617b.8(a): {rules} does not list Jinzi Roulette with any version of {kind} {name!r}, "
    "so there is no version to replace: edit or amend it to choose the {kind} yourself"
)
ALREADY_USES = "{rules} already lists {record} for Jinzi Roulette: there is nothing to amend"
LISTS_LATER = "{rules} lists a later version than {record} (v{listed}) for Jinzi Roulette"
LATER_VERSION_EXISTS = (
    "{rules} already has a later version, v{later} ({status}): {what} that version to list "
    "{record} instead"
)


def _as_listing(row: ListedGame) -> GameListing:
    return GameListing(
        paytable=row.paytable,
        layout=row.layout,
        chip_unit=row.chip_unit,
        min_wager=row.min_wager,
        max_wager=row.max_wager,
        max_round_stake=row.max_round_stake,
        game=row.game,
    )


def _check(rules: RulesSubmission, record: VersionedRecord, part: str) -> None:
    """Refuse, saying why, what the amendment could not be (nothing is written yet)."""
    kind = part
    if record.holder_id != rules.holder_id:
        raise ValidationFailed.on(part, msg.OTHER_HOLDERS_RECORD.format(kind=kind))
    if record.status != RecordStatus.APPROVED:
        raise Conflict(
            NOT_APPROVED.format(
                record=label(record), status=record.get_status_display().lower(), kind=kind
            )
        )
    if rules.status != RecordStatus.APPROVED:
        raise Conflict(
            RULES_NOT_APPROVED.format(
                rules=label(rules).capitalize(),
                status=rules.get_status_display().lower(),
                kind=kind,
            )
        )
    later = (
        RulesSubmission.objects.filter(series=rules.series, version__gt=rules.version)
        .order_by("-version")
        .first()
    )
    if later is not None:
        raise Conflict(
            LATER_VERSION_EXISTS.format(
                rules=label(rules).capitalize(),
                later=later.version,
                status=later.get_status_display().lower(),
                what=LATER_STEP.get(later.status, "amend"),
                record=label(record),
            )
        )
    listing = next((g for g in rules.games.all() if g.game == Game.JINZI_ROULETTE), None)
    listed = getattr(listing, part) if listing is not None else None
    if listed is None or listed.series != record.series:
        raise Conflict(
            NOT_LISTED.format(rules=label(rules), kind=kind, name=record.title_for_display)
        )
    if listed.pk == record.pk:
        raise Conflict(ALREADY_USES.format(rules=label(rules).capitalize(), record=label(record)))
    if listed.version > record.version:
        raise Conflict(
            LISTS_LATER.format(
                rules=label(rules).capitalize(), record=label(record), listed=listed.version
            )
        )


@transaction.atomic
def rules_submission_amend_to_use(
    *, actor, rules_submission: RulesSubmission, record: VersionedRecord
) -> RulesSubmission:
    """Start the amendment of the approved ``rules_submission`` (its next version, a draft)
    whose Jinzi Roulette listing names ``record``, an approved layout or paytable version of
    the series it lists an older version of; every other value is carried over. Refused,
    nothing is written: another holder's records (403), a record or rules submission that
    is not approved, a later version of the rules submission already started, a listing
    with no version of ``record``'s series (409)."""
    part = listed_part(record)
    if part is None:
        raise ValidationFailed(NOT_A_PART)
    require(actor, Action.DRAFT, rules_submission)
    # The rows as they are now, locked: a decision taken meanwhile is seen.
    rules = RulesSubmission.objects.select_for_update().get(pk=rules_submission.pk)
    record = type(record).objects.select_for_update().get(pk=record.pk)
    _check(rules, record, part)
    draft = rules_submission_amend(actor=actor, submission=rules)
    rows = draft.games.select_related("layout", "paytable").order_by("pk")
    games = [
        replace(_as_listing(row), **{part: record})
        if row.game == Game.JINZI_ROULETTE
        else _as_listing(row)
        for row in rows
    ]
    return rules_submission_update(actor=actor, submission=draft, games=games)
