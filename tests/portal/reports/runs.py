"""One small day of play for the report-run tests (the API's, the run page's and the
browser walk's): three rounds of red 200 and straight 0 200 on one table, outcomes 0, 5, 7,
at noon in Pennsylvania on 16 November 2026. H = 1,200; returned 2,500 + 400 + 0 = 2,900;
W = −1,700 (hold −141.67 %). And the helpers that read what a run made."""

from __future__ import annotations

import datetime

import time_machine
from django.conf import settings
from rest_framework.test import APIClient

from portal.game.play.services import round_play
from portal.reports.models import ReportRun
from tests.portal.factories import in_session
from tests.portal.funding import wallet_top_up
from tests.portal.game.conftest import FixedBits

PLAYED_AT = datetime.datetime(2026, 11, 16, 17, 0, tzinfo=datetime.UTC)  # noon in PA
DAY = "2026-11-16"
OUTCOMES = (0, 5, 7)


def play_the_day(player, offering, *, keys: str) -> None:
    """The three rounds, after a top-up, all at ``PLAYED_AT`` (the ledger's time follows
    its ids); ``keys`` starts each round's idempotency key."""
    with time_machine.travel(PLAYED_AT):
        wallet_top_up(player=player, amount=100_000)
        for number, outcome in enumerate(OUTCOMES):
            round_play(
                player=player,
                session=in_session(player),
                offering_id=offering.pk,
                wagers=[
                    {"kind": "red", "stake": 200},
                    {"kind": "straight", "numbers": [0], "stake": 200},
                ],
                idempotency_key=f"{keys}-{number}",
                rng=FixedBits(outcome),
            )


def api(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


def stored(run: ReportRun, fmt: str) -> bytes:
    """The bytes of the run's file in ``fmt``, from the reports folder."""
    return (settings.JINZI_REPORTS_DIR / run.files.get(format=fmt).name).read_bytes()
