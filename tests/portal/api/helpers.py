"""Payloads and assertions shared by the API tests."""

from __future__ import annotations

from contextlib import contextmanager

from portal.audit.models import AuditEvent
from tests.portal.factories import MINIMUM_ODDS, STANDARD_ORDER, events_written


def paytable_body(**overrides) -> dict:
    body = {"name": "Standard", "odds": dict(MINIMUM_ODDS)}
    body.update(overrides)
    return body


def layout_body(**overrides) -> dict:
    body = {"title": "Main floor layout", "wheel_order": list(STANDARD_ORDER)}
    body.update(overrides)
    return body


def game_body(paytable, layout, /, **overrides) -> dict:
    body = {
        "game": "jinzi_roulette",
        "paytable": paytable.pk,
        "layout": layout.pk,
        "chip_unit": 100,
        "min_wager": 100,
        "max_wager": 50_000,
        "max_round_stake": 200_000,
    }
    body.update(overrides)
    return body


def rules_body(paytable, layout, /, game=None, **overrides) -> dict:
    body = {
        "title": "Jinzi Roulette rules",
        "effective_date": "2026-01-01",
        "expiry_date": "2028-01-01",
        "games": [game_body(paytable, layout, **(game or {}))],
    }
    body.update(overrides)
    return body


def _rows(records) -> list[dict]:
    return [type(r).objects.filter(pk=r.pk).values().get() for r in records]


@contextmanager
def nothing_written(*records):
    """Assert the block writes no audit event and leaves ``records`` exactly as they were."""
    events = events_written()
    before = _rows(records)
    yield
    assert events_written() == events
    assert _rows(records) == before


def last_event(action: str) -> AuditEvent:
    return AuditEvent.objects.filter(action=action).order_by("-sequence").first()
