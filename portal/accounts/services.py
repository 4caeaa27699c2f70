"""Certificate holders and staff accounts."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction

from portal.access.policy import Action, require
from portal.access.roles import Role, forget
from portal.accounts.models import CertificateHolder, Profile
from portal.audit.services import audit_record
from portal.audit.snapshot import snapshot
from portal.core.errors import ValidationFailed
from portal.core.padates import GAMING_DAY_HOURS
from portal.core.validation import clean_text

HOLDER_TAKEN = "a certificate holder with this name or licence number already exists"
MANAGER_NEEDS_HOLDER = "managers and payments staff act for a certificate holder: choose one"
# The roles that act for one certificate holder.
HOLDER_ROLES = (Role.MANAGER, Role.PAYMENTS, Role.SUPERVISOR)
GAMING_DAY_HOUR = (
    "the gaming day starts at a whole hour from 0 to 23, Pennsylvania time (reading:gaming-day)"
)


def _start_hour(hour) -> int:
    if type(hour) is not int or hour not in GAMING_DAY_HOURS:
        raise ValidationFailed.on("gaming_day_start_hour", GAMING_DAY_HOUR)
    return hour


@transaction.atomic
def holder_create(
    *, actor, name: str, licence_number: str, gaming_day_start_hour: int = 0
) -> CertificateHolder:
    """Register a licensed operator; ``actor`` None only for system setup (demo data)."""
    if actor is not None:
        require(actor, Action.MANAGE_HOLDERS)
    name = clean_text("name", name, what="the holder's name", max_length=200)
    licence_number = clean_text(
        "licence_number", licence_number, what="the licence number", max_length=64
    )
    start_hour = _start_hour(gaming_day_start_hour)
    try:
        with transaction.atomic():
            holder = CertificateHolder.objects.create(
                name=name, licence_number=licence_number, gaming_day_start_hour=start_hour
            )
    except IntegrityError:
        raise ValidationFailed(HOLDER_TAKEN) from None
    audit_record(
        actor=actor,
        action="holder.create",
        object_type="holder",
        object_id=holder.pk,
        after=snapshot(holder),
    )
    return holder


@transaction.atomic
def holder_set_gaming_day(
    *, actor, holder: CertificateHolder, start_hour: int
) -> CertificateHolder:
    """Set the hour (Pennsylvania time) the holder's gaming day starts (reading:gaming-day)."""
    require(actor, Action.MANAGE_HOLDERS)
    holder = CertificateHolder.objects.select_for_update().get(pk=holder.pk)
    start_hour = _start_hour(start_hour)
    if holder.gaming_day_start_hour == start_hour:
        return holder
    before = snapshot(holder)
    holder.gaming_day_start_hour = start_hour
    holder.save(update_fields=["gaming_day_start_hour"])
    audit_record(
        actor=actor,
        action="holder.update",
        object_type="holder",
        object_id=holder.pk,
        before=before,
        after=snapshot(holder),
    )
    return holder


def ensure_role_groups() -> None:
    for role in Role:
        Group.objects.get_or_create(name=role.value)


@transaction.atomic
def staff_user_create(
    *,
    actor,
    username: str,
    password: str,
    role: Role,
    holder: CertificateHolder | None = None,
    email: str = "",
):
    """Create a user in one role (``actor`` None only for system setup)."""
    if actor is not None:
        require(actor, Action.MANAGE_HOLDERS)
    if role in HOLDER_ROLES and holder is None:
        raise ValidationFailed.on("holder", MANAGER_NEEDS_HOLDER)
    ensure_role_groups()
    user = get_user_model().objects.create_user(username=username, password=password, email=email)
    user.groups.add(Group.objects.get(name=role.value))
    Profile.objects.create(user=user, holder=holder if role in HOLDER_ROLES else None)
    forget(user)
    audit_record(
        actor=actor,
        action="user.create",
        object_type="user",
        object_id=user.pk,
        after={
            "username": user.username,
            "role": role.value,
            "holder_id": getattr(holder, "pk", None),
        },
    )
    return user


def staff_picture(user) -> dict:
    """What the audit trail records of an account: its roles, holder and powers."""
    profile = Profile.objects.filter(user=user).first()
    return {
        "username": user.get_username(),
        "is_active": user.is_active,
        "is_staff": user.is_staff,
        "is_superuser": user.is_superuser,
        "groups": sorted(user.groups.values_list("name", flat=True)),
        "holder_id": profile.holder_id if profile else None,
    }


@transaction.atomic
def staff_user_changed(*, actor, user, before: dict | None) -> None:
    """Record an account change made in the admin (roles, holder, powers, activation)."""
    forget(user)
    after = staff_picture(user)
    if before == after:
        return
    audit_record(
        actor=actor,
        action="user.create" if before is None else "user.update",
        object_type="user",
        object_id=user.pk,
        before=before,
        after=after,
    )
