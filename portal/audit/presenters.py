"""How the audit trail reads (§ 811a.7): what each action is called, what each field of an
event's before and after is called and how its value shows, and the people and records an
event names, by their names. One place for the trail's pages and a record's History tab.

Nothing here shows a raw code: an action or field it has no label for is turned into words
("odds.split" → "Odds: Split", "foo_bar.do_it" → "Foo bar: do it"). Names are loaded in bulk,
one query per kind of thing named (people, holders, each kind of titled record), whatever
the number of events (``load_names``)."""

from __future__ import annotations

import datetime
import json
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from jinzi.wagers import KIND_LABELS as WAGER_LABELS
from portal.audit.models import AuditEvent
from portal.core.padates import pa_time
from portal.core.pages import detail_url, kind_label, object_name, object_titles, titled
from portal.core.pictures import ABSENT, WHOLE_VALUE, compare

MISSING = "—"

# --- Actions -----------------------------------------------------------------------------------

# A compliance record's steps (``<kind>.<verb>``, the verb a step of its workflow): the
# record is named beside it, so the verb alone is its label.
VERB_LABELS = {
    "create": "Created",
    "update": "Edited",
    "submit": "Submitted for review",
    "approve": "Approved",
    "reject": "Rejected",
    "request_changes": "Changes requested",
    "withdraw": "Approval withdrawn",
    "amend": "Amendment started",
    "supersede": "Superseded by a newer approval",
    "expire": "Expired",
    "retire": "Retired",
    "propose": "Proposed",
}

ACTION_LABELS = {
    # Offerings: set up, changed, retired; opened to play or closed (§ 811a.7(f)).
    "offering.opened": "Opened to play",
    "offering.closed": "Closed to play",
    # Rounds' voids and adjustments (§ 617a.6).
    "void.propose": "Void proposed",
    "void.approve": "Void approved and applied",
    "void.reject": "Void rejected",
    "adjustment.propose": "Adjustment proposed",
    "adjustment.approve": "Adjustment approved and applied",
    "adjustment.reject": "Adjustment rejected",
    # People and their sign-in.
    "auth.sign_in": "Signed in",
    "auth.sign_in_failed": "Sign-in failed",
    "auth.locked_out": "Locked out after failed sign-ins",
    "auth.sign_out": "Signed out",
    "auth.password_change": "Password changed",
    "auth.password_set": "Password set",
    "auth.second_factor_enrol": "Second factor set up",
    "auth.second_factor_verify": "Second factor code accepted",
    "auth.second_factor_failed": "Second factor code refused",
    "auth.second_factor_remove": "Second factor removed",
    "auth.second_factor_reset": "Second factor reset",
    "auth.recovery_codes_renew": "Recovery codes renewed",
    "user.create": "Person added",
    "user.update": "Person's role or holder changed",
    "holder.create": "Certificate holder added",
    "holder.update": "Certificate holder changed",
    "api_token.issue": "API token issued",
    "api_token.revoke": "API token revoked",
    # Players' accounts, money and play (§ 812a, § 814a).
    "account.open": "Player account opened",
    "account.deposit": "Deposit recorded",
    "account.limit": "Responsible gaming limits changed",
    "account.pause": "Play paused by the player",
    "account.status": "Account status changed",
    "withdrawal.request": "Withdrawal requested",
    "withdrawal.cancel": "Withdrawal cancelled",
    "withdrawal.pay": "Withdrawal paid",
    "withdrawal.refuse": "Withdrawal refused",
    "wallet.top_up": "Wallet topped up",
    # Reports and the trail itself.
    "report.request": "Report requested",
    "report.retry": "Report run again",
    "report.download": "Report downloaded",
    "audit_trail.export": "Audit trail exported",
}

# Kinds whose ``<kind>.<verb>`` actions read as the verb alone (their object is named beside).
RECORD_KINDS = ("layout", "paytable", "rules_submission", "offering")
# What the first part of an action is about, where its kind alone does not say it.
ACTION_GROUPS = {
    "auth": "Sign-in and security",
    "user": "Person",
    "holder": "Certificate holder",
    "account": "Player account",
    "wallet": "Wallet",
    "report": "Report",
}


def _about(kind: str) -> str:
    return ACTION_GROUPS.get(kind) or kind_label(kind)


def _lower_first(text: str) -> str:
    """ "Player account" → "player account"; an acronym stays ("API token")."""
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


def words(code: str) -> str:
    """A code in words, capitalised: "request_changes" → "Request changes"."""
    text = re.sub(r"[_\s]+", " ", str(code)).strip()
    return text[:1].upper() + text[1:] if text else MISSING


def action_label(action: str) -> str:
    """What an action is called: "paytable.amend" → "Amendment started"; one it does not
    know, in words ("odds.split" → "Odds: split")."""
    if action in ACTION_LABELS:
        return ACTION_LABELS[action]
    kind, _, verb = action.partition(".")
    if kind in RECORD_KINDS and verb in VERB_LABELS:
        return VERB_LABELS[verb]
    if not verb:
        return words(kind)
    return f"{_about(kind)}: {words(verb).lower()}"


def action_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    """The actions a filter offers, grouped by what they act on; each group opens with
    every action on that kind (its prefix, ``"layout."``)."""
    groups: dict[str, list[str]] = defaultdict(list)
    for kind in RECORD_KINDS:
        verbs = [*VERB_LABELS] if kind != "offering" else ["create", "update", "retire"]
        groups[kind].extend(f"{kind}.{verb}" for verb in verbs if verb != "propose")
    for action in ACTION_LABELS:
        groups[action.partition(".")[0]].append(action)
    return [
        (
            _about(kind),
            [(f"{kind}.", f"Any {_lower_first(_about(kind))} event")]
            + [(action, action_label(action)) for action in dict.fromkeys(actions)],
        )
        for kind, actions in groups.items()
    ]


# The kinds of object the trail's events act on, as a filter offers them.
OBJECT_KINDS = (
    "layout",
    "paytable",
    "rules_submission",
    "offering",
    "holder",
    "user",
    "api_token",
    "player_account",
    "withdrawal",
    "void",
    "adjustment",
    "report_run",
    "audit_trail",
)


def kind_choices() -> list[tuple[str, str]]:
    """The kinds of object a filter offers, by their names."""
    return sorted(((kind, _about(kind)) for kind in OBJECT_KINDS), key=lambda pair: pair[1])


# --- Fields ----------------------------------------------------------------------------------

FIELD_LABELS = {
    "id": "Number",
    "created_by_id": "Created by",
    "submitted_by_id": "Submitted by",
    "decided_by_id": "Decided by",
    "proposed_by_id": "Proposed by",
    "author_ids": "Written by",
    "holder_id": "Certificate holder",
    "layout_id": "Layout",
    "paytable_id": "Paytable",
    "rules_submission_id": "Rules submission",
    "offering_id": "Offering",
    "player_id": "Player",
    "created_at": "Created",
    "submitted_at": "Submitted",
    "decided_at": "Decided",
    "updated_at": "Last changed",
    "at": "When",
    "effective_date": "Effective",
    "expiry_date": "Expires",
    "review_due": "Bureau review due",
    "decision_reason": "Reason for the decision",
    "edge_override_reason": "Reason for the house edge",
    "series": "Series",
    "wheel_order": "Wheel order",
    "first_colour": "Colour of the first pocket",
    "artwork_content_type": "Artwork file type",
    "artwork_sha256": "Artwork fingerprint (SHA-256)",
    "reference_number": "Bureau reference",
    "games": "Games listed",
    "game": "Game",
    "chip_unit": "Chip unit",
    "licence_number": "Licence number",
    "gaming_day_start_hour": "Gaming day starts at (hour)",
    "ip": "Client address",
    "balance_after": "Balance after",
    "ledger_entry": "Ledger entry no.",
    "deposit": "Deposit no.",
    "withdrawal": "Withdrawal no.",
    "round_id": "Round no.",
    "account_id": "Player account no.",
    "min_wager": "Smallest wager",
    "max_wager": "Largest wager",
    "max_round_stake": "Largest stake in one round",
    "pending_limits": "Limits waiting to take effect",
    "payout_reference": "Payout reference",
    "credit_entry": "Credit ledger entry no.",
    "debit_entry": "Debit ledger entry no.",
    "notice": "Notice to the player",
    "via": "Taken through",
    "definition_version": "Report definition version",
    "wager": "Largest wager",
    "deposit_day": "Deposits a day",
    "deposit_week": "Deposits a week",
    "deposit_month": "Deposits a month",
    "loss_day": "Losses a day",
    "loss_week": "Losses a week",
    "loss_month": "Losses a month",
    "time_day": "Play a day (minutes)",
    **{kind.value: label for kind, label in WAGER_LABELS.items()},
}

# Fields kept in cents, shown in dollars.
MONEY_FIELDS = frozenset(
    {
        "amount",
        "balance",
        "balance_after",
        "held",
        "credited",
        "debited",
        "uncollected",
        "wager",
        "deposit_day",
        "deposit_week",
        "deposit_month",
        "loss_day",
        "loss_week",
        "loss_month",
        "chip_unit",
        "min_wager",
        "max_wager",
        "max_round_stake",
    }
)
# Fields holding a code shown in words ("changes_requested" → "Changes requested").
CODE_FIELDS = frozenset({"status", "kind", "cause", "method", "first_colour", "game", "via"})
USER_FIELDS = frozenset(
    {"created_by_id", "submitted_by_id", "decided_by_id", "proposed_by_id", "player_id"}
)
RECORD_FIELDS = {
    "layout_id": "layout",
    "paytable_id": "paytable",
    "rules_submission_id": "rules_submission",
    "offering_id": "offering",
}

_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def _parts(path: str) -> list[str | int]:
    return [int(index) if index else key for key, index in _PART.findall(path)]


def field_label(path: str) -> str:
    """What a field is called: "created_by_id" → "Created by"; a nested one by each step,
    "odds.split" → "Odds: Split", "games[0].paytable_id" → "Games listed 1: Paytable"."""
    if path == WHOLE_VALUE:
        return "Value"
    labels: list[str] = []
    for part in _parts(path):
        if isinstance(part, int):
            labels[-1:] = [f"{labels[-1] if labels else 'Item'} {part + 1}"]
        else:
            labels.append(FIELD_LABELS.get(part) or words(part.removesuffix("_id")))
    return ": ".join(labels)


def _leaf(path: str) -> str:
    keys = [part for part in _parts(path) if isinstance(part, str)]
    return keys[-1] if keys else ""


# --- Names -----------------------------------------------------------------------------------


@dataclass
class Names:
    """The names of the people and records some events mention, loaded once."""

    people: dict[int, str] = field(default_factory=dict)
    holders: dict[int, str] = field(default_factory=dict)
    accounts: dict[int, dict] = field(default_factory=dict)  # a player account's opening
    titles: dict[tuple[str, str], str] = field(default_factory=dict)

    def person(self, pk) -> str:
        return self.people.get(pk) or f"person {pk} (no longer on record)"

    def holder(self, pk) -> str:
        return self.holders.get(pk) or f"holder {pk}"

    def record(self, kind: str, pk) -> str:
        title = self.titles.get((kind, str(pk)), "")
        return object_name(kind, pk, title=title)


def person_name(user) -> str:
    """A person as others know them: "Dana Reyes", or their username without a full name."""
    full = user.get_full_name().strip() if hasattr(user, "get_full_name") else ""
    return full or user.get_username()


def _walk(value, key: str, found: dict[str, set]) -> None:
    """Collect the ids ``value`` (under ``key``) refers to, by what they are."""
    if isinstance(value, dict):
        for name, inner in value.items():
            _walk(inner, str(name), found)
    elif isinstance(value, list):
        if key == "author_ids":
            found["user"].update(v for v in value if isinstance(v, int))
        else:
            for inner in value:
                _walk(inner, key, found)
    elif isinstance(value, int) and not isinstance(value, bool):
        if key in USER_FIELDS:
            found["user"].add(value)
        elif key == "holder_id":
            found["holder"].add(value)
        elif key in RECORD_FIELDS:
            found[RECORD_FIELDS[key]].add(value)


def load_names(events: Iterable, *, pictures: bool = True) -> Names:
    """The names of everyone and everything ``events`` mention: their actors, their objects
    and the people, holders and records their before and after refer to. One query for the
    people, one for the holders (named as the trail recorded them) and one per kind of
    titled record; none for a kind not mentioned. Without ``pictures`` (a list, which shows
    no before and after), only what names the events' actors and objects."""
    found: dict[str, set] = defaultdict(set)
    for event in events:
        if event.actor_id is not None:
            found["user"].add(event.actor_id)
        kind, pk = event.object_type, str(event.object_id)
        named_by_picture = kind == "holder" and isinstance(_picture(event).get("name"), str)
        wanted = kind in ("user", "holder") or titled(kind)
        if wanted and pk.isdigit() and not named_by_picture:
            found[kind].add(int(pk))
        if pictures:
            for picture in (event.before, event.after):
                _walk(picture, "", found)
        elif kind == "player_account":  # named by its player and holder
            _walk({k: _picture(event).get(k) for k in ("player_id", "holder_id")}, "", found)
        if kind == "player_account" and pk.isdigit() and "player_id" not in _picture(event):
            found["account"].add(int(pk))
    names = Names()
    if found["account"]:
        names.accounts = _trail_pictures("player_account", found["account"], "account.open")
        for opening in names.accounts.values():
            _walk({k: opening.get(k) for k in ("player_id", "holder_id")}, "", found)
    if found["user"]:
        users = get_user_model().objects.filter(pk__in=found["user"])
        names.people = {user.pk: person_name(user) for user in users}
    if found["holder"]:
        pictures = _trail_pictures("holder", found["holder"])
        names.holders = {
            pk: picture["name"]
            for pk, picture in pictures.items()
            if isinstance(picture.get("name"), str)
        }
    pairs = [(kind, str(pk)) for kind, pks in found.items() if titled(kind) for pk in pks]
    names.titles = object_titles(pairs)
    return names


def _trail_pictures(kind: str, pks: set[int], action: str = "") -> dict[int, dict]:
    """What the trail last recorded of each of these objects (their events' after pictures,
    oldest first, merged), in one query: holders are added and changed, and players'
    accounts opened, only through audited services, whose events picture them."""
    events = AuditEvent.objects.filter(object_type=kind, object_id__in=[str(pk) for pk in pks])
    if action:
        events = events.filter(action=action)
    pictures: dict[int, dict] = defaultdict(dict)
    for pk, after in events.order_by("sequence").values_list("object_id", "after"):
        if isinstance(after, dict):
            pictures[int(pk)].update(after)
    return dict(pictures)


def actor_name(event, names: Names) -> str:
    """Who acted: their name; else as the trail recorded them ("system" for a job,
    "anonymous" for someone not signed in)."""
    if event.actor_id is not None:
        return names.people.get(event.actor_id) or event.actor_username
    return event.actor_username


@dataclass(frozen=True)
class NamedObject:
    """An event's object as people name it, and its page if it has one."""

    name: str
    url: str | None


def object_of(event, names: Names) -> NamedObject:
    """ "Paytable “House table” v2", "Holder “Keystone Casino”", "Dana Reyes", "Player
    account of Dana Reyes at Keystone Casino", linked to its page where it has one."""
    kind, pk, version = event.object_type, event.object_id, event.object_version
    if titled(kind):
        title = names.titles.get((kind, str(pk)), "")
        url = detail_url(kind, pk) if title else None  # a record no longer there has no page
        return NamedObject(object_name(kind, pk, title=title, version=version), url)
    picture = _picture(event)
    if kind == "user" and str(pk).isdigit():
        name = names.people.get(int(pk)) or picture.get("username") or f"{pk}"
        return NamedObject(f"Person “{name}”", None)
    if kind == "holder":
        name = picture.get("name")
        if not isinstance(name, str) and str(pk).isdigit():
            name = names.holders.get(int(pk), "")
        return NamedObject(object_name(kind, pk, title=name or ""), None)
    if kind == "player_account":
        if "player_id" not in picture and str(pk).isdigit():
            picture = names.accounts.get(int(pk), {})
        player, holder = picture.get("player_id"), picture.get("holder_id")
        if isinstance(player, int):
            at = f" at {names.holder(holder)}" if isinstance(holder, int) else ""
            return NamedObject(f"Player account of {names.person(player)}{at}", None)
    if kind in ("void", "adjustment") and isinstance(picture.get("round_id"), int):
        return NamedObject(f"{kind_label(kind)} {pk} of round {picture['round_id']}", None)
    if kind == "api_token" and isinstance(picture.get("name"), str):
        return NamedObject(object_name(kind, pk, title=picture["name"]), None)
    if kind == "report_run" and isinstance(picture.get("kind"), str):
        return NamedObject(f"Report run {pk} ({words(picture['kind']).lower()} report)", None)
    if kind == "audit_trail":
        return NamedObject(f"The audit trail, up to event #{pk}", None)
    return NamedObject(object_name(kind, pk, version=version), None)


def trail_rows(events) -> list[dict]:
    """Each event as the trail's list reads it: who by name, what by its label, the object
    by its name (the names loaded once for them all)."""
    events = list(events)
    names = load_names(events, pictures=False)
    return [
        {
            "event": event,
            "actor": actor_name(event, names),
            "action": action_label(event.action),
            "object": object_of(event, names),
        }
        for event in events
    ]


def _picture(event) -> dict:
    """The event's after, else its before (what it says of its object)."""
    merged: dict = {}
    for picture in (event.before, event.after):
        if isinstance(picture, dict):
            merged.update(picture)
    return merged


# --- Values ----------------------------------------------------------------------------------


def dollars(cents: int) -> str:
    sign = "−" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"


def _instant(value: str) -> str:
    """A stored instant (ISO 8601, UTC) in Pennsylvania time with its zone
    (reading:pennsylvania-dates)."""
    try:
        instant = datetime.datetime.fromisoformat(value)
    except ValueError:
        return value
    if instant.tzinfo is None:
        return value
    return pa_time(instant).strftime("%Y-%m-%d %H:%M:%S %Z")


def shown(path: str, value, names: Names) -> str:
    """A value of an event's before or after as people read it: names for ids, dollars for
    money, Pennsylvania time for instants, Yes/No, "—" for nothing."""
    key = _leaf(path)
    if value is None or value is ABSENT or value == "" or value == [] or value == {}:
        return MISSING
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, int):
        if key in USER_FIELDS:
            return names.person(value)
        if key == "holder_id":
            return names.holder(value)
        if key in RECORD_FIELDS:
            return names.record(RECORD_FIELDS[key], value)
        if key in MONEY_FIELDS:
            return dollars(value)
        return str(value)
    if key == "author_ids" and isinstance(value, list):
        return ", ".join(names.person(v) for v in value) or MISSING
    if isinstance(value, str):
        if key.endswith("_at") or key == "at":
            return _instant(value)
        if path.startswith("odds.") or path == "odds":
            return f"{value} to 1"
        if key in CODE_FIELDS:
            return words(value)
        return value
    if isinstance(value, dict):
        inner = (
            f"{field_label(str(k))}: {shown(f'{path}.{k}' if path else str(k), v, names)}"
            for k, v in value.items()
        )
        return "; ".join(inner)
    if isinstance(value, list):
        return ", ".join(shown(path, item, names) for item in value)
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class FieldChange:
    """One field of an event's before/after: what it is called, each side as shown (None
    where that side does not have it), and whether it changed."""

    path: str  # "status", "odds.split", "games[0].chip_unit": for tests and the raw record
    label: str
    before: str | None
    after: str | None
    changed: bool


def field_changes(before, after, names: Names, *, changed_only: bool = False) -> list[FieldChange]:
    """One row per field of either picture (nested ones by path), in the pictures' order; a
    row is changed when both pictures exist and it differs (or is in one only)."""
    rows = []
    for change in compare(before, after, nested=True):
        if changed_only and not change.changed:
            continue
        was, now = change.before, change.after
        rows.append(
            FieldChange(
                path=change.path,
                label=field_label(change.path),
                before=None if was is ABSENT else shown(change.path, was, names),
                after=None if now is ABSENT else shown(change.path, now, names),
                changed=change.changed,
            )
        )
    return rows


def raw(picture) -> str:
    """A picture as stored, for an auditor's raw record: indented JSON."""
    return json.dumps(picture, ensure_ascii=False, indent=2, sort_keys=True)
