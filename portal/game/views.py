"""The game pages: the tables, a table to play at, and game recall."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from portal.accounts.policy import Action, denial, may
from portal.compliance.selectors import jinzi_listing, offering_is_live, offerings_with_parts
from portal.game import presenters, selectors
from portal.game.services import wallet_for


def _player(request: HttpRequest):
    reason = denial(request.user, Action.PLAY)
    if reason is not None:
        raise PermissionDenied(reason)
    return request.user


@login_required
@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    _player(request)
    return render(request, "game/tables.html", {"tables": selectors.open_tables()})


@login_required
@require_GET
def table(request: HttpRequest, pk: int) -> HttpResponse:
    player = _player(request)
    offering = offerings_with_parts().filter(pk=pk).first()
    if offering is None:
        raise Http404("no such table")
    listing = jinzi_listing(offering.rules_submission)
    liveness = offering_is_live(offering, listing=listing)
    wheel = offering.layout.wheel()
    context = {
        "offering": offering,
        "liveness": liveness,
        "listing": listing,
        "wallet": wallet_for(player),
        "recent": selectors.recent_rounds(player, 5),
    }
    if liveness.live and listing is not None:
        cells = presenters.table_cells(wheel)
        context.update(
            grid_cells=[c for c in cells if c.shape != "outside" or c.row != 11],
            outside_cells=[c for c in cells if c.shape == "outside" and c.row == 11],
            segments=presenters.wheel_segments(wheel),
            chips=presenters.chip_values(listing.chip_unit, listing.max_wager),
        )
    return render(request, "game/table.html", context)


@login_required
@require_GET
def history(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    return render(
        request,
        "game/history.html",
        {"rounds": selectors.recent_rounds(player, 25), "wallet": wallet_for(player)},
    )


@login_required
@require_GET
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    if not (may(request.user, Action.PLAY) or may(request.user, Action.VIEW_ROUNDS)):
        raise PermissionDenied("your role may not look up game rounds")
    round_obj = selectors.rounds_visible_to(request.user).filter(pk=pk).first()
    if round_obj is None:
        raise Http404("no such round")
    return render(
        request,
        "game/round.html",
        {"round": round_obj, "data": presenters.round_data(round_obj)},
    )
