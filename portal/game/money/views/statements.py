"""A player's statement of one account (§ 812a.11), for any period, as a page, a CSV or a
PDF: to the player, their own; to staff who see the holder's player accounts, theirs."""

from __future__ import annotations

import datetime

from django.contrib.auth.decorators import login_required
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from portal.access import policy
from portal.access.pages import visible_or_404
from portal.access.policy import Action, may
from portal.core.padates import pa_today
from portal.core.pages import domain_errors
from portal.game.models import GamingAccount
from portal.game.money import messages as msg
from portal.game.money import statements
from portal.game.money.forms import StatementForm


def _own(player, accounts: QuerySet[GamingAccount]) -> QuerySet[GamingAccount]:
    return accounts.filter(player=player)


def statement_account(user, pk: int) -> GamingAccount:
    """The account ``pk`` if ``user`` may read its statement: a player their own, staff
    who see the holder's player accounts theirs; anyone else's is not there."""
    accounts = GamingAccount.objects.select_related("holder", "player")
    if may(user, Action.PLAY) and not may(user, Action.VIEW_PLAYER_ACCOUNTS):
        within = _own
    else:
        policy.require(user, Action.VIEW_PLAYER_ACCOUNTS)
        within = policy.visible_accounts
    return visible_or_404(
        user, accounts, pk, action=None, within=within, missing=msg.NO_SUCH_ACCOUNT
    )


def _period(form: StatementForm) -> tuple[datetime.date, datetime.date]:
    today = pa_today()
    data = form.cleaned_data
    until = data.get("until") or today
    since = data.get("since") or until.replace(day=1)
    return since, until


@login_required
@require_safe
@domain_errors
def statement(request: HttpRequest, pk: int) -> HttpResponse:
    """§ 812a.11: the account's statement for any period, as a page, a CSV or a PDF."""
    account = statement_account(request.user, pk)
    form = StatementForm(request.GET or None)
    if form.is_bound and not form.is_valid():
        context = {"account": account, "form": form, "statement": None}
        return render(request, "game/statement.html", context, status=400)
    if not form.is_bound:
        form = StatementForm({})
        form.is_valid()
    since, until = _period(form)
    found = statements.statement(account, since, until)
    export = request.GET.get("export")
    if export == "csv":
        return statements.statement_csv(found)
    if export == "pdf":
        response = HttpResponse(
            statements.statement_pdf_bytes(found), content_type="application/pdf"
        )
        name = f"statement-{account.pk}-{since}-{until}.pdf"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        response["Cache-Control"] = "private, no-store"
        return response
    query = f"since={since.isoformat()}&until={until.isoformat()}"
    context = {
        "account": account,
        "form": StatementForm(initial={"since": since, "until": until}),
        "statement": found,
        "query": query,
        "mine": account.player_id == request.user.pk,
        "rounds_linked": account.player_id == request.user.pk
        or may(request.user, Action.VIEW_ROUNDS),
    }
    return render(request, "game/statement.html", context)
