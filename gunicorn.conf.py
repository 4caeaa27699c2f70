"""gunicorn's settings for the portal, read from the repository's root (gunicorn's default
``./gunicorn.conf.py``) by ``gunicorn portal.wsgi``; the command line's still apply over
these.

``when_ready``: once the server is ready, in its master, the game software it runs goes into
the Software Installation/Removal Log (§ 811a.7(e); ``portal.software.startup``).

``on_starting`` and ``child_exit``: with ``PROMETHEUS_MULTIPROC_DIR`` set, every worker
writes its metrics to files in that folder and ``/metrics`` adds them up (prometheus_client's
multiprocess mode; docs/operations.md, Metrics). The master empties the folder of a past
server's files before any worker starts, and marks each worker that exits as dead, so its
live gauges drop out while its counters stay counted."""

import os
import sys
from pathlib import Path

# The checkout this file belongs to: the portal the hook records is the one gunicorn serves.
ROOT = str(Path(__file__).resolve().parent)
# prometheus_client's variable; its files are named <kind>_<pid>.db.
MULTIPROCESS_DIR = "PROMETHEUS_MULTIPROC_DIR"


def when_ready(server) -> None:
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from portal.software.startup import when_ready as record_installation

    record_installation(server)


def on_starting(server) -> None:
    """Before the first worker: the multiprocess folder made, and emptied of the files a past
    server left (their pids may be reused, and their counts are not this server's). Only the
    metrics' own files go, whatever else the folder was given to hold."""
    folder = os.environ.get(MULTIPROCESS_DIR)
    if not folder:
        return
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    for stale in path.glob("*.db"):
        stale.unlink()


def child_exit(server, worker) -> None:
    """A worker gone (recycled, killed, crashed): its live gauges no longer count."""
    if not os.environ.get(MULTIPROCESS_DIR):
        return
    from prometheus_client import multiprocess

    multiprocess.mark_process_dead(worker.pid)
