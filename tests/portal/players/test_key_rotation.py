"""Rotating the player file's keys (§ 812a.2(d)): a new sealing key first, the command, then
the old key dropped; and a new index key, its digests recomputed by the same command."""

from __future__ import annotations

import base64
import datetime

import pytest
from cryptography.fernet import InvalidToken
from django.core.management import call_command

from portal.players import sealing
from portal.players.models import PlayerFile
from portal.players.services import exclusion_list
from portal.players.services.registration import made_up_identity
from tests.portal.players.list_helpers import full_edition, imported, line

pytestmark = pytest.mark.django_db

NEW_KEY = base64.urlsafe_b64encode(b"the-newest-player-file-key-2027!").decode()
NEW_INDEX = "the-newest-index-key-of-the-player-file-2027"


def test_812a2_d_a_rotation_seals_everything_again_and_the_old_key_can_go(
    settings, officer, other_player, capsys
):
    imported(officer, full_edition(line("Rivera", "Ana", "1988-08-08")))
    old_key = settings.PLAYER_FILE_KEYS[0]
    before = PlayerFile.objects.get(player=other_player).sealed

    settings.PLAYER_FILE_KEYS = [NEW_KEY, old_key]
    settings.PLAYER_INDEX_KEY = NEW_INDEX
    call_command("rotate_player_file_keys")
    assert "1 list entries" in capsys.readouterr().out

    settings.PLAYER_FILE_KEYS = [NEW_KEY]  # the old key dropped
    player_file = PlayerFile.objects.get(player=other_player)
    assert player_file.sealed != before
    assert sealing.unseal(player_file.sealed)["given_names"] == "other_player"
    with pytest.raises(InvalidToken):
        sealing.unseal(before)  # what was sealed under the old key no longer opens
    # The digests follow the new index key: the same person is still found.
    assert player_file.name_key == made_up_identity("other_player").name_key
    ana = made_up_identity("Ana", surname="Rivera", date_of_birth=datetime.date(1988, 8, 8))
    assert exclusion_list.listed(ana)
