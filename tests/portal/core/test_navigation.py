"""What the header offers each person."""

import pytest

pytestmark = pytest.mark.django_db


def test_a_superuser_has_a_link_to_the_admin_and_an_officer_has_none(client, superuser, officer):
    client.force_login(superuser)
    as_superuser = client.get("/compliance/").content.decode()
    client.force_login(officer)
    as_officer = client.get("/compliance/").content.decode()

    assert '<a href="/admin/">Admin</a>' in as_superuser
    assert 'href="/admin/"' not in as_officer


def test_drafters_have_a_link_to_their_submissions_and_reviewers_none(client, manager_a, officer):
    client.force_login(manager_a)
    as_manager = client.get("/compliance/").content.decode()
    client.force_login(officer)
    as_officer = client.get("/compliance/").content.decode()

    assert '<a href="/compliance/mine/">My submissions</a>' in as_manager
    assert "/compliance/mine/" not in as_officer
