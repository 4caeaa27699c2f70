"""No page, email, PDF, CSV or XLSX that a person who is not a developer sees carries a
Python type name, a model field name, a module path or a file name.

Each demo user signs in and follows every link the portal shows them (one address per
shape of address: ``/records/paytable/7/`` stands for every paytable), and each page,
download and email met on the way is scanned with the deny-list of
``tests.portal.plain_words``. The API and its documentation are for developers and are
not followed; the admin is Django's own.
"""

from __future__ import annotations

import csv
import io
import json
import re
import zipfile
from collections import deque
from urllib.parse import urldefrag, urlsplit

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from pypdf import PdfReader

from portal.demo.services import DEMO_PASSWORD, USERS
from portal.notifications.services import (
    digests_prepare,
    notifications_dispatch,
    outbox_send_due,
    reminders_send,
)
from tests.portal.factories import sign_in
from tests.portal.plain_words import BETWEEN_ELEMENTS, developer_words, shown_text

pytestmark = pytest.mark.django_db

# Not followed: developers' pages, signing out, the admin (Django's own screens), and
# Prometheus's machine text (/metrics).
SKIPPED = re.compile(r"^/(?:api/|admin/|accounts/logout|static/|media/|metrics$)")
# Followed but not scanned: the Regulation page is the register itself, which names each
# Reading by its id so that code, reports and the audit trail can cite it.
EXEMPT = re.compile(r"^/regulation/")
HREF = re.compile(r"""href=["']([^"'#]+)["']""")
# How many addresses of one shape are visited: one stands for the others.
PER_SHAPE = 1
MOST_PAGES = 400


def _shape(url: str) -> str:
    path, _, query = url.partition("?")
    path = re.sub(r"/\d+(?=/|$)", "/N", path)
    keys = sorted(part.split("=", 1)[0] for part in query.split("&") if part)
    return f"{path}?{'&'.join(keys)}"


def _csv_text(text: str) -> str:
    """A CSV's cells, but for a record copied as stored (a JSON object: the audit trail's
    before and after, which an export keeps exactly as hashed so the chain can be checked
    from it, and which the trail's pages show in words)."""
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    return f" {BETWEEN_ELEMENTS} ".join(cell for cell in cells if not _stored_record(cell))


def _stored_record(cell: str) -> bool:
    if not cell.startswith("{"):
        return False
    try:
        return isinstance(json.loads(cell), dict)
    except ValueError:
        return False


def _xlsx_text(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = [n for n in archive.namelist() if n.startswith("xl/") and n.endswith(".xml")]
        xml = " ".join(archive.read(n).decode() for n in names)
    # Sheet names, shared strings and inline strings: the words a person reads.
    words = re.findall(r'<sheet [^>]*name="([^"]*)"', xml)
    words += re.findall(r"<t[^>]*>([^<]*)</t>", xml)
    return " ".join(words)


def _pdf_text(data: bytes) -> str:
    return " ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(data)).pages)


def _shown(response) -> tuple[str, str]:
    """(what it is, the text shown) of a page or a download."""
    kind = response.get("Content-Type", "").split(";")[0]
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if kind == "text/html":
        return "page", shown_text(body.decode(), apart=True)
    if kind == "text/csv":
        return "CSV", _csv_text(body.decode("utf-8-sig"))
    if kind.endswith("spreadsheetml.sheet"):
        return "XLSX", _xlsx_text(body)
    if kind == "application/pdf":
        return "PDF", _pdf_text(body)
    return kind, ""


def _crawl(client: Client, start: str = "/") -> tuple[dict[str, list[str]], set[str]]:
    """Every denied word on the pages reachable from ``start``, by address, and the kinds of
    thing met (page, CSV, XLSX, PDF)."""
    found: dict[str, list[str]] = {}
    queue, seen_shapes, visited, kinds = deque([start]), {}, 0, set()
    while queue and visited < MOST_PAGES:
        url = queue.popleft()
        response = client.get(url, follow=True)
        visited += 1
        if response.status_code != 200:
            continue
        what, text = _shown(response)
        kinds.add(what)
        exempt = EXEMPT.match(urlsplit(url).path)
        words = [] if exempt else developer_words(text, cites_readings=what != "page")
        if words:
            found[f"{what} {url}"] = words
        if what != "page":
            continue
        for href in HREF.findall(response.content.decode()):
            link, _ = urldefrag(href.replace("&amp;", "&"))
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or not parts.path.startswith("/"):
                continue
            if SKIPPED.match(parts.path):
                continue
            shape = _shape(link)
            if seen_shapes.get(shape, 0) >= PER_SHAPE:
                continue
            seen_shapes[shape] = seen_shapes.get(shape, 0) + 1
            queue.append(link)
    return found, kinds


def _report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{where}\n  " + "\n  ".join(words[:5]) for where, words in found.items())


@pytest.mark.parametrize("username", [name for name, _role, _holder in USERS if name != "admin"])
def test_no_page_or_export_a_person_sees_speaks_in_code(
    username, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the demo's reports are run
        call_command("seed_demo", verbosity=0)
    client = Client()
    sign_in(client, username, DEMO_PASSWORD)
    found, kinds = _crawl(client)
    assert "page" in kinds
    if username == "auditor":  # who downloads every kind of file the portal makes
        assert {"CSV", "XLSX", "PDF"} <= kinds, kinds
    assert not found, f"developer words shown to {username}:\n{_report(found)}"


def test_no_email_speaks_in_code(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the demo's reports are run
        call_command("seed_demo", verbosity=0)
    notifications_dispatch()
    reminders_send()
    digests_prepare()
    outbox_send_due()
    assert mail.outbox, "the demo's events told nobody anything"
    found = {}
    for message in mail.outbox:
        bodies = [message.subject, message.body]
        bodies += [
            shown_text(html, apart=True) for html, kind in getattr(message, "alternatives", [])
        ]
        words = developer_words(" ".join(bodies))
        if words:
            found[f"email {message.subject!r} to {', '.join(message.to)}"] = words
    assert not found, f"developer words in emails:\n{_report(found)}"


@pytest.mark.parametrize(
    ("text", "caught"),
    [
        ("Created by: created_by_id 4", True),
        ("Enter max_round_stake", True),
        ("expected a number, got 'abc' (str)", True),
        ("raised in portal.compliance.services", True),
        ("see views.py", True),
        ("jinzi.settle failed", True),
        ("Jinzi Roulette pays 11 to 1 (§ 617b.8(f)); a half back on zero", False),
        ("Win threshold $10,000.00, as of 1 December 2026", False),
        ("SHA-256 9f86d081884c7d659a2feaa0c55ad015", False),
        ("The table is closed (reading:supersede)", True),
        ("Player alice (user 11)", True),
        ("Account Keystone Riverside Casino #1", True),
        ("Minimum wager $2,000.00 (200000 cents)", True),
        ("multiples of 100 cents from 100 cents to 50,000 cents", True),
        ("§ 812a.9(a)(4): welcome; this is your first session", True),
        ("A adjustment of round 4 was rejected", True),
        ("Outboxs", True),
        ("start is after today", True),
        ("Round #21 and Adjustment #3, Audit event #12", False),
        ("Amounts are in dollars and cents", False),
        ("§ 617b.8(f): straight up pays 10 to 1, below the minimum 11 to 1", False),
        ("An adjustment of $2.50; the first day is after today", False),
        ("Player alice (P11 in reports)", False),
    ],
)
def test_the_deny_list_catches_code_and_spares_plain_words(text, caught):
    assert bool(developer_words(text)) is caught


def test_shown_text_skips_scripts_and_folded_details_but_keeps_labels():
    html = (
        "<p>Shown</p><script>var created_by_id = 1</script>"
        "<details><summary>Verification details</summary>round_hash_value</details>"
        "<details open><summary>Open</summary>in_plain_view</details>"
        '<a aria-label="Read aloud">x</a>'
    )
    text = shown_text(html)
    assert "Shown" in text and "Verification details" in text and "Read aloud" in text
    assert "created_by_id" not in text and "round_hash_value" not in text
    assert "in_plain_view" in text
