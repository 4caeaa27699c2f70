"""A declared workflow's steps as API actions: one ``POST`` route per step people take on
an object (``portal.access.workflow``), whatever the app.

Each app says what its step takes and answers (its input, its service, its schema); the
route, its name, the policy action that gates it and the object it acts on are the step's
and the viewset's, the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from portal.access.workflow import Step

# What a step's action does once its object is found: the viewset, the request, the object.
Take = Callable[[object, Request, object], Response]


def step_action(step: Step, take: Take, **schema):
    """The API action of ``step``: ``POST /api/<things>/{id}/<step name>/``, allowed to whom
    the step's permission allows (``policy_action``), on the object as the viewset finds it
    for this user (another's is a 404), answered by ``take``. ``schema`` is what
    ``extend_schema`` documents of it (its request, responses and summary)."""

    def posted(self, request, pk=None):
        return take(self, request, self.get_object())

    # The method's name is the step's verb: the schema and the router read it.
    posted.__name__ = posted.__qualname__ = step.verb
    routed = action(
        detail=True,
        methods=["post"],
        url_path=step.name,
        url_name=step.name,
        policy_action=step.permission,
    )
    return extend_schema(**schema)(routed(posted))
