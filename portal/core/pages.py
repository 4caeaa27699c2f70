"""What the portal pages of every app share: domain errors as pages, pagination, links."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import wraps

from django.apps import apps
from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from portal.core.errors import DomainError

PAGE_SIZE = 25

# Audit events and the dashboard name records by kind; these are the pages that show them.
# URL names, not imports: core links to the pages without depending on the app.
DETAIL_URLS = {
    "layout": "compliance:layout-detail",
    "paytable": "compliance:paytable-detail",
    "rules_submission": "compliance:rules-detail",
    "offering": "compliance:offering-detail",
}


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
    name = DETAIL_URLS.get(kind)
    return reverse(name, args=[pk]) if name and str(pk).isdigit() else None


# What names a record of each kind, by model label and field (labels, not imports, as above).
TITLE_FIELDS = {
    "layout": ("compliance.Layout", "title"),
    "paytable": ("compliance.Paytable", "name"),
    "rules_submission": ("compliance.RulesSubmission", "title"),
    "offering": ("compliance.Offering", "name"),
}

KIND_LABELS = {"rules_submission": "Rules submission", "api_token": "API token"}


def kind_label(kind: str) -> str:
    """A kind as audit events name it, for people: "rules_submission" → "Rules submission"."""
    return KIND_LABELS.get(kind) or kind.replace("_", " ").capitalize()


def object_titles(pairs: Iterable[tuple[str, str]]) -> dict[tuple[str, str], str]:
    """The titles of records named by ``(kind, id)`` pairs, keyed by the pair as given:
    one query per kind in ``TITLE_FIELDS``; other kinds, unknown ids and missing rows have none.
    """
    wanted: dict[str, set[int]] = defaultdict(set)
    for kind, pk in pairs:
        if kind in TITLE_FIELDS and str(pk).isdigit():
            wanted[kind].add(int(pk))
    titles = {}
    for kind, pks in wanted.items():
        label, field = TITLE_FIELDS[kind]
        rows = apps.get_model(label).objects.filter(pk__in=pks).values_list("pk", field)
        titles.update({(kind, str(pk)): title for pk, title in rows})
    return titles


def object_name(kind: str, pk, *, title: str = "", version: int | None = None) -> str:
    """ "Layout “Main floor” v2" with a title, "Layout 11 v2" without."""
    name = f"{kind_label(kind)} “{title}”" if title else f"{kind_label(kind)} {pk}"
    return f"{name} v{version}" if version else name
