"""``{{ instant|pa_time }}``: an instant as Pennsylvania time with its zone
(reading:pennsylvania-dates), e.g. "2026-11-30 10:26 EST"; ``pa_time:"seconds"`` adds the
seconds. Never microseconds."""

from __future__ import annotations

import datetime

from django import template

from portal.core.padates import pa_stamp

register = template.Library()


@register.filter
def pa_time(instant: datetime.datetime | None, precision: str = "minutes") -> str:
    if not instant:
        return ""
    return pa_stamp(instant, seconds=precision == "seconds")
