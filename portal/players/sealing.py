"""The player file sealed at rest (§ 812a.2(d)), and the keyed digests that find a person.

The identity is a JSON document encrypted with Fernet (AES-128-CBC with an HMAC-SHA256,
from the ``cryptography`` library) under the first of ``PLAYER_FILE_KEYS``; every key of the
list can open it, so a key is rotated by putting a new one first, running
``manage.py rotate_player_file_keys`` (which seals every file again under it) and then
dropping the old one (docs/accounts.md). The digests are HMAC-SHA256 under
``PLAYER_INDEX_KEY`` of a normalised name and a date of birth: equal for the same person,
meaningless without the key.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import hmac
import json

from cryptography.fernet import Fernet, MultiFernet
from django.conf import settings

from portal.players.list_file import normalised_name


@functools.cache
def _fernet(keys: tuple[str, ...]) -> MultiFernet:
    return MultiFernet([Fernet(key.encode()) for key in keys])


def _keys() -> MultiFernet:
    return _fernet(tuple(settings.PLAYER_FILE_KEYS))


def seal(identity: dict) -> str:
    return _keys().encrypt(json.dumps(identity, sort_keys=True).encode()).decode()


def unseal(sealed: str) -> dict:
    return json.loads(_keys().decrypt(sealed.encode()))


def reseal(sealed: str) -> str:
    """The same document sealed under the first key (a rotation's step)."""
    return _keys().rotate(sealed.encode()).decode()


def person_key(name: str, date_of_birth: datetime.date) -> str:
    """The keyed digest of a (normalised) name with a date of birth."""
    message = f"{normalised_name(name)}|{date_of_birth.isoformat()}".encode()
    return hmac.new(settings.PLAYER_INDEX_KEY.encode(), message, hashlib.sha256).hexdigest()


def full_name(given_names: str, surname: str) -> str:
    return f"{given_names} {surname}"
