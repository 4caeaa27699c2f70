"""WhiteNoise, on a static root that exists.

WhiteNoise reads the static root once, as the web process builds its middleware, and
warns if the folder is missing. ``collectstatic`` fills it before a deployment serves
(and ``make run`` runs it), but the test suite, a fresh clone and a bench's throwaway var
folder serve without collecting. The settings create no folder when read, so the folder
is made here, where it is first needed: empty until collected, which is what it holds.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings as django_settings
from whitenoise.middleware import WhiteNoiseMiddleware


class StaticFilesMiddleware(WhiteNoiseMiddleware):
    def __init__(self, get_response=None, settings=django_settings):
        if settings.STATIC_ROOT:
            Path(settings.STATIC_ROOT).mkdir(parents=True, exist_ok=True)
        super().__init__(get_response, settings)
