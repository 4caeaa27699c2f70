"""What the compliance pages share: form pages, holders, choosable records.

Helpers every app's pages use live in ``portal.core.pages`` (domain errors as pages,
pagination, record links) and ``portal.access.pages`` (fetch-and-check: ``visible_or_404``).
"""

from __future__ import annotations

from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from portal.access.roles import holder_id_of
from portal.accounts.models import CertificateHolder
from portal.compliance import selectors
from portal.compliance.models import RecordStatus

_CLOSED = (
    RecordStatus.REJECTED,
    RecordStatus.SUPERSEDED,
    RecordStatus.WITHDRAWN,
    RecordStatus.EXPIRED,
)


def form_page(request: HttpRequest, template: str, context: dict) -> HttpResponse:
    """Render a form page: 400 when the posted form (``context["form"]``) has errors."""
    form = context["form"]
    return render(request, template, context, status=400 if form.errors else 200)


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


def choosable(user, model: type[Model]) -> QuerySet:
    """Records ``user`` may pick for a listing or offering: visible, and not closed for good."""
    return selectors.records_for(user, model).exclude(status__in=_CLOSED)
