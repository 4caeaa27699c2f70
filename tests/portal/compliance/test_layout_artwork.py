import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.portal.factories import PNG_BYTES, make_layout

pytestmark = pytest.mark.django_db

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="4" height="4"/></svg>'


def _download(client, layout):
    response = client.get(f"/compliance/layouts/{layout.pk}/artwork/")
    body = b"".join(response.streaming_content) if response.status_code == 200 else b""
    return response, body


@pytest.mark.parametrize("role", ["manager_a", "officer", "auditor", "superuser"])
def test_601a10_a_those_who_may_see_the_layout_get_its_artwork(
    login, request, manager_a, holder_a, role
):
    layout = make_layout(manager_a, holder_a)

    response, body = _download(login(request.getfixturevalue(role)), layout)

    assert response.status_code == 200
    assert body == PNG_BYTES
    assert response["Content-Type"] == "image/png"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Disposition"] == f'inline; filename="layout-{layout.pk}-v1.png"'
    # A raster image runs nothing: it carries the site's own strict policy, not the SVG's.
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "sandbox" not in policy


def test_svg_artwork_is_served_sandboxed(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a, artwork=SimpleUploadedFile("a.svg", SVG))

    response, body = _download(login(manager_a), layout)

    assert response.status_code == 200
    assert body == SVG
    assert response["Content-Type"] == "image/svg+xml"
    policy = response["Content-Security-Policy"]
    assert policy.startswith("sandbox;") and "default-src 'none'" in policy
    assert "script-src" not in policy  # falls back to none
    assert response["X-Content-Type-Options"] == "nosniff"


def test_pdf_artwork_keeps_its_stored_type(login, manager_a, holder_a):
    pdf = b"%PDF-1.7\n%%EOF"
    layout = make_layout(manager_a, holder_a, artwork=SimpleUploadedFile("a.bin", pdf))

    response, body = _download(login(manager_a), layout)

    assert (response["Content-Type"], body) == ("application/pdf", pdf)


@pytest.mark.parametrize("role", ["manager_b", "player"])
def test_another_holders_manager_and_players_get_not_found(
    login, request, manager_a, holder_a, role
):
    layout = make_layout(manager_a, holder_a)

    response, _ = _download(login(request.getfixturevalue(role)), layout)

    assert response.status_code == 404


def test_anonymous_visitors_are_sent_to_sign_in(client, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    response, _ = _download(client, layout)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


def test_a_layout_without_artwork_has_none_to_serve(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a, artwork=None)

    response, _ = _download(login(manager_a), layout)

    assert response.status_code == 404
