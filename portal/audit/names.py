"""The people and records audit events name, by their names (§ 811a.7): who acted, what the
event acts on ("Paytable “House table” v2", "Player account of Dana Reyes at Keystone
Casino"), and the people and records its before and after refer to.

The audit app names people, the records that have a title and a page
(``portal.core.pages.register_object_kind``) and its own kinds; every other kind is named
the way its app registered (``labels.register_object_namer``), so the audit app knows no
app above it. Names are loaded in bulk, one query per kind of thing named (people, each
kind of titled record, each kind an app loads names for), whatever the number of events
(``load_names``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model

from portal.audit.labels import PicturedObject, action_label, registry
from portal.audit.models import AuditEvent
from portal.core.pages import detail_url, object_name, object_titles, titled


@dataclass
class Names:
    """The names of the people and records some events mention, loaded once."""

    people: dict[int, str] = field(default_factory=dict)
    # By kind: what its app's namer loaded for each id (``register_object_namer``'s load).
    loaded: dict[str, dict[int, Any]] = field(default_factory=dict)
    titles: dict[tuple[str, str], str] = field(default_factory=dict)

    def person(self, pk) -> str:
        return self.people.get(pk) or f"person {pk} (no longer on record)"

    def of(self, kind: str) -> Mapping[int, Any]:
        """What was loaded to name objects of ``kind``, by their ids."""
        return self.loaded.get(kind, {})

    def record(self, kind: str, pk) -> str:
        """A record a field refers to, by its id: as its app names a reference, else by its
        kind and title."""
        namer = registry.object_namer(kind)
        if namer is not None and namer.reference is not None and not titled(kind):
            return namer.reference(pk, self)
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
        elif kind := registry.record_kind(key):
            found[kind].add(value)


def _walk_refers(picture, fields: Iterable[str], found: dict[str, set]) -> None:
    """Collect the ids of only these fields of ``picture``."""
    if isinstance(picture, Mapping):
        _walk({name: picture.get(name) for name in fields}, "", found)


def _loaded_by_namer(kind: str):
    """The namer of ``kind`` if it loads names (a titled record's are loaded as titles)."""
    namer = registry.object_namer(kind)
    return namer if namer is not None and namer.load is not None and not titled(kind) else None


def load_names(events: Iterable, *, pictures: bool = True) -> Names:
    """The names of everyone and everything ``events`` mention: their actors, their objects
    and the people and records their before and after refer to. One query for the people,
    one per kind of titled record and one per kind whose app loads names; none for a kind
    not mentioned. Without ``pictures`` (a list, which shows no before and after), only what
    names the events' actors and objects."""
    found: dict[str, set] = defaultdict(set)
    for event in events:
        if event.actor_id is not None:
            found["user"].add(event.actor_id)
        obj = _pictured(event)
        namer = registry.object_namer(obj.kind)
        loads = _loaded_by_namer(obj.kind) is not None and namer.needs_load(obj)
        if (obj.kind == "user" or titled(obj.kind) or loads) and obj.pk.isdigit():
            found[obj.kind].add(int(obj.pk))
        if pictures:
            for picture in (event.before, event.after):
                _walk(picture, "", found)
        elif namer is not None:
            _walk_refers(obj.picture, namer.refers, found)
    names = Names()
    # The kinds whose loaded names refer to others first (a player's account, by its
    # player and holder), so that those others are loaded with the rest, once.
    for referring in (True, False):
        for kind in [kind for kind, pks in found.items() if pks and kind not in names.loaded]:
            namer = _loaded_by_namer(kind)
            if namer is None or bool(namer.refers) != referring:
                continue
            names.loaded[kind] = dict(namer.load(found[kind]))
            for value in names.loaded[kind].values():
                _walk_refers(value, namer.refers, found)
    if found["user"]:
        users = get_user_model().objects.filter(pk__in=found["user"])
        names.people = {user.pk: person_name(user) for user in users}
    pairs = [(kind, str(pk)) for kind, pks in found.items() if titled(kind) for pk in pks]
    names.titles = object_titles(pairs)
    return names


def trail_pictures(kind: str, pks: set[int], action: str = "") -> dict[int, dict]:
    """What the trail last recorded of each of these objects (their events' after pictures,
    oldest first, merged; only its ``action`` events, if given), in one query: for a kind
    added and changed only through audited services, whose events picture it, a name
    without reading its app's tables."""
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
    obj = _pictured(event)
    if kind == "user" and obj.pk.isdigit():
        name = names.people.get(int(obj.pk)) or obj.picture.get("username") or f"{pk}"
        return NamedObject(f"Person “{name}”", None)
    namer = registry.object_namer(kind)
    if namer is not None and (name := namer.name(obj, names)) is not None:
        return NamedObject(name, None)
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


def _pictured(event) -> PicturedObject:
    """The event's object, with what the event says of it: its after over its before."""
    merged: dict = {}
    for picture in (event.before, event.after):
        if isinstance(picture, dict):
            merged.update(picture)
    return PicturedObject(event.object_type, str(event.object_id), merged)
