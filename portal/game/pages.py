"""What the game's pages share: the signed-in player (``player_of``), and a form posted to
a page (``Posted``): ``run`` reads it and calls the service, whose refusal lands on the
form with its status (400, 403, 404, 409); ``posted_action`` says which form was posted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from portal.access.policy import Action, denial
from portal.core.errors import DomainError, ValidationFailed
from portal.core.forms import ServiceForm

NO_ACTION = "say what to do: {actions}"


def player_of(request: HttpRequest):
    """The signed-in player; anyone who does not play is refused (403)."""
    reason = denial(request.user, Action.PLAY)
    if reason is not None:
        raise PermissionDenied(reason)
    return request.user


@dataclass
class Posted:
    """A form posted to a page: what it asked, and how the service answered."""

    action: str
    form: ServiceForm
    status: int = 200
    done: str = ""
    account_id: int | None = None


def run(posted: Posted, call: Callable[[dict], str]) -> Posted:
    """Read the form; if it reads, call the service with what it read. ``call`` returns
    what was done, in words; a refusal lands on the form, with its status."""
    if not posted.form.is_valid():
        posted.status = 400
        return posted
    try:
        posted.done = call(posted.form.cleaned_data)
    except DomainError as error:
        posted.form.add_service_error(error)
        posted.status = error.http_status
    return posted


def posted_action(request: HttpRequest, handlers: dict) -> str:
    action = request.POST.get("action", "")
    if action not in handlers:
        raise ValidationFailed(NO_ACTION.format(actions=", ".join(handlers)))
    return action
