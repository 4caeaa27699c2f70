"""Reading the game availability log (§ 811a.7(f)), shared by the portal page and the API;
its columns and filters are ``portal.compliance.filtersets``'s."""

from __future__ import annotations

from collections.abc import Iterator

from portal.compliance.filtersets import AVAILABILITY_COLUMNS
from portal.compliance.models import AvailabilityChange
from portal.software.installations import with_software_version


def availability_log():
    """The log, each row with the version of the game software it names (§ 811a.7(f)(2))."""
    changes = AvailabilityChange.objects.select_related("holder", "offering", "audit_event")
    return with_software_version(changes)


def csv_rows(changes, *, words: bool = False) -> Iterator[str]:
    """The CSV of ``changes``, oldest first whatever the list's sort."""
    rows = changes.order_by("at", "pk").iterator(chunk_size=2000)
    return AVAILABILITY_COLUMNS.csv_lines(rows, words=words)  # in words for a page
