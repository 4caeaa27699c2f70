import pytest

from tests.portal.page_helpers import addresses_off_site, text

pytestmark = pytest.mark.django_db


def test_a_visitor_sees_the_introduction_and_a_sign_in_link(client):
    response = client.get("/")

    page = text(response)
    assert response.status_code == 200
    assert "§ 617b.8" in page
    assert 'href="/accounts/login/?next=/compliance/"' in page


@pytest.mark.parametrize("role", ["officer", "manager_a", "auditor", "superuser"])
def test_signed_in_staff_go_to_their_dashboard(login, request, role):
    response = login(request.getfixturevalue(role)).get("/")

    assert response.status_code == 302
    assert response["Location"] == "/compliance/"


@pytest.mark.parametrize(
    ("role", "landing"),
    [("supervisor_a", "/play/corrections/"), ("payments_a", "/play/payments/")],
)
def test_a_holders_supervisor_and_payments_staff_land_on_their_own_queue(
    login, request, role, landing
):
    response = login(request.getfixturevalue(role)).get("/", follow=True)

    assert response.redirect_chain[0] == (landing, 302)
    assert response.status_code == 200
    assert "holds none of those roles" not in response.content.decode()


def test_a_player_is_sent_to_the_tables(login, player):
    response = login(player).get("/")

    assert response.status_code == 302
    assert response["Location"] == "/play/"


def test_the_navigation_offers_only_the_sections_the_user_may_open(login, manager_a, auditor):
    manager_page = text(login(manager_a).get("/compliance/"))
    auditor_page = text(login(auditor).get("/compliance/"))

    assert 'href="/compliance/layouts/"' in manager_page
    assert 'href="/audit/"' not in manager_page
    assert 'href="/compliance/offerings/"' in auditor_page
    assert 'href="/audit/"' in auditor_page


def test_htmx_is_served_from_this_site_with_the_csrf_header(login, manager_a):
    page = text(login(manager_a).get("/compliance/paytables/new/"))

    assert '<script src="/static/django_htmx/htmx-2.min.js" defer></script>' in page
    assert addresses_off_site(page) == []
    assert 'hx-headers=\'{"X-CSRFToken": "' in page


def test_every_page_has_a_skip_link_and_a_main_landmark(login, officer):
    page = text(login(officer).get("/compliance/"))

    assert '<a class="skip-link" href="#main">' in page
    assert '<main id="main"' in page
    assert 'name="viewport"' in page
