"""An outbox row as an email: a plain-text and an HTML body, the subject naming the
object, and absolute links on the portal's address (``JINZI_SITE_URL``)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from portal.access.roles import Role, has_role
from portal.core.readings import readings_named
from portal.core.responsible_gaming import HELP_MESSAGE
from portal.notifications.models import Channel, Outbox

SIGNATURE = "Jinzi Roulette back office"


class NoAddress(Exception):
    """The recipient has no email address (any more)."""


def absolute(link: str) -> str:
    """A path on the portal as a full address people can open from their mail."""
    if link.startswith(("http://", "https://")):
        return link
    return settings.JINZI_SITE_URL.rstrip("/") + "/" + link.lstrip("/")


def _text(row: Outbox, items: list[dict], preferences: str, help_line: str) -> str:
    if row.channel == Channel.DIGEST:
        parts = [f"{item['subject']}\n{item['body']}\n{absolute(item['link'])}" for item in items]
        text = "\n\n".join(parts)
    else:
        text = f"{row.body}\n\nOpen it: {absolute(row.link)}"
    text = f"{help_line}\n\n{text}" if help_line else text
    return (
        f"{text}\n\n-- \n{SIGNATURE}\nChoose which notifications you get by email: {preferences}\n"
    )


def message_for(row: Outbox) -> EmailMultiAlternatives:
    address = (row.recipient.email or "").strip()
    if not address:
        raise NoAddress("the recipient has no email address")
    preferences = absolute(reverse("notifications:preferences"))
    # A reading is named by its title (``portal.core.readings``), never by its id.
    items = [
        {**item, "body": readings_named(item["body"]), "url": absolute(item["link"])}
        for item in (row.items or [])
    ]
    # § 814a.1(b): what a player is sent carries the help line too.
    help_line = HELP_MESSAGE if has_role(row.recipient, Role.PLAYER) else ""
    text = readings_named(_text(row, items, preferences, help_line))
    html = render_to_string(
        "notifications/email.html",
        {
            "subject": row.subject,
            "body": readings_named(row.body),
            "url": absolute(row.link) if row.link else "",
            "items": items,
            "digest": row.channel == Channel.DIGEST,
            "preferences": preferences,
            "signature": SIGNATURE,
            "help_line": help_line,
        },
    )
    message = EmailMultiAlternatives(
        subject=row.subject,
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[address],
    )
    message.attach_alternative(html, "text/html")
    return message
