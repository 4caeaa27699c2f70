"""One canonical hashing of records, for the audit chain and the chain of game rounds."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64


def hashed_instant_text(value: datetime) -> str:
    """An instant as every hashed record writes it: UTC, ISO 8601, always six digits of
    microseconds, ``+00:00`` (a naive one is read as the server's local time).

    Frozen: every stored hash of the audit trail and of the game rounds, and every archive
    file, was made from this text; writing one instant differently breaks them all."""
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def canonical_digest(payload: dict[str, Any]) -> str:
    """SHA-256 of the payload as canonical JSON (sorted keys, no spaces, UTF-8)."""
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
