"""What the portal pages of every app share: domain errors as pages, pagination, links."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

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
