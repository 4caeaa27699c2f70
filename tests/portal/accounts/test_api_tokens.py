"""API tokens: issued to their user, stored as a hash, revoked at once, audited."""

from __future__ import annotations

import datetime
import hashlib

import pytest
from django.utils import timezone

from portal.accounts.models import ApiToken
from portal.accounts.tokens import (
    ALREADY_REVOKED,
    DAYS_RANGE,
    MAX_ACTIVE,
    NO_SUCH_TOKEN,
    TOKEN_CANNOT_ISSUE,
    TOO_MANY,
    api_token_issue,
    api_token_revoke,
)
from portal.audit.models import AuditEvent
from portal.core.errors import Conflict, NotFound, NotPermitted, ValidationFailed

pytestmark = pytest.mark.django_db


def test_a_token_is_stored_only_as_its_hash(player):
    token, secret = api_token_issue(user=player, name="Game client")

    assert secret.startswith("jzt_") and len(secret) == 47
    assert token.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert token.prefix == secret[:12]
    stored = ApiToken.objects.values().get(pk=token.pk)
    assert secret not in {str(value) for value in stored.values()}


def test_each_token_is_different(player):
    secrets = {api_token_issue(user=player, name=f"client {n}")[1] for n in range(5)}

    assert len(secrets) == 5


def test_a_token_lives_ninety_days_unless_told(player):
    token, _ = api_token_issue(user=player, name="Game client")
    short, _ = api_token_issue(user=player, name="Test run", days=1)

    assert token.expires_at - token.created_at == pytest.approx(
        datetime.timedelta(days=90), abs=datetime.timedelta(seconds=1)
    )
    assert short.expires_at - short.created_at < datetime.timedelta(days=1, seconds=1)


@pytest.mark.parametrize("days", [0, -1, 366, 10**9, 1.5, "30", True, None])
def test_a_lifetime_outside_one_to_365_days_is_refused(player, days):
    with pytest.raises(ValidationFailed) as refused:
        api_token_issue(user=player, name="Game client", days=days)

    assert refused.value.message == DAYS_RANGE
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("name", ["", "   ", None, 7, "x" * 101])
def test_a_token_needs_a_short_name(player, name):
    with pytest.raises(ValidationFailed):
        api_token_issue(user=player, name=name)

    assert not ApiToken.objects.exists()


def test_a_user_has_at_most_twenty_active_tokens(player):
    for number in range(MAX_ACTIVE):
        api_token_issue(user=player, name=f"client {number}")

    with pytest.raises(ValidationFailed) as refused:
        api_token_issue(user=player, name="one too many")

    assert refused.value.message == TOO_MANY
    assert ApiToken.objects.count() == MAX_ACTIVE
    api_token_revoke(actor=player, token_id=ApiToken.objects.first().pk)
    api_token_issue(user=player, name="after a revocation")  # room again


def test_issuing_and_revoking_are_audited_without_the_secret(player):
    token, secret = api_token_issue(user=player, name="Game client")
    api_token_revoke(actor=player, token_id=token.pk)

    events = list(AuditEvent.objects.filter(object_type="api_token").order_by("sequence"))
    assert [event.action for event in events] == ["api_token.issue", "api_token.revoke"]
    assert all(event.actor_id == player.pk for event in events)
    assert events[1].after["revoked_at"] is not None
    assert all(secret not in str(event.after) for event in events)
    assert all(token.digest not in str(event.after) for event in events)


def test_only_the_owner_revokes_a_token(player, auditor):
    token, _ = api_token_issue(user=player, name="Game client")

    with pytest.raises(NotFound) as refused:
        api_token_revoke(actor=auditor, token_id=token.pk)

    assert refused.value.message == NO_SUCH_TOKEN.format(id=token.pk)
    token.refresh_from_db()
    assert token.revoked_at is None


def test_a_superuser_revokes_anyones_token(player, superuser):
    token, _ = api_token_issue(user=player, name="Game client")

    api_token_revoke(actor=superuser, token_id=token.pk)

    token.refresh_from_db()
    assert token.revoked_at is not None


def test_a_token_is_revoked_once(player):
    token, _ = api_token_issue(user=player, name="Game client")
    revoked = api_token_revoke(actor=player, token_id=token.pk)

    with pytest.raises(Conflict) as refused:
        api_token_revoke(actor=player, token_id=token.pk)

    assert refused.value.message == ALREADY_REVOKED.format(at=revoked.revoked_at.isoformat())
    assert AuditEvent.objects.filter(action="api_token.revoke").count() == 1


def test_is_active_until_expiry_or_revocation(player):
    token, _ = api_token_issue(user=player, name="Game client", days=1)
    now = timezone.now()

    assert token.is_active(now)
    assert not token.is_active(now + datetime.timedelta(days=2))
    token.revoked_at = now
    assert not token.is_active(now)


def test_a_token_sign_in_cannot_issue_tokens(player):
    with pytest.raises(NotPermitted) as refused:
        api_token_issue(user=player, name="minted", signed_in_with_token=True)

    assert refused.value.message == TOKEN_CANNOT_ISSUE
    assert not ApiToken.objects.exists()
