from __future__ import annotations

from django.conf import settings
from django.db import models


class Role(models.TextChoices):
    """The people of DOMAIN.md §3; each is a Django Group of the same name."""

    COMPLIANCE = "Compliance", "Compliance officer"
    MANAGER = "Manager", "Manager"
    AUDITOR = "Auditor", "Auditor"
    PLAYER = "Player", "Player"


class CertificateHolder(models.Model):
    """A licensed operator (certificate holder) that offers Jinzi Roulette."""

    name = models.CharField(max_length=200, unique=True)
    licence_number = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

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

    def __str__(self) -> str:
        return f"profile of {self.user}"
