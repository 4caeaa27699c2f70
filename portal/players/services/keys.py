"""A rotation of the player file's keys (§ 812a.2(d)): everything sealed is sealed again
under the newest key, and every digest recomputed under the current index key, in one
transaction, so the portal never holds a mix it cannot read."""

from __future__ import annotations

import datetime

from django.db import transaction

from portal.audit.services import audit_record
from portal.players import sealing
from portal.players.list_file import normalised_name
from portal.players.models import ListEntry, ListEntryName, ListImport, PlayerFile


def _names(person: dict) -> list[str]:
    names = [sealing.full_name(person["given_names"], person["surname"]), *person["aliases"]]
    born = datetime.date.fromisoformat(person["date_of_birth"])
    keys = [sealing.person_key(name, born) for name in names if normalised_name(name)]
    return list(dict.fromkeys(keys))


@transaction.atomic
def player_keys_rotate() -> dict[str, int]:
    counts = {"player_files": 0, "list_entries": 0, "list_imports": 0}
    for player_file in PlayerFile.objects.select_for_update().order_by("pk"):
        identity = sealing.unseal(player_file.sealed)
        born = datetime.date.fromisoformat(identity["date_of_birth"])
        player_file.sealed = sealing.seal(identity)
        player_file.name_key = sealing.person_key(
            sealing.full_name(identity["given_names"], identity["surname"]), born
        )
        player_file.surname_key = sealing.person_key(identity["surname"], born)
        player_file.save(update_fields=["sealed", "name_key", "surname_key", "updated_at"])
        counts["player_files"] += 1
    for entry in ListEntry.objects.select_for_update().order_by("pk"):
        person = sealing.unseal(entry.sealed)
        born = datetime.date.fromisoformat(person["date_of_birth"])
        entry.sealed = sealing.seal(person)
        names = _names(person)
        entry.person_key = names[0]
        entry.surname_key = sealing.person_key(person["surname"], born)
        entry.save(update_fields=["sealed", "person_key", "surname_key"])
        ListEntryName.objects.filter(entry=entry).delete()
        ListEntryName.objects.bulk_create(ListEntryName(entry=entry, key=key) for key in names)
        counts["list_entries"] += 1
    for record in ListImport.objects.select_for_update().order_by("pk"):
        record.sealed_file = sealing.reseal(record.sealed_file)
        record.save(update_fields=["sealed_file"])
        counts["list_imports"] += 1
    audit_record(
        actor=None,
        action="player.keys_rotate",
        object_type="player",
        object_id="",
        after=counts,
    )
    return counts
