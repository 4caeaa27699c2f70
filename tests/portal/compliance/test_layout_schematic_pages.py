"""The layout's schematic and wheel on its page and as SVG downloads (§ 601a.10(a))."""

from __future__ import annotations

import pytest
from defusedxml import ElementTree

import jinzi
from portal.compliance.models import Layout
from tests.portal.factories import make_layout
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
PICTURES = ["schematic", "wheel"]


def _picture(client, layout, name):
    return client.get(f"/compliance/layouts/{layout.pk}/{name}.svg")


def _broken(layout) -> Layout:
    """The layout with a wheel that does not read, as a record written before the wheel
    was checked on saving would be."""
    Layout.objects.filter(pk=layout.pk).update(wheel_order=[0, 1, 1, 2])
    layout.refresh_from_db()
    return layout


@pytest.mark.parametrize("name", PICTURES)
@pytest.mark.parametrize("role", ["officer", "manager_a", "auditor"])
def test_601a10_a_those_who_may_see_the_layout_get_its_pictures_as_svg(
    login, request, manager_a, holder_a, role, name
):
    layout = make_layout(manager_a, holder_a, first_colour="black")

    response = _picture(login(request.getfixturevalue(role)), layout, name)

    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Content-Security-Policy"].startswith("sandbox;")
    disposition = f'inline; filename="layout-{layout.pk}-v1-{name}.svg"'
    assert response["Content-Disposition"] == disposition
    root = ElementTree.fromstring(response.content)
    assert root.find(f"{SVG}title").text.startswith("Main floor layout v1: ")
    numbers = [t.text for t in root.iter(f"{SVG}text") if t.text in {str(n) for n in range(13)}]
    assert sorted(numbers, key=int) == [str(n) for n in jinzi.NUMBERS]


def test_617b8_c_the_wheel_picture_follows_the_layouts_first_colour(login, manager_a, holder_a):
    red = _picture(login(manager_a), make_layout(manager_a, holder_a), "wheel").content
    black = make_layout(manager_a, holder_a, first_colour="black", title="Main floor layout")

    assert b"clockwise from 0; red first" in red
    assert b"clockwise from 0; black first" in _picture(login(manager_a), black, "wheel").content


@pytest.mark.parametrize("name", PICTURES)
@pytest.mark.parametrize("role", ["manager_b", "player"])
def test_601a10_a_another_holders_manager_and_players_get_not_found(
    login, request, manager_a, holder_a, role, name
):
    layout = make_layout(manager_a, holder_a)

    response = _picture(login(request.getfixturevalue(role)), layout, name)

    assert response.status_code == 404


@pytest.mark.parametrize("name", PICTURES)
def test_anonymous_visitors_are_sent_to_sign_in_for_a_picture(client, manager_a, holder_a, name):
    response = _picture(client, make_layout(manager_a, holder_a), name)

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")


@pytest.mark.parametrize("name", PICTURES)
def test_617b8_c_a_wheel_that_does_not_read_is_not_drawn(login, manager_a, holder_a, name):
    layout = _broken(make_layout(manager_a, holder_a))

    response = _picture(login(manager_a), layout, name)

    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/html")
    page = text(response)
    assert "§ 617b.8(c)" in page
    assert "cannot be drawn" in page


def test_601a10_a_the_layout_page_shows_the_schematic_and_the_wheel(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    page = text(login(manager_a).get(f"/compliance/layouts/{layout.pk}/"))

    schematic = f'src="/compliance/layouts/{layout.pk}/schematic.svg"'
    wheel = f'src="/compliance/layouts/{layout.pk}/wheel.svg"'
    assert schematic in page and wheel in page
    assert 'alt="Betting layout of Main floor layout v1: 0 across the top' in page
    assert 'alt="Wheel of Main floor layout v1: 13 compartments clockwise from 0' in page


def test_617b8_c_a_layout_page_whose_wheel_does_not_read_says_so_instead(
    login, manager_a, holder_a
):
    layout = _broken(make_layout(manager_a, holder_a))

    response = login(manager_a).get(f"/compliance/layouts/{layout.pk}/")

    assert response.status_code == 200
    page = text(response)
    assert "schematic.svg" not in page and "wheel.svg" not in page
    assert "The schematic and the picture of the wheel are drawn once" in page
    assert "§ 617b.8(c)" in page
