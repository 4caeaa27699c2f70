"""Money as people read it. Amounts are integer minor units (cents) everywhere else."""

from __future__ import annotations


def dollars(cents) -> str:
    """Minor units as dollars, exactly: 12345 → "$123.45" (never through a float)."""
    if cents is None or cents == "":
        return ""
    cents = int(cents)
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{part:02d}"
