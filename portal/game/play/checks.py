"""Tables suspended while a suspected malfunction is checked (reading:table-suspension): the
page where a compliance officer or a holder's supervisor suspends a table at once, with the
reason, and where someone else reopens it. Officers see every holder's tables, a supervisor
their own holder's; another holder's table is, to them, not there (404)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from portal.access.policy import Action, denial
from portal.access.roles import holder_id_of
from portal.compliance.models import IN_SERVICE, OfferingStatus
from portal.compliance.selectors import offering_is_live, offerings_with_parts
from portal.compliance.services.offerings import offering_reopen, offering_suspend
from portal.core.errors import DomainError, NotPermitted, ValidationFailed
from portal.core.forms import ServiceForm
from portal.core.pages import domain_errors

HIDDEN = "your role may not suspend or reopen tables"
SAY_WHAT = "say what to do: suspend or reopen a table, by its number"
SERVICES = {"suspend": offering_suspend, "reopen": offering_reopen}
DONE = {
    "suspend": "Table {name} is suspended: it takes no bets until someone else reopens it.",
    "reopen": "Table {name} is reopened.",
}


class CheckForm(ServiceForm):
    reason = forms.CharField(
        label="Reason",
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        error_messages={"required": "Give the reason: what was seen, what is checked"},
    )


def _tables(user):
    tables = offerings_with_parts().filter(status__in=IN_SERVICE).select_related("suspended_by")
    own = holder_id_of(user)
    if denial(user, Action.SUSPEND_TABLES) is None and own is not None:
        tables = tables.filter(holder_id=own)  # a supervisor: their holder's
    now = timezone.now()
    tables = tables.order_by("holder__name", "name")
    return [(table, offering_is_live(table, at=now)) for table in tables]


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def table_checks(request: HttpRequest) -> HttpResponse:
    user = request.user
    if denial(user, Action.SUSPEND_TABLES) is not None:
        raise NotPermitted(HIDDEN)
    failed, status = None, 200
    if request.method == "POST":
        action = request.POST.get("action", "")
        table = request.POST.get("table", "")
        form = CheckForm(request.POST, auto_id=f"{action}{table}_%s")
        if action not in SERVICES or not (table.isascii() and table.isdigit()):
            raise ValidationFailed(SAY_WHAT)
        if form.is_valid():
            try:
                done = SERVICES[action](
                    actor=user, offering_id=int(table), reason=form.cleaned_data["reason"]
                )
            except DomainError as error:
                if error.http_status == 404:
                    raise
                form.add_service_error(error)
                status = error.http_status
            else:
                messages.success(request, DONE[action].format(name=done.name))
                return redirect("game:table-checks")
        else:
            status = 400
        failed = (int(table), action, form)
    rows = []
    for table, liveness in _tables(user):
        action = "reopen" if table.status == OfferingStatus.SUSPENDED else "suspend"
        form = CheckForm(auto_id=f"{action}{table.pk}_%s")
        if failed is not None and failed[0] == table.pk and failed[1] == action:
            form = failed[2]
        rows.append((table, liveness, action, form))
    return render(
        request, "game/table_checks.html", {"rows": rows, "failed": failed}, status=status
    )
