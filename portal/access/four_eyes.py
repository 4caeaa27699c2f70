"""Four-eyes: whatever one person wrote, another decides.

By content: an author (whoever created, edited, submitted or proposed it) never decides it.
By impersonation, both ways: an account whose password an author set (and that has not
since shown a second factor of its own) could be that author signed in as someone else,
and so could the author's account if the decider, or whoever set the decider's password,
set the author's. Generic over what is decided: the caller says who its authors are.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from django.contrib.auth import get_user_model

from portal.access.roles import password_setters
from portal.access.workflow import Guard, Refusal
from portal.core.errors import NotPermitted


def _ids(authors: Iterable[int | None]) -> set[int]:
    return {author for author in authors if author is not None}


def password_set_by_author(authors: Iterable[int | None], user) -> bool:
    """Whether an author set ``user``'s password (and ``user`` has not since shown a second
    factor of their own): that author could be the one signed in."""
    return bool(password_setters(user) & _ids(authors))


def shares_a_password_setter(authors: Iterable[int | None], actor) -> bool:
    """Whether the decider, or whoever set the decider's password, set the password of an
    author (who may so have written it as them). One query."""
    setters_of_authors = (
        get_user_model()
        .objects.filter(pk__in=_ids(authors))
        .values_list("profile__password_setters", flat=True)
    )
    deciders = {actor.pk, *password_setters(actor)}
    return any(deciders.intersection(setters or ()) for setters in setters_of_authors)


def is_own_work(authors: Iterable[int | None], user) -> bool:
    """By content or by a password an author set: without a query, for showing buttons."""
    authors = _ids(authors)
    return user.pk in authors or password_set_by_author(authors, user)


# Why the four-eyes guard refuses (``Refusal.cause``): the decider is an author, or a
# password links the decider to an author.
OWN_WORK = "own work"
PASSWORD_SETTER = "password setter"


def four_eyes_guard(
    authors: Callable[[object], Iterable[int | None]],
    *,
    own_work: Callable[[object], str],
    password_setter: Callable[[object], str],
) -> Guard:
    """The guard of a step a second person takes; the messages name what is decided. It
    explains itself (``Guard.explain``): an author is refused by ``own_work``'s words
    without a query; anyone else, by ``password_setter``'s after at most one."""

    def explain(obj, actor) -> Refusal | None:
        who = _ids(authors(obj))
        if actor.pk in who:
            return Refusal(OWN_WORK, own_work(obj))
        if password_set_by_author(who, actor) or shares_a_password_setter(who, actor):
            return Refusal(PASSWORD_SETTER, password_setter(obj))
        return None

    def check(obj, actor) -> None:
        refused = explain(obj, actor)
        if refused is not None:
            raise NotPermitted(refused.rule)

    return Guard(
        name="four-eyes",
        shown=lambda obj, user, _context: not is_own_work(authors(obj), user),
        check=check,
        early=True,
        explain=explain,
    )
