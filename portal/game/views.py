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
from portal.game.replay import replay_data
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


def _visible_round(request: HttpRequest, pk: int):
    """The round ``pk`` if the user may look it up: a player their own, staff any."""
    if not (may(request.user, Action.PLAY) or may(request.user, Action.VIEW_ROUNDS)):
        raise PermissionDenied("your role may not look up game rounds")
    round_obj = selectors.rounds_visible_to(request.user).filter(pk=pk).first()
    if round_obj is None:
        raise Http404("no such round")
    return round_obj


@login_required
@require_GET
def round_detail(request: HttpRequest, pk: int) -> HttpResponse:
    round_obj = _visible_round(request, pk)
    return render(
        request,
        "game/round.html",
        {"round": round_obj, "data": presenters.round_data(round_obj)},
    )


def _replay_page(request: HttpRequest, round_obj, *, latest: bool) -> HttpResponse:
    return render(
        request,
        "game/replay.html",
        {
            "round": round_obj,
            "data": replay_data(round_obj),
            # The banner says "your previous game" only when it is the viewer's own latest.
            "mine": round_obj.player_id == request.user.pk,
            "latest": latest,
        },
    )


@login_required
@require_GET
def replay_last(request: HttpRequest) -> HttpResponse:
    """§ 810a.11(a): the signed-in player's previous game, replayed from its record."""
    player = _player(request)
    last = selectors.recent_rounds(player, 1)
    if not last:
        return render(request, "game/replay.html", {"round": None})
    return _replay_page(request, last[0], latest=True)


@login_required
@require_GET
def replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Any round's replay, to whoever may look it up (as ``round_detail``)."""
    round_obj = _visible_round(request, pk)
    mine = round_obj.player_id == request.user.pk  # only then is "latest" asked (a query)
    return _replay_page(request, round_obj, latest=mine and selectors.is_latest_round(round_obj))
