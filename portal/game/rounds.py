"""A settled round as recorded, as every part of the game reads and shows it: the rounds
with their bets (``rounds_with_detail``), and one round's data as the API, the game page,
the replay and the decision on its corrections show it (``round_data``, § 810a.11 game
recall)."""

from __future__ import annotations

import functools

from django.db.models import QuerySet

import jinzi
from portal.game.models import Round


def rounds_with_detail() -> QuerySet[Round]:
    return Round.objects.select_related("player", "offering").prefetch_related("bets")


@functools.lru_cache(maxsize=256)
def winning_spots(outcome: int, wheel: jinzi.Wheel) -> tuple[str, ...]:
    """Every bet spot that wins when ``outcome`` comes up (for highlighting)."""
    return tuple(w.spot for w in jinzi.legal_wagers() if outcome in w.covers(wheel))


def round_data(round_obj: Round, bets=None) -> dict:
    """A settled round as the API and the game page show it (§ 810a.11 game recall).

    ``bets`` in position order, when the caller holds them; otherwise the round's own
    (prefetched by ``rounds_with_detail``)."""
    wheel = jinzi.Wheel.of(round_obj.wheel_order, first=round_obj.first_colour)
    return {
        "id": round_obj.pk,
        "offering": round_obj.offering_id,
        "player": round_obj.player.get_username(),
        "game_name": round_obj.game_name,
        "software_version": round_obj.software_version,
        "portal_version": round_obj.portal_version,
        "status": round_obj.status,
        "rules_submission": {
            "id": round_obj.rules_submission_id,
            "version": round_obj.rules_version,
        },
        "layout": {"id": round_obj.layout_id, "version": round_obj.layout_version},
        "paytable": {
            "id": round_obj.paytable_id,
            "version": round_obj.paytable_version,
            "odds": round_obj.paytable_odds,
        },
        "started_at": round_obj.started_at.isoformat(),
        "bets_closed_at": (
            round_obj.bets_closed_at.isoformat() if round_obj.bets_closed_at else None
        ),
        "ended_at": round_obj.ended_at.isoformat(),
        "session": round_obj.session_id or None,
        "software_identity": round_obj.software_identity or None,
        "rng": {"raw": round_obj.rng_raw, "method": round_obj.rng_method},
        "wheel": {"order": list(round_obj.wheel_order), "first_colour": round_obj.first_colour},
        "outcome": round_obj.outcome,
        "outcome_colour": str(wheel.color(round_obj.outcome)),
        "winning_spots": list(winning_spots(round_obj.outcome, wheel)),
        "wagers": [
            {
                "kind": bet.kind,
                "numbers": bet.numbers,
                "spot": bet.spot,
                "label": jinzi.Wager.parse(bet.spot).label,
                "stake": bet.stake,
                "returned": bet.returned,
            }
            for bet in (round_obj.bets.all() if bets is None else bets)
        ],
        "total_staked": round_obj.total_staked,
        "total_returned": round_obj.total_returned,
        "balance_before": round_obj.balance_before,
        "balance_after": round_obj.balance_after,
        "sequence": round_obj.sequence,
        "hash": round_obj.hash,
    }
