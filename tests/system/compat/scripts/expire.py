"""The midnight expiry job, run by its task name, on the night after the sunset of § 617b.8
(2028-06-14): every approval lapses, so each kind of record writes its expiry event, and
the tables close."""

import datetime
import sys

import time_machine
from celery import current_app

AFTER_SUNSET = datetime.datetime(2028, 6, 15, 4, 30, tzinfo=datetime.UTC)  # 00:30 in PA
current_app.loader.import_default_modules()  # every app's tasks, as a worker loads them
job = current_app.tasks["compliance.expire_due_records"]
with time_machine.travel(AFTER_SUNSET, tick=False):
    if not job.apply().get():
        sys.exit("the expiry job found no approval to expire after the sunset")
