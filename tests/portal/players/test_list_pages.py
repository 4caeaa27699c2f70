"""The pages of the Board's list through HTTP: officers import and confirm, auditors read,
nobody else sees it (§ 815a.4, § 815a.8)."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from portal.game.models import Wallet
from portal.players.models import ListEntry, ListImport, ListKind, ListReview
from tests.portal.players.list_helpers import changes, full_edition, imported, line

pytestmark = pytest.mark.django_db

OTHER = line("Demo", "other_player", "1980-01-01")


def upload(client, data: bytes, kind: str = "full_edition"):
    return client.post(
        "/players/list/",
        {"action": "import", "kind": kind, "file": SimpleUploadedFile("list.csv", data)},
    )


def test_815a4_an_officer_imports_a_file_from_the_page(client, officer, other_player):
    client.force_login(officer)
    response = upload(client, full_edition(OTHER))
    assert response.status_code == 302
    page = client.get("/players/list/").content.decode()
    assert "1 players excluded" in page
    assert Wallet.objects.get(player=other_player).excluded_since is not None


def test_815a4_a_malformed_file_is_refused_on_the_page_naming_the_line(client, officer):
    client.force_login(officer)
    response = upload(client, full_edition(line("Bad", "Date", "1980-02-30")))
    assert response.status_code == 400
    assert "line 2" in response.content.decode()
    assert not ListImport.objects.exists()


def test_815a4_a_second_officer_confirms_a_removal_from_the_page(
    client, officer, officer2, other_player
):
    imported(officer, full_edition(OTHER))
    imported(officer, changes(("remove", OTHER)), kind=ListKind.CHANGES)
    entry = ListEntry.objects.get()
    client.force_login(officer)
    own = client.post("/players/list/", {"action": "confirm", "entry": str(entry.pk)})
    assert own.status_code == 403
    client.force_login(officer2)
    assert "Confirm the removal" in client.get("/players/list/").content.decode()
    done = client.post("/players/list/", {"action": "confirm", "entry": str(entry.pk)})
    assert done.status_code == 302
    entry.refresh_from_db()
    assert entry.removed_at is not None


def test_815a8_nobody_but_officers_and_auditors_sees_the_list(
    client, manager_a, payments_a, player, auditor
):
    for user in (manager_a, payments_a, player):
        client.force_login(user)
        assert client.get("/players/list/").status_code == 403
        assert client.get("/players/list/reviews/").status_code == 403
    client.force_login(auditor)
    page = client.get("/players/list/").content.decode()
    assert "Import a file" not in page
    refused = upload(client, full_edition(OTHER))
    assert refused.status_code == 403
    assert not ListImport.objects.exists()


def test_815a4_an_officer_decides_a_near_match_from_the_reviews_page(client, officer, other_player):
    imported(officer, full_edition(line("Demo", "Another", "1980-01-01")))
    review = ListReview.objects.get()
    client.force_login(officer)
    assert f"Review #{review.pk}" in client.get("/players/list/reviews/").content.decode()
    refused = client.post(
        "/players/list/reviews/", {"review": str(review.pk), "outcome": "not_the_person"}
    )
    assert refused.status_code == 400
    done = client.post(
        "/players/list/reviews/",
        {"review": str(review.pk), "outcome": "not_the_person", "note": "Other person"},
    )
    assert done.status_code == 302
    review.refresh_from_db()
    assert review.outcome == "not_the_person"
