"""``{% game_clock %}``: what the player's frame shows of the time (§ 814a.1): the current
Pennsylvania time, labelled, and the time elapsed since this session signed in. Rendered by
the server (so it reads without script) and kept running by game/clock.js."""

from __future__ import annotations

import datetime

from django import template
from django.utils import timezone

from portal.core.padates import pa_time
from portal.game.sessions.signals import SIGNED_IN_AT

register = template.Library()


def elapsed_words(seconds: float) -> str:
    minutes = max(0, int(seconds // 60))
    hours, minutes = divmod(minutes, 60)
    minute_words = f"{minutes} minute{'s' if minutes != 1 else ''}"
    if not hours:
        return minute_words
    return f"{hours} hour{'s' if hours != 1 else ''} {minute_words}"


@register.inclusion_tag("game/_clock.html", takes_context=True)
def game_clock(context) -> dict:
    request = context.get("request")
    now = timezone.now().replace(microsecond=0)  # pages never show microseconds
    signed_in = None
    stored = request.session.get(SIGNED_IN_AT) if request is not None else None
    if stored:
        try:
            signed_in = datetime.datetime.fromisoformat(stored).replace(microsecond=0)
        except ValueError:
            signed_in = None
    return {
        "now_shown": pa_time(now).strftime("%H:%M %Z"),
        # Milliseconds since the epoch, as the script counts: no timestamp text on the page.
        "signed_in_ms": int(signed_in.timestamp() * 1000) if signed_in else None,
        "elapsed": elapsed_words((now - signed_in).total_seconds()) if signed_in else "",
    }
