"""The inbox, marking read, the header's unread count and the choices page: each person
sees and marks only their own notifications."""

from __future__ import annotations

import pytest
from django.core import mail
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from portal.compliance.services.paytables import paytable_submit
from portal.notifications.context_processors import notifications as bell_context
from portal.notifications.models import Delivery, Notification, Preference
from portal.notifications.services import preferences_set
from tests.portal.factories import make_paytable
from tests.portal.notifications.helpers import dispatch_twice, settle, with_emails
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(manager_a, officer, officer2, holder_a):
    """Two submissions officers are told of."""
    settle()
    for name in ("Weekend", "Holiday"):
        paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a, name=name))
    dispatch_twice()
    return list(Notification.objects.filter(recipient=officer).order_by("-created_at", "-pk"))


def test_the_inbox_lists_ones_own_newest_first_with_links(login, officer, submitted):
    page = login(officer).get("/notifications/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "2 unread." in html
    first, second = (html.index(n.subject.replace("'", "&#x27;")) for n in submitted)
    assert first < second  # newest first
    for note in submitted:
        assert f'href="{note.link}"' in html


def test_marking_one_read_and_then_all(login, officer, submitted):
    client = login(officer)
    answer = client.post(f"/notifications/{submitted[0].pk}/read/")
    assert answer.status_code == 302
    assert Notification.objects.filter(recipient=officer, read_at__isnull=True).count() == 1
    assert "1 unread." in client.get("/notifications/").content.decode()

    client.post("/notifications/read-all/")
    assert not Notification.objects.filter(recipient=officer, read_at__isnull=True).exists()
    assert "Nothing unread." in client.get("/notifications/").content.decode()


def test_marking_read_asks_for_a_post_with_its_csrf_token(officer, submitted):
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(officer)
    assert strict.get(f"/notifications/{submitted[0].pk}/read/").status_code == 405
    assert strict.post(f"/notifications/{submitted[0].pk}/read/").status_code == 403
    assert not Notification.objects.filter(read_at__isnull=False).exists()


def test_another_persons_notification_is_neither_shown_nor_marked(
    login, officer2, manager_b, submitted
):
    theirs = submitted[0]  # officer's
    client = login(manager_b)
    assert (
        theirs.subject.replace("'", "&#x27;") not in client.get("/notifications/").content.decode()
    )
    assert client.post(f"/notifications/{theirs.pk}/read/").status_code == 404
    login(officer2)
    assert client.post(f"/notifications/{theirs.pk}/read/").status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_the_header_count_says_how_many_are_unread(officer, manager_b, submitted):
    request = RequestFactory().get("/")
    request.user = officer
    bell = bell_context(request)["notification_bell"]
    assert bell.unread == 2
    shown = render_to_string("notifications/_bell.html", {"notification_bell": bell})
    assert (
        shown.strip()
        == '<a href="/notifications/" class="notification-bell">Notifications (2 unread)</a>'
    )

    request.user = manager_b
    shown = render_to_string("notifications/_bell.html", bell_context(request))
    assert ">Notifications</a>" in shown  # nothing unread: no count


def test_the_count_is_in_every_pages_context(login, officer, submitted):
    answer = login(officer).get("/notifications/preferences/")
    assert answer.context["notification_bell"].unread == 2


def test_the_choices_page_lists_ones_kinds_and_saves_a_choice(login, manager_a):
    client = login(manager_a)
    page = client.get("/notifications/preferences/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "A record of your holder is approved, rejected" in html
    assert "A layout, paytable or rules submission is submitted" not in html  # officers'

    saved = client.post("/notifications/preferences/", {"record_decided": Delivery.DIGEST})
    assert saved.status_code == 302
    assert Preference.objects.get(user=manager_a, kind="record_decided").delivery == "digest"

    refused = client.post("/notifications/preferences/", {"record_decided": "pigeon"})
    assert refused.status_code == 400
    assert Preference.objects.get(user=manager_a, kind="record_decided").delivery == "digest"


def test_signed_out_the_pages_ask_to_sign_in(client):
    for path in ("/notifications/", "/notifications/preferences/"):
        assert client.get(path).status_code == 302


def test_the_pages_and_the_email_are_in_plain_words(login, officer, manager_a, holder_a, submitted):
    client = login(officer)
    for path in ("/notifications/", "/notifications/preferences/"):
        assert developer_words(shown_text(client.get(path).content.decode())) == [], path

    with_emails(officer)
    preferences_set(actor=officer, choices={"record_submitted": Delivery.EMAIL})
    Notification.objects.all().delete()
    dispatch_twice()  # nothing new happened: nothing is sent
    assert not mail.outbox

    paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a, name="Promo"))
    dispatch_twice()
    [email] = mail.outbox
    assert developer_words(email.body) == []
    assert developer_words(shown_text(email.alternatives[0][0])) == []


def test_a_superuser_chooses_for_what_officers_and_managers_are_told(login, superuser):
    html = login(superuser).get("/notifications/preferences/").content.decode()
    assert "A layout, paytable or rules submission is submitted" in html
    assert "A record of your holder is approved, rejected" in html
    assert "Money into or out of" not in html  # players and payments staff
