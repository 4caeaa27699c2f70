"""What the portal pages of every app share: domain errors as pages, pagination, links."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps

from django.core.paginator import Page, Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from portal.core.errors import DomainError

PAGE_SIZE = 25


@dataclass(frozen=True)
class ObjectKind:
    """How pages name and link an object that audit events name by its kind."""

    model: type[Model]
    title_field: str  # what names one ("title", "name")
    detail_url: str  # the URL name of its page, taking its id


# Filled by the apps that own the kinds (their AppConfig.ready): core names no app.
_OBJECT_KINDS: dict[str, ObjectKind] = {}


def register_object_kind(kind: str, *, model: type[Model], title_field: str, detail_url: str):
    """An app says how its records of ``kind`` are named and which page shows one."""
    _OBJECT_KINDS[kind] = ObjectKind(model, title_field, detail_url)


def titled(kind: str) -> bool:
    """Whether records of ``kind`` are named by a title of their own (and have a page)."""
    return kind in _OBJECT_KINDS


def title_field(kind: str) -> str:
    return _OBJECT_KINDS[kind].title_field


def refused(request: HttpRequest, error: DomainError) -> HttpResponse:
    return render(
        request,
        "core/refused.html",
        {"message": error.message, "status": error.http_status},
        status=error.http_status,
    )


def domain_errors(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Show a ``DomainError`` the view did not handle itself as a page with its status:
    ``NotPermitted`` → 403, ``NotFound`` → 404, ``Conflict`` → 409, ``ValidationFailed`` → 400.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except DomainError as error:
            return refused(request, error)

    return wrapper


def paginate(request: HttpRequest, queryset: QuerySet) -> Page:
    return Paginator(queryset, PAGE_SIZE).get_page(request.GET.get("page"))


def detail_url(kind: str, pk) -> str | None:
    """The page of a record or offering by its kind (as audit events name it), if it has one."""
    registered = _OBJECT_KINDS.get(kind)
    if registered is None or not str(pk).isdigit():
        return None
    return reverse(registered.detail_url, args=[pk])


# What a kind is called where its code in words would not do ("api_token" → "API token"):
# filled by the apps that own the kinds (their AppConfig.ready), as the kinds above.
_KIND_LABELS: dict[str, str] = {}


def register_kind_label(kind: str, label: str) -> None:
    """An app says what its kind is called, where its code in words would read wrong."""
    _KIND_LABELS[kind] = label


def kind_label(kind: str) -> str:
    """A kind as audit events name it, for people: "rules_submission" → "Rules submission"."""
    return _KIND_LABELS.get(kind) or kind.replace("_", " ").capitalize()


def object_titles(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The titles of records named by ``(kind, id)`` pairs, keyed by the pair as given:
    one query per registered kind; other kinds, unknown ids and missing rows have none.
    """
    wanted: dict[str, set[int]] = defaultdict(set)
    for kind, pk in pairs:
        if titled(kind) and str(pk).isdigit():
            wanted[kind].add(int(pk))
    titles = {}
    for kind, pks in wanted.items():
        registered = _OBJECT_KINDS[kind]
        rows = registered.model.objects.filter(pk__in=pks).values_list("pk", registered.title_field)
        titles.update({(kind, str(pk)): title for pk, title in rows})
    return titles


def object_name(kind: str, pk, *, title: str = "", version: int | None = None) -> str:
    """ "Layout “Main floor” v2" with a title, "Layout 11 v2" without."""
    name = f"{kind_label(kind)} “{title}”" if title else f"{kind_label(kind)} {pk}"
    return f"{name} v{version}" if version else name
