from __future__ import annotations

from django.conf import settings
from django.db import models


class CertificateHolder(models.Model):
    """A licensed operator (certificate holder) that offers Jinzi Roulette."""

    name = models.CharField(max_length=200, unique=True)
    licence_number = models.CharField(max_length=64, unique=True)
    gaming_day_start_hour = models.PositiveSmallIntegerField(
        default=0,
        help_text="The hour (0–23, Pennsylvania time) the holder's gaming day starts "
        "(reading:gaming-day; 0 = midnight).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(gaming_day_start_hour__lte=23),
                name="holder_gaming_day_starts_within_the_day",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.licence_number})"


class Profile(models.Model):
    """What a user is beyond Django's auth: the holder a manager works for."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    holder = models.ForeignKey(
        CertificateHolder,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="staff",
        help_text="Managers act for exactly one certificate holder.",
    )
    must_change_password = models.BooleanField(
        default=False,
        help_text="Set when someone else chose this user's password (an administrator): the "
        "user must choose their own before doing anything else.",
    )
    # Who set this user's password (user ids), and when the first of them did, until the
    # user proves to be its owner with a second factor enrolled before then. Meanwhile the
    # account and those administrators are one person to four-eyes: whoever set a password
    # could be the one using it.
    password_setters = models.JSONField(default=list, blank=True, editable=False)
    password_set_at = models.DateTimeField(null=True, blank=True, editable=False)

    def __str__(self) -> str:
        return f"profile of {self.user}"


class ApiToken(models.Model):
    """A bearer token for an API client (a casino's game client, a script).

    Only the SHA-256 of the secret is stored: the secret is shown once, when issued,
    and a copy of the database cannot be used to sign in. A token acts as its user,
    with that user's roles, until it expires or is revoked.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="What the token is for.")
    prefix = models.CharField(max_length=16, help_text="The secret's first characters.")
    digest = models.CharField(max_length=64, unique=True, help_text="SHA-256 of the secret.")
    # The user's session hash (an HMAC of their password hash) when the token was issued:
    # a password change ends the user's tokens as it ends their sessions.
    auth_hash = models.CharField(max_length=128, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(expires_at__gt=models.F("created_at")),
                name="api_token_expires_after_issue",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def is_active(self, now) -> bool:
        return self.revoked_at is None and now < self.expires_at
