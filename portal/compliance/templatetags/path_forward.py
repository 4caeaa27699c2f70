"""``{% path_forward record %}``: on an approved layout or paytable version, the way to run
tables on it (amend the rules submission that lists an older version), for whoever drafts
the holder's records; nothing for anyone else or any other record."""

from __future__ import annotations

from django import template

from portal.compliance.unlisted import ways_forward

register = template.Library()


@register.inclusion_tag("compliance/_path_forward.html", takes_context=True)
def path_forward(context, record) -> dict:
    request = context.get("request")
    user = getattr(request, "user", None)
    return {
        "record": record,
        "ways": ways_forward(user, record) if user is not None else [],
        "csrf_token": context.get("csrf_token"),
        "section": True,
    }
