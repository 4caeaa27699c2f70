"""One canonical hashing of records, for the audit chain and the chain of game rounds."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

GENESIS_HASH = "0" * 64


def utc_text(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="microseconds")


def canonical_digest(payload: dict[str, Any]) -> str:
    """SHA-256 of the payload as canonical JSON (sorted keys, no spaces, UTF-8)."""
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()
