"""The account pages: the start page (by who you are) and a user's own API tokens."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

import jinzi
from portal.access import policy
from portal.access.policy import Action
from portal.accounts.models import ApiToken
from portal.accounts.tokens import DEFAULT_DAYS, MAX_DAYS, api_token_issue, api_token_revoke
from portal.core.errors import ValidationFailed
from portal.core.pages import domain_errors

SHOWN_TOKENS = 100


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The intro for visitors; staff go straight to their dashboard, players to the tables,
    a holder's supervisors to the voids and adjustments waiting for a decision, its
    payments staff to the payments queue."""
    user = request.user
    if policy.may(user, Action.VIEW) or policy.may(user, Action.VIEW_AUDIT):
        return redirect("compliance:dashboard")
    if policy.may(user, Action.PLAY):
        return redirect("game:tables")
    if policy.may(user, Action.CORRECT_ROUNDS):  # a holder's supervisor: what waits for them
        return redirect("game:corrections")
    if policy.may(user, Action.PAY_OUT):  # a holder's payments staff: their queue
        return redirect("game:payments")
    return render(request, "core/home.html", {"game_version": jinzi.__version__})


TOKEN_DAYS_PLAIN = f"Enter how many days the token lasts: a whole number from 1 to {MAX_DAYS}."


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="What the token is for, e.g. “game client”.",
        error_messages={"required": "Enter what the token is for, like “game client”."},
    )
    days = forms.IntegerField(
        min_value=1,
        max_value=MAX_DAYS,
        initial=DEFAULT_DAYS,
        help_text=f"1 to {MAX_DAYS} days.",
        error_messages={
            key: TOKEN_DAYS_PLAIN for key in ("required", "invalid", "min_value", "max_value")
        },
    )


@never_cache  # the page that shows a new secret must not be kept by any cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def api_tokens(request: HttpRequest) -> HttpResponse:
    issued = None
    status = 200
    form = TokenForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if form.is_valid():
            try:
                issued = api_token_issue(user=request.user, **form.cleaned_data)
            except ValidationFailed as error:
                form.add_error(None, error.message)
        if issued is None:
            status = 400
        else:
            form = TokenForm()
    tokens = ApiToken.objects.filter(user=request.user)[:SHOWN_TOKENS]
    return render(
        request,
        "accounts/api_tokens.html",
        {"form": form, "issued": issued, "tokens": tokens, "now": timezone.now()},
        status=status,
    )


@login_required
@require_POST
@domain_errors
def api_token_revoke_page(request: HttpRequest, pk: int) -> HttpResponse:
    token = api_token_revoke(actor=request.user, token_id=pk)
    messages.success(request, f"Token “{token.name}” ({token.prefix}…) is revoked.")
    return redirect("accounts:api-tokens")
