"""``{{ text|readings }}``: a message or stored reason with each ``reading:<id>`` shown as
the reading's title, linked to the Regulation page (``portal.core.readings``)."""

from __future__ import annotations

from django import template

from portal.core.readings import readings_linked

register = template.Library()


@register.filter
def readings(text) -> str:
    return readings_linked(str(text)) if text else ""
