"""Registration (§ 812a.2); its verification is ``verification``'s (§ 812a.2(c)).

A person registers with their legal name, date of birth, residential address, email and
telephone (the SSN's last four digits if they choose, § 812a.2(b)(3)) and the holder they
open their first account with (§ 812a.4). The identity is sealed in the player file; the
audit trail says which fields were given, never their values. Until the holder's payments
staff (or a compliance officer) verify it, the player may neither deposit nor play
(``portal.game.money.standing``); nobody verifies their own.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from portal.access.roles import Role
from portal.accounts.services import staff_user_create
from portal.audit.services import audit_record
from portal.compliance.models import CertificateHolder
from portal.core.errors import NotPermitted, ValidationFailed
from portal.core.padates import pa_today
from portal.core.validation import MAX_ID
from portal.game.models import Wallet
from portal.game.money.selectors import wallet_for
from portal.game.money.services.accounts import ensure_account
from portal.players import messages as msg
from portal.players import sealing
from portal.players.models import PlayerFile, VerificationMethod
from portal.players.services import exclusion_list

MINIMUM_AGE = 21  # reading:minimum-age
MAX_NAME = 100
MAX_ADDRESS = 300
IDENTITY_FIELDS = (
    "given_names",
    "surname",
    "date_of_birth",
    "address",
    "telephone",
    "ssn_last4",
)
_TELEPHONE = re.compile(r"^\+?[0-9 ().-]{7,25}$")


@dataclass(frozen=True)
class Identity:
    """What a player file holds, checked."""

    given_names: str
    surname: str
    date_of_birth: datetime.date
    address: str
    telephone: str
    ssn_last4: str = ""

    def as_sealed(self, *, document_reference: str = "") -> dict:
        return {
            "given_names": self.given_names,
            "surname": self.surname,
            "date_of_birth": self.date_of_birth.isoformat(),
            "address": self.address,
            "telephone": self.telephone,
            "ssn_last4": self.ssn_last4,
            "document_reference": document_reference,
        }

    @property
    def name_key(self) -> str:
        return sealing.person_key(
            sealing.full_name(self.given_names, self.surname), self.date_of_birth
        )

    @property
    def surname_key(self) -> str:
        return sealing.person_key(self.surname, self.date_of_birth)


def twenty_first_birthday(born: datetime.date) -> datetime.date:
    try:
        return born.replace(year=born.year + MINIMUM_AGE)
    except ValueError:  # born on 29 February: of age on 1 March
        return datetime.date(born.year + MINIMUM_AGE, 3, 1)


def _text(value, *, field: str, message: str, limit: int) -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text or len(text) > limit:
        raise ValidationFailed.on(field, message)
    return text


def _born(value, *, today: datetime.date) -> datetime.date:
    if isinstance(value, str):
        try:
            value = datetime.date.fromisoformat(value.strip())
        except ValueError:
            raise ValidationFailed.on("date_of_birth", msg.BORN_NEEDED) from None
    if not isinstance(value, datetime.date) or isinstance(value, datetime.datetime):
        raise ValidationFailed.on("date_of_birth", msg.BORN_NEEDED)
    if value > today:
        raise ValidationFailed.on("date_of_birth", msg.BORN_IN_FUTURE)
    of_age = twenty_first_birthday(value)
    if today < of_age:
        raise ValidationFailed.on(
            "date_of_birth", msg.UNDER_21.format(birthday=f"{of_age:%d %B %Y}")
        )
    return value


def checked_identity(
    *, given_names, surname, date_of_birth, address, telephone, ssn_last4="", today=None
) -> Identity:
    """The identity as given, checked field by field; every problem named on its field."""
    today = today or pa_today()
    problems: dict[str, list[str]] = {}
    values: dict = {}
    checks = {
        "given_names": lambda: _text(
            given_names,
            field="given_names",
            message=msg.NAME_NEEDED.format(what="given names", limit=MAX_NAME),
            limit=MAX_NAME,
        ),
        "surname": lambda: _text(
            surname,
            field="surname",
            message=msg.NAME_NEEDED.format(what="surname", limit=MAX_NAME),
            limit=MAX_NAME,
        ),
        "date_of_birth": lambda: _born(date_of_birth, today=today),
        "address": lambda: _text(
            address,
            field="address",
            message=msg.ADDRESS_NEEDED.format(limit=MAX_ADDRESS),
            limit=MAX_ADDRESS,
        ),
        "telephone": lambda: _telephone(telephone),
        "ssn_last4": lambda: _ssn(ssn_last4),
    }
    for field, check in checks.items():
        try:
            values[field] = check()
        except ValidationFailed as refused:
            problems.update(refused.field_errors)
    if problems:
        raise ValidationFailed(next(iter(problems.values()))[0], field_errors=problems)
    return Identity(**values)


def _telephone(value) -> str:
    text = value.strip() if isinstance(value, str) else ""
    digits = re.sub(r"\D", "", text)
    if not _TELEPHONE.match(text) or not 7 <= len(digits) <= 15:
        raise ValidationFailed.on("telephone", msg.TELEPHONE_NEEDED)
    return text


def _ssn(value) -> str:
    text = "" if value is None else value.strip() if isinstance(value, str) else None
    if text is None or (text and not re.fullmatch(r"[0-9]{4}", text)):
        raise ValidationFailed.on("ssn_last4", msg.SSN_FOUR_DIGITS)
    return text


def _email(value) -> str:
    email = value.strip() if isinstance(value, str) else ""
    try:
        validate_email(email)
    except ValidationError:
        raise ValidationFailed.on("email", msg.EMAIL_NEEDED) from None
    if get_user_model().objects.filter(email__iexact=email).exists():
        raise ValidationFailed.on("email", msg.EMAIL_TAKEN)
    return email


def _holder(holder_id) -> CertificateHolder:
    if type(holder_id) is not int or not 0 < holder_id <= MAX_ID:
        raise ValidationFailed.on("holder", msg.HOLDER_NEEDED)
    holder = CertificateHolder.objects.filter(pk=holder_id).first()
    if holder is None:
        raise ValidationFailed.on("holder", msg.HOLDER_NEEDED)
    return holder


def _username_and_password(username, password) -> tuple[str, str]:
    user_model = get_user_model()
    name = username.strip() if isinstance(username, str) else ""
    field = user_model._meta.get_field(user_model.USERNAME_FIELD)
    try:
        field.clean(name, None)
    except ValidationError as exc:
        raise ValidationFailed.on("username", " ".join(exc.messages)) from None
    if user_model.objects.filter(username__iexact=name).exists():
        raise ValidationFailed.on("username", "this username is taken; choose another")
    if not isinstance(password, str):
        raise ValidationFailed.on("password", "choose a password")
    try:
        validate_password(password, user_model(username=name))
    except ValidationError as exc:
        raise ValidationFailed.on("password", " ".join(exc.messages)) from None
    return name, password


def player_register(
    *,
    username,
    password,
    email,
    holder_id,
    given_names,
    surname,
    date_of_birth,
    address,
    telephone,
    ssn_last4="",
):
    """Register a player and open their account with the chosen holder; the identity is
    not yet verified. A person the holders' copy of the Board's list names is refused in
    neutral words (§ 815a.8), and the refusal is kept for compliance officers."""
    username, password = _username_and_password(username, password)
    email = _email(email)
    holder = _holder(holder_id)
    identity = checked_identity(
        given_names=given_names,
        surname=surname,
        date_of_birth=date_of_birth,
        address=address,
        telephone=telephone,
        ssn_last4=ssn_last4,
    )
    if PlayerFile.objects.filter(name_key=identity.name_key).exists():
        raise ValidationFailed.on("surname", msg.ALREADY_REGISTERED)
    if exclusion_list.listed(identity):
        with transaction.atomic():  # kept, though the registration is refused
            audit_record(
                actor=None,
                action="player.registration_refused",
                object_type="player",
                object_id="",
                after={"cause": "listed", "holder_id": holder.pk},
            )
        raise NotPermitted(msg.CANNOT_REGISTER)
    return _register(username, password, email, holder, identity)


@transaction.atomic
def _register(username, password, email, holder, identity: Identity) -> PlayerFile:
    user = staff_user_create(
        actor=None, username=username, password=password, role=Role.PLAYER, email=email
    )
    try:
        with transaction.atomic():
            player_file = PlayerFile.objects.create(
                player=user,
                sealed=sealing.seal(identity.as_sealed()),
                name_key=identity.name_key,
                surname_key=identity.surname_key,
                registered_at=timezone.now(),
            )
    except IntegrityError:  # the same person registering twice at once
        raise ValidationFailed.on("surname", msg.ALREADY_REGISTERED) from None
    audit_record(
        actor=user,
        action="player.register",
        object_type="player",
        object_id=user.pk,
        after={
            "fields_given": [f for f in IDENTITY_FIELDS if getattr(identity, f)] + ["email"],
            "holder_id": holder.pk,
            "verified": False,
        },
    )
    ensure_account(user, holder)
    return player_file


def made_up_identity(name: str, **overrides) -> Identity:
    """A demonstration player's identity: their username as given names, one surname, a
    date of birth of age, an address and a telephone of the demo's own."""
    fields = {
        "given_names": name,
        "surname": "Demo",
        "date_of_birth": datetime.date(1980, 1, 1),
        "address": "1 Market Street, Philadelphia, PA 19107",
        "telephone": "215 555 0100",
    }
    fields.update(overrides)
    return Identity(**fields)


@transaction.atomic
def player_set_up_verified(*, player, identity: Identity | None = None) -> PlayerFile:
    """A made-up player's file, verified with nobody verifying: for the demo's seed and the
    tests' players only (``VerificationMethod.SETUP``), never offered to a person."""
    identity = identity or made_up_identity(player.get_username())
    now = timezone.now()
    player_file = PlayerFile.objects.create(
        player=player,
        sealed=sealing.seal(identity.as_sealed()),
        name_key=identity.name_key,
        surname_key=identity.surname_key,
        registered_at=now,
        verified_at=now,
        verification_method=VerificationMethod.SETUP,
    )
    wallet_for(player)
    Wallet.objects.filter(player=player).update(identity_verified_at=now)
    audit_record(
        actor=None,
        action="player.register",
        object_type="player",
        object_id=player.pk,
        after={
            "fields_given": [f for f in IDENTITY_FIELDS if getattr(identity, f)],
            "verified": True,
            "method": VerificationMethod.SETUP.value,
        },
    )
    return player_file
