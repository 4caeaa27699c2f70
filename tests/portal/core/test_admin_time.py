"""The admin shows every instant in Pennsylvania time with its zone, EST or EDT, as the
portal's own pages do (reading:pennsylvania-dates), even on a server kept in UTC."""

from __future__ import annotations

import datetime

import pytest
import time_machine

from portal.accounts.services import holder_create

pytestmark = pytest.mark.django_db
UTC = datetime.UTC
HOLDERS = "/admin/accounts/certificateholder/"


@pytest.fixture
def admin_formats(settings):
    assert settings.FORMAT_MODULE_PATH == ["portal.core.formats"]  # instants name their zone
    settings.TIME_ZONE = "UTC"  # the server's own zone is not what the admin shows
    return settings


def _created(name: str, licence: str, at: datetime.datetime):
    with time_machine.travel(at, tick=False):
        return holder_create(actor=None, name=name, licence_number=licence)


def test_the_admin_change_list_shows_pennsylvania_time_with_est_or_edt(
    login, superuser, admin_formats
):
    winter = _created("Winter Casino", "PA-W1", datetime.datetime(2026, 1, 15, 17, 30, tzinfo=UTC))
    summer = _created("Summer Casino", "PA-S1", datetime.datetime(2026, 7, 15, 17, 30, tzinfo=UTC))

    page = login(superuser).get(HOLDERS).content.decode()

    assert "2026-01-15 12:30:00 EST" in page  # 17:30 UTC in January
    assert "2026-07-15 13:30:00 EDT" in page  # 17:30 UTC in July
    assert "17:30" not in page  # never the server's UTC
    assert winter.pk and summer.pk


def test_the_zone_is_pennsylvania_for_the_admin_request_only(login, superuser, admin_formats):
    from django.utils import timezone

    login(superuser).get(HOLDERS)

    # The test client answers in this thread: the admin's zone did not outlive its request.
    assert timezone.get_current_timezone_name() == "UTC"
