"""The email settings are read from the environment and a bad value stops start-up,
naming it; without a mail server, emails go to the log (the console backend)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
SHOW = (
    "import portal.settings as s; "
    "print(s.EMAIL_BACKEND, s.JINZI_SITE_URL, s.DEFAULT_FROM_EMAIL, sep='|')"
)


def _settings(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("EMAIL_", "JINZI_"))}
    clean.update({"DJANGO_DEBUG": "1", "JINZI_VAR_DIR": "/tmp/notify-settings", **env})
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=REPO, env=clean, capture_output=True, text=True
    )


def test_without_a_mail_server_emails_go_to_the_log():
    shown = _settings()
    assert shown.returncode == 0, shown.stderr
    backend, site, sender = shown.stdout.strip().split("|")
    assert backend == "django.core.mail.backends.console.EmailBackend"
    assert site == "http://127.0.0.1:8000"
    assert "@" in sender


def test_with_a_mail_server_emails_go_by_smtp():
    shown = _settings(EMAIL_HOST="mail.example.com", JINZI_SITE_URL="https://bo.example.com/")
    assert shown.returncode == 0, shown.stderr
    backend, site, _ = shown.stdout.strip().split("|")
    assert backend == "django.core.mail.backends.smtp.EmailBackend"
    assert site == "https://bo.example.com"


@pytest.mark.parametrize(
    ("env", "said"),
    [
        ({"EMAIL_PORT": "smtp"}, "EMAIL_PORT must be a whole number"),
        ({"EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"}, "choose one"),
        ({"JINZI_EMAIL_BACKEND": "pigeon"}, "JINZI_EMAIL_BACKEND must be one of"),
        ({"JINZI_EMAIL_BACKEND": "smtp"}, "needs EMAIL_HOST"),
        ({"DEFAULT_FROM_EMAIL": "nobody"}, "DEFAULT_FROM_EMAIL must be an email address"),
        ({"JINZI_SITE_URL": "bo.example.com"}, "JINZI_SITE_URL must be the portal's address"),
        ({"JINZI_NOTIFICATIONS_HOUR": "25"}, "JINZI_NOTIFICATIONS_HOUR must be at most 23"),
    ],
)
def test_a_bad_email_setting_stops_start_up_naming_it(env, said):
    shown = _settings(**env)
    assert shown.returncode != 0
    assert "ImproperlyConfigured" in shown.stderr and said in shown.stderr


def test_the_jobs_run_every_minute_and_every_morning_in_pennsylvania_time(settings):
    deliver = settings.CELERY_BEAT_SCHEDULE["notifications-deliver"]
    daily = settings.CELERY_BEAT_SCHEDULE["notifications-daily"]
    assert deliver["task"] == "notifications.deliver"
    assert deliver["schedule"].minute == set(range(60))
    assert daily["task"] == "notifications.daily"
    assert (daily["schedule"].hour, daily["schedule"].minute) == ({7}, {0})
    assert settings.CELERY_TIMEZONE == "America/New_York"
