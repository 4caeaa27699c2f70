"""Where the Software Installation/Removal Log (§ 811a.7(e)) is written: as a web server
(gunicorn's ``when_ready`` hook, in its master, once however many workers it starts) or a
Celery worker (its ``worker_ready`` signal) becomes ready, never when a module is imported
or a command such as ``migrate`` runs.

Each records, under this host's name (``JINZI_HOST_NAME``) and its deployer
(``JINZI_DEPLOYED_BY``), the identity it runs (``services.installations``), then closes its
database connections: gunicorn forks its workers after this hook, and a connection must
never be shared by two processes."""

from __future__ import annotations

import logging
import os

logger = logging.getLogger(__name__)


def record_this_start() -> list:
    """Record the software this process runs on this host, if the log does not yet say so;
    the events written (Django must be set up)."""
    from django.conf import settings
    from django.db import connections

    from portal.software.services.installations import software_installed

    try:
        events = software_installed(
            host=settings.JINZI_HOST_NAME, deployed_by=settings.JINZI_DEPLOYED_BY
        )
    finally:
        connections.close_all()
    return events


def when_ready(server) -> None:
    """gunicorn's server hook (``gunicorn.conf.py``): once, in the master, before it forks
    the workers. A failure to record stops the server: the software must not serve the game
    unlogged."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")
    django.setup()
    events = record_this_start()
    server.log.info("Software Installation/Removal Log: %s", _summary(events))


def worker_ready(sender=None, **kwargs) -> None:
    """Celery's ``worker_ready`` signal (connected in ``portal.celery``): once per worker
    as it starts, after Django is set up. Celery logs a failure here and the worker runs on;
    its next start records what this one could not."""
    events = record_this_start()
    logger.info("Software Installation/Removal Log: %s", _summary(events))


def _summary(events: list) -> str:
    return "; ".join(event.reason for event in events) or "already recorded on this host"
