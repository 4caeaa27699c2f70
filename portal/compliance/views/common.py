"""What every portal page shares: fetch-and-check, domain errors as pages, pagination."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import wraps

from django.core.paginator import Page, Paginator
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from portal.accounts import policy
from portal.accounts.models import CertificateHolder
from portal.accounts.policy import Action
from portal.accounts.roles import holder_id_of
from portal.compliance import selectors
from portal.compliance.models import RecordStatus
from portal.core.errors import DomainError

PAGE_SIZE = 25
_CLOSED = (
    RecordStatus.REJECTED,
    RecordStatus.SUPERSEDED,
    RecordStatus.WITHDRAWN,
    RecordStatus.EXPIRED,
)

DETAIL_URLS = {
    "layout": "compliance:layout-detail",
    "paytable": "compliance:paytable-detail",
    "rules_submission": "compliance:rules-detail",
    "offering": "compliance:offering-detail",
}


def visible_or_404(user, queryset: QuerySet, pk: int, action: Action = Action.VIEW) -> Model:
    """The row ``pk`` if ``user`` may see it (else 404) and may do ``action`` to it (else 403)."""
    obj = get_object_or_404(policy.visible(user, queryset), pk=pk)
    policy.require(user, action, obj)
    return obj


def refused(request: HttpRequest, error: DomainError) -> HttpResponse:
    return render(
        request,
        "compliance/refused.html",
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


def form_page(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    """Render a form page: 400 when the posted form (``context["form"]``) has errors."""
    form = context["form"]
    return render(request, template, context, status=400 if form.errors else 200)


def detail_url(kind: str, pk) -> str | None:
    """The page of a record or offering by its kind (as audit events name it), if it has one."""
    name = DETAIL_URLS.get(kind)
    return reverse(name, args=[pk]) if name and str(pk).isdigit() else None


def holder_choices(user) -> QuerySet | None:
    """The holders a user drafting records must choose from: none for a manager (who acts
    for their own holder), every holder for a superuser without one."""
    if holder_id_of(user) is not None:
        return None
    return CertificateHolder.objects.order_by("name")


def acting_holder(user, form) -> CertificateHolder:
    own = holder_id_of(user)
    if own is not None:
        return CertificateHolder.objects.get(pk=own)
    return form.cleaned_data["holder"]


def dollars(minor_units: int) -> str:
    return f"${Decimal(minor_units) / 100:,.2f}"


def choosable(user, model: type[Model]) -> QuerySet:
    """Records ``user`` may pick for a listing or offering: visible, and not closed for good."""
    return selectors.records_for(user, model).exclude(status__in=_CLOSED)
