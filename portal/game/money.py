"""Money as people read it. Amounts are integer minor units (cents) everywhere else; the
reading and writing of dollars is shared by every app, in ``portal.core.money``."""

from __future__ import annotations

from portal.core.money import dollars

__all__ = ["dollars"]
