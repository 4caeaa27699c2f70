"""The Celery app. Tasks are thin: they take ids and call services."""

import os
from pathlib import Path

from celery import Celery
from celery.signals import worker_ready

from portal.software import startup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# As a worker becomes ready, the software it runs goes into the Software Installation/Removal
# Log (§ 811a.7(e)), once per host and identity.
worker_ready.connect(startup.worker_ready, weak=False)

# The filesystem transport's folders: messages, processed ones, the exchanges' bindings.
FILESYSTEM_FOLDERS = ("data_folder_in", "data_folder_out", "processed_folder", "control_folder")


@app.on_after_configure.connect
def make_broker_folders(sender, **kwargs) -> None:
    """On kombu's filesystem transport (`make run`), make the broker's folders, which kombu
    expects to find. The app reads its configuration on first use, whatever the process: the
    worker and beat as they start, the web process before it sends its first task. Reading
    the settings creates no folder, so this is where they appear."""
    if not str(sender.conf.broker_url or "").startswith("filesystem://"):
        return
    options = sender.conf.broker_transport_options or {}
    for name in FILESYSTEM_FOLDERS:
        if options.get(name):
            Path(options[name]).mkdir(parents=True, exist_ok=True)
