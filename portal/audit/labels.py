"""What the audit trail calls things (§ 811a.7): each action, each field of an event's
before and after, and what a field holds (a person, a record, money, a code).

The audit app sits below every app that writes events, so it does not list their words:
each app registers its own from its ``AppConfig.ready()`` (its ``audit_labels`` module), as
Wagtail apps do with the ``register_log_actions`` hook. The audit app keeps its own words
and the fallbacks: an action or field nobody labelled is put into words ("odds.split" →
"Odds: Split", "foo_bar.do_it" → "Foo bar: do it"), never shown as its code.

Registering the same action, verb, group, field or record kind again with the same words is
allowed (two apps may write the same field); with other words it is refused at start-up
(``LabelConflict``), so one code never reads two ways.

Each app also says how the trail names its kinds of object that have no title and page of
their own (``register_object_namer``): from what an event pictures of one, and from what the
app loads for many of them at once ("Player account of Dana Reyes at Keystone Casino")."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured

from portal.core.pages import kind_label
from portal.core.pictures import WHOLE_VALUE

MISSING = "—"


class LabelConflict(ImproperlyConfigured):
    """A code registered twice with different words."""


def words(code: str) -> str:
    """A code in words, capitalised: "request_changes" → "Request changes"."""
    text = re.sub(r"[_\s]+", " ", str(code)).strip()
    return text[:1].upper() + text[1:] if text else MISSING


def _lower_first(text: str) -> str:
    """ "Player account" → "player account"; an acronym stays ("API token")."""
    return text if text[1:2].isupper() else text[:1].lower() + text[1:]


_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def path_parts(path: str) -> list[str | int]:
    """A field's path by its steps: "games[0].paytable_id" → ["games", 0, "paytable_id"]."""
    return [int(index) if index else key for key, index in _PART.findall(path)]


def _refuse_conflicts(known: Mapping[str, str], new: Mapping[str, str], what: str) -> None:
    for code, label in new.items():
        if known.get(code, label) != label:
            raise LabelConflict(
                f"The audit trail's {what} {code!r} is already labelled {known[code]!r}; "
                f"it cannot also read {label!r}. Register each {what} once, by the app "
                "that writes it, or with the same words."
            )


def _merge(known: dict[str, str], new: Mapping[str, str], what: str) -> None:
    """Add ``new`` to ``known``, all or nothing: a conflict leaves ``known`` as it was."""
    _refuse_conflicts(known, new, what)
    known.update(new)


@dataclass(frozen=True)
class PicturedObject:
    """An event's object as the event pictures it: its kind, its id (as the trail keeps it, a
    string) and its after merged over its before."""

    kind: str
    pk: str
    picture: Mapping[str, Any]


class LoadedNames(Protocol):
    """What a namer reads of the names loaded for the events shown (``names.Names``)."""

    def person(self, pk: int) -> str: ...

    def of(self, kind: str) -> Mapping[int, Any]: ...

    def record(self, kind: str, pk: int) -> str: ...


def _always(obj: PicturedObject) -> bool:
    return True


@dataclass(frozen=True)
class ObjectNamer:
    """How the trail names objects of one kind (``LabelRegistry.register_object_namer``)."""

    name: Callable[[PicturedObject, LoadedNames], str | None]
    load: Callable[[set[int]], Mapping[int, Any]] | None = None
    needs_load: Callable[[PicturedObject], bool] = _always
    refers: tuple[str, ...] = ()
    reference: Callable[[int, LoadedNames], str] | None = None


class LabelRegistry:
    """The words the apps registered, and the trail's labels and filter choices read from
    them. One instance serves the portal (``registry``); a test may make its own."""

    def __init__(self) -> None:
        self._actions: dict[str, str] = {}
        self._verbs: dict[str, str] = {}
        self._record_kinds: dict[str, tuple[str, ...]] = {}  # kind → the verbs offered
        self._groups: dict[str, str] = {}
        self._object_kinds: set[str] = set()
        self._fields: dict[str, str] = {}
        self._money: set[str] = set()
        self._codes: set[str] = set()
        self._people: set[str] = set()
        self._records: dict[str, str] = {}
        self._namers: dict[str, ObjectNamer] = {}
        # Where each action and record kind comes in the filter: (order, registration).
        self._places: dict[str, tuple[int, int]] = {}
        self._registered = itertools.count()
        # Read-only, and live: what the apps registered, in the filter's order.
        self.actions = MappingProxyType(self._actions)

    # --- Registering ------------------------------------------------------------------------

    def _place(self, key: str, order: int) -> None:
        self._places.setdefault(key, (order, next(self._registered)))

    def register_actions(self, labels: Mapping[str, str], *, order: int) -> None:
        """Actions (``"kind.verb"``) by their labels. ``order``: where they come in the
        trail's filter, lower first (ties in the order registered); each group of the filter
        is placed by its first action."""
        _merge(self._actions, labels, "action")
        for action in labels:
            self._place(action, order)
        # Kept in filter order, so whoever reads ``actions`` reads them as the filter does.
        ordered = sorted(self._actions.items(), key=lambda item: self._places[item[0]])
        self._actions.clear()
        self._actions.update(ordered)

    def register_verbs(self, labels: Mapping[str, str]) -> None:
        """The steps of records whose actions read as the verb alone (``register_record_kinds``):
        the record is named beside the action, so "Approved" says it all."""
        _merge(self._verbs, labels, "verb")

    def register_record_kinds(self, kinds: Iterable[str], *, verbs: Sequence[str], order: int):
        """Kinds whose ``<kind>.<verb>`` actions read as the verb alone (a registered verb);
        ``verbs``: those of their actions the trail's filter offers, in that order."""
        offered = {kind: tuple(verbs) for kind in kinds}
        for kind, kind_verbs in offered.items():
            if self._record_kinds.get(kind, kind_verbs) != kind_verbs:
                raise LabelConflict(
                    f"The audit trail's record kind {kind!r} is already registered with the "
                    f"verbs {self._record_kinds[kind]}; it cannot also offer {kind_verbs}."
                )
        for kind, kind_verbs in offered.items():
            self._record_kinds.setdefault(kind, kind_verbs)
            self._place(f"{kind}.", order)

    def register_action_groups(self, labels: Mapping[str, str]) -> None:
        """What an action's first part is about, where its kind alone does not say it
        ("auth" → "Sign-in and security")."""
        _merge(self._groups, labels, "action group")

    def register_object_kinds(self, kinds: Iterable[str]) -> None:
        """Kinds of object the trail's events act on, as its filter offers them."""
        self._object_kinds.update(kinds)

    def register_fields(
        self,
        labels: Mapping[str, str] | None = None,
        *,
        money: Iterable[str] = (),
        codes: Iterable[str] = (),
        people: Iterable[str] = (),
        records: Mapping[str, str] | None = None,
    ) -> None:
        """Fields of events' before and after: their labels; those kept in cents (shown in
        dollars), holding a code (shown in words), holding a person's id or a list of them
        (shown by name), or a record's id (``records``: field → the record's kind, shown by
        its title)."""
        _refuse_conflicts(self._records, records or {}, "record field")
        _merge(self._fields, labels or {}, "field")
        _merge(self._records, records or {}, "record field")
        self._money.update(money)
        self._codes.update(codes)
        self._people.update(people)

    def register_object_namer(
        self,
        kind: str,
        name: Callable[[PicturedObject, LoadedNames], str | None],
        *,
        load: Callable[[set[int]], Mapping[int, Any]] | None = None,
        needs_load: Callable[[PicturedObject], bool] | None = None,
        refers: Iterable[str] = (),
        reference: Callable[[int, LoadedNames], str] | None = None,
    ) -> None:
        """How the trail names objects of ``kind`` that have no title and page of their own
        (those have ``portal.core.pages.register_object_kind``).

        ``name``: the name of one, from what its event pictures and the names loaded for the
        events shown; None names it by its kind and id ("Void 7").
        ``load``: what names many of them, by their ids, in one query (read back as
        ``names.of(kind)``); ``needs_load``: whether an event's object needs it (by default,
        always). It is also loaded for the fields holding ids of this kind
        (``register_fields(records=…)``), which ``reference`` names ("Keystone Casino").
        ``refers``: the fields of the picture, or of what ``load`` gives, whose people and
        records the name reads ("player_id"), loaded with the others'. Kinds whose loads
        refer are loaded first, so one's ``load`` should give nothing that refers again.

        Naming a kind again with other functions is refused (``LabelConflict``)."""
        namer = ObjectNamer(name, load, needs_load or _always, tuple(refers), reference)
        if self._namers.get(kind, namer) != namer:
            raise LabelConflict(f"The audit trail's object kind {kind!r} is already named.")
        self._namers[kind] = namer

    # --- Reading ----------------------------------------------------------------------------

    def about(self, kind: str) -> str:
        """What a kind of action or object is called: "auth" → "Sign-in and security"."""
        return self._groups.get(kind) or kind_label(kind)

    def labelled(self, action: str) -> bool:
        """Whether an app gave ``action`` a label (else it is read by the fallback)."""
        kind, _, verb = action.partition(".")
        return action in self._actions or (kind in self._record_kinds and verb in self._verbs)

    def action_label(self, action: str) -> str:
        """What an action is called: "paytable.amend" → "Amendment started"; one it does not
        know, in words ("odds.split" → "Odds: split")."""
        if action in self._actions:
            return self._actions[action]
        kind, _, verb = action.partition(".")
        if kind in self._record_kinds and verb in self._verbs:
            return self._verbs[verb]
        if not verb:
            return words(kind)
        return f"{self.about(kind)}: {words(verb).lower()}"

    def actions_called(self, word: str) -> list[str]:
        """The known actions whose label, as the trail shows it, holds ``word`` (any case):
        "approved" → every record kind's approval."""
        word = word.casefold()
        known = [*self._actions]
        known += [f"{kind}.{verb}" for kind, verbs in self._record_kinds.items() for verb in verbs]
        return sorted({a for a in known if word in self.action_label(a).casefold()})

    def action_choices(self) -> list[tuple[str, list[tuple[str, str]]]]:
        """The actions a filter offers, grouped by what they act on; each group opens with
        every action on that kind (its prefix, ``"layout."``)."""
        offered = [
            (self._places[f"{kind}."], f"{kind}.{verb}")
            for kind, verbs in self._record_kinds.items()
            for verb in verbs
        ]
        offered += [(self._places[action], action) for action in self._actions]
        groups: dict[str, list[str]] = defaultdict(list)
        for _, action in sorted(offered, key=lambda pair: pair[0]):
            groups[action.partition(".")[0]].append(action)
        return [
            (
                self.about(kind),
                [(f"{kind}.", f"Any {_lower_first(self.about(kind))} event")]
                + [(action, self.action_label(action)) for action in dict.fromkeys(actions)],
            )
            for kind, actions in groups.items()
        ]

    def kind_choices(self) -> list[tuple[str, str]]:
        """The kinds of object a filter offers, by their names."""
        named = ((kind, self.about(kind)) for kind in self._object_kinds)
        return sorted(named, key=lambda pair: pair[1])

    def field_label(self, path: str) -> str:
        """What a field is called: "created_by_id" → "Created by"; a nested one by each step,
        "odds.split" → "Odds: Split", "games[0].paytable_id" → "Games listed 1: Paytable"."""
        if path == WHOLE_VALUE:
            return "Value"
        labels: list[str] = []
        for part in path_parts(path):
            if isinstance(part, int):
                labels[-1:] = [f"{labels[-1] if labels else 'Item'} {part + 1}"]
            else:
                labels.append(self._fields.get(part) or words(part.removesuffix("_id")))
        return ": ".join(labels)

    def holds_money(self, field: str) -> bool:
        return field in self._money

    def holds_code(self, field: str) -> bool:
        return field in self._codes

    def holds_person(self, field: str) -> bool:
        return field in self._people

    def record_kind(self, field: str) -> str | None:
        """The kind of record a field holds the id of ("layout_id" → "layout"), if any."""
        return self._records.get(field)

    def object_namer(self, kind: str) -> ObjectNamer | None:
        """How objects of ``kind`` are named, if their app said."""
        return self._namers.get(kind)


# The portal's labels, filled by each app's ready().
registry = LabelRegistry()

register_actions = registry.register_actions
register_verbs = registry.register_verbs
register_record_kinds = registry.register_record_kinds
register_action_groups = registry.register_action_groups
register_object_kinds = registry.register_object_kinds
register_fields = registry.register_fields
register_object_namer = registry.register_object_namer


# The portal's labels, as functions of their own: a filter deep-copies the callable that
# gives its choices, which would copy the registry with a bound method.
def action_label(action: str) -> str:
    return registry.action_label(action)


def action_choices() -> list[tuple[str, list[tuple[str, str]]]]:
    return registry.action_choices()


def actions_called(word: str) -> list[str]:
    return registry.actions_called(word)


def kind_choices() -> list[tuple[str, str]]:
    return registry.kind_choices()


def field_label(path: str) -> str:
    return registry.field_label(path)


ACTION_LABELS = registry.actions
