"""Sign-in answers the same whether the name typed is a real account or not (§ 811a.7):
wrong passwords count towards the lock-out for an unknown name as for a real one, the
lock-out answers the same status with the same page, and the password hasher runs for
both, so neither the answer nor its time tells an existing account from a missing one."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.hashers import get_hasher

from tests.portal.factories import PASSWORD

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
UNKNOWN = "nobody-at-all"
# The per-request CSRF token, in the form and in the page's htmx headers.
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


def _page(response, typed: str) -> str:
    """The answer's page without what differs by request: the CSRF token, and the name the
    form echoes back (the user typed it; it says nothing they did not know)."""
    page = CSRF.sub(r"\1(token)", response.content.decode())
    return page.replace(f'value="{typed}"', 'value="(typed)"')


def _attempts(client, username: str, count: int) -> list:
    return [
        client.post(LOGIN, {"username": username, "password": "not-the-password"})
        for _ in range(count)
    ]


@pytest.fixture
def hasher_runs(monkeypatch):
    """How many times the password hasher hashed a password (checking one hashes it)."""
    hasher = type(get_hasher())
    calls = []
    original = hasher.encode

    def counted(self, password, salt, *args, **kwargs):
        calls.append(password)
        return original(self, password, salt, *args, **kwargs)

    monkeypatch.setattr(hasher, "encode", counted)
    return calls


def test_811a7_six_wrong_passwords_answer_alike_for_a_real_and_an_unknown_name(
    client, officer, settings
):
    count = settings.AXES_FAILURE_LIMIT + 1
    real = _attempts(client, officer.username, count)
    unknown = _attempts(client, UNKNOWN, count)

    assert [r.status_code for r in real] == [r.status_code for r in unknown]
    assert real[-1].status_code == 429  # the attempt past the limit is refused, for both
    assert real[0].status_code == 200
    for mine, theirs in zip(real, unknown, strict=True):
        assert _page(mine, officer.username) == _page(theirs, UNKNOWN)
    assert "Sign-in locked" in real[-1].content.decode()


def test_811a7_an_unknown_name_is_locked_out_and_stays_so_with_any_password(client, settings):
    _attempts(client, UNKNOWN, settings.AXES_FAILURE_LIMIT)

    answer = client.post(LOGIN, {"username": UNKNOWN, "password": PASSWORD})

    assert answer.status_code == 429
    assert "Sign-in locked" in answer.content.decode()


def test_811a7_the_password_hasher_runs_for_an_unknown_name_as_for_a_real_one(
    client, officer, settings, hasher_runs
):
    below_the_limit = settings.AXES_FAILURE_LIMIT - 1

    _attempts(client, officer.username, below_the_limit)
    for_real = len(hasher_runs)
    _attempts(client, UNKNOWN, below_the_limit)
    for_unknown = len(hasher_runs) - for_real

    assert for_real == below_the_limit  # one hash per attempt: the stored one is checked
    assert for_unknown == for_real  # and a stand-in is hashed for a name with no account


def test_811a7_a_locked_out_attempt_runs_the_same_work_for_both(
    client, officer, settings, hasher_runs
):
    _attempts(client, officer.username, settings.AXES_FAILURE_LIMIT)
    _attempts(client, UNKNOWN, settings.AXES_FAILURE_LIMIT)
    before = len(hasher_runs)

    _attempts(client, officer.username, 1)
    for_real = len(hasher_runs) - before
    _attempts(client, UNKNOWN, 1)
    for_unknown = len(hasher_runs) - before - for_real

    assert for_real == for_unknown
