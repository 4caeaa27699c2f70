"""A holder's terms and conditions as the player reads and accepts them (§ 812a.5): the
version in force, its text, and whether (and when) the player accepted it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from portal.compliance.models import CertificateHolder
from portal.compliance.selectors import terms_in_force
from portal.core.pages import domain_errors
from portal.game.models import TermsAcknowledgement
from portal.game.money.terms import terms_accept
from portal.game.pages import player_of

NO_TERMS = "{holder} has no terms and conditions in force: there is nothing to accept yet."


@login_required
@require_http_methods(["GET", "POST"])
@domain_errors
def terms(request: HttpRequest, pk: int) -> HttpResponse:
    player = player_of(request)
    holder = CertificateHolder.objects.filter(pk=pk).first()
    if holder is None:
        raise Http404("no such certificate holder")
    in_force = terms_in_force(holder.pk)
    if request.method == "POST":
        try:
            terms_id = int(request.POST.get("terms", ""))
        except ValueError:
            terms_id = 0
        terms_accept(player=player, holder_id=holder.pk, terms_id=terms_id)
        messages.success(request, f"You accepted {holder.name}'s terms and conditions.")
        return redirect("game:account")
    accepted = (
        TermsAcknowledgement.objects.filter(player=player, terms=in_force).first()
        if in_force is not None
        else None
    )
    context = {"holder": holder, "terms": in_force, "accepted": accepted, "no_terms": NO_TERMS}
    return render(request, "game/terms.html", context)
