"""gunicorn's settings for the portal, read from the repository's root (gunicorn's default
``./gunicorn.conf.py``) by ``gunicorn portal.wsgi``; the command line's still apply over
these.

``when_ready``: once the server is ready, in its master, the game software it runs goes into
the Software Installation/Removal Log (§ 811a.7(e); ``portal.software.startup``)."""

import sys
from pathlib import Path

# The checkout this file belongs to: the portal the hook records is the one gunicorn serves.
ROOT = str(Path(__file__).resolve().parent)


def when_ready(server) -> None:
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from portal.software.startup import when_ready as record_installation

    record_installation(server)
