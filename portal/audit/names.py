"""The people and records audit events name, by their names (§ 811a.7): who acted, what the
event acts on ("Paytable “House table” v2", "Player account of Dana Reyes at Keystone
Casino"), and the people, holders and records its before and after refer to.

Names are loaded in bulk, one query per kind of thing named (people, holders, each kind of
titled record), whatever the number of events (``load_names``). Holders and players'
accounts are named as the trail itself recorded them, so the audit app reads no app above
it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model

from portal.audit.labels import action_label, registry, words
from portal.audit.models import AuditEvent
from portal.core.pages import detail_url, kind_label, object_name, object_titles, titled


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
        for inner in value:
            _walk(inner, key, found)
    elif isinstance(value, int) and not isinstance(value, bool):
        if registry.holds_person(key):
            found["user"].add(value)
        elif key == "holder_id":
            found["holder"].add(value)
        elif kind := registry.record_kind(key):
            found[kind].add(value)


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
