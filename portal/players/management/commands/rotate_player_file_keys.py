"""Seal every player file and the Board's list again under the first of
JINZI_PLAYER_FILE_KEYS, and recompute the digests that find a person under the current
JINZI_PLAYER_INDEX_KEY: the middle step of a key rotation (docs/accounts.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from portal.players.services.keys import player_keys_rotate


class Command(BaseCommand):
    help = (
        "Seal the player files and the Board's list again under the newest key and "
        "recompute their digests (a key rotation's middle step)."
    )

    def handle(self, *args, **options) -> None:
        done = player_keys_rotate()
        self.stdout.write(
            f"Sealed again: {done['player_files']} player files, {done['list_entries']} list "
            f"entries, {done['list_imports']} list files."
        )
