import pytest

from portal.audit.models import AuditEvent
from portal.compliance.models import Offering, OfferingStatus
from portal.compliance.services.layouts import layout_withdraw
from tests.portal.factories import make_layout, make_offering, make_paytable, make_rules
from tests.portal.page_helpers import field_errors, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft_offering(manager_a, holder_a):
    """An offering whose rules, layout and paytable are all still drafts: not live."""
    paytable, layout = make_paytable(manager_a, holder_a), make_layout(manager_a, holder_a)
    rules = make_rules(manager_a, holder_a, paytable, layout)
    return make_offering(manager_a, holder_a, rules, layout, paytable, name="Table 2")


def _form(offering, **overrides):
    data = {
        "name": "Table 9",
        "rules_submission": offering.rules_submission_id,
        "layout": offering.layout_id,
        "paytable": offering.paytable_id,
    }
    data.update(overrides)
    return data


def test_617b8_a_the_list_shows_live_tables_and_why_others_are_not(
    login, auditor, live_offering, draft_offering
):
    page = text(login(auditor).get("/compliance/offerings/"))

    live_row = page[page.index("Table 1") : page.index("Table 2")]
    assert "Live" in live_row and "Not live" not in live_row
    not_live = page[page.index("Table 2") :]
    assert "Not live" in not_live
    assert "the rules submission v1 is not approved (it is draft)" in not_live
    assert "the paytable v1 is not approved (it is draft)" in not_live


def test_the_detail_says_why_a_table_stopped_being_live(login, manager_a, officer, live_offering):
    layout_withdraw(actor=officer, layout=live_offering.layout, reason="Worn cloth")

    page = text(login(manager_a).get(f"/compliance/offerings/{live_offering.pk}/"))

    assert "Not live." in page
    assert "the layout v1 is not approved (it is withdrawn)" in page


def test_a_manager_sets_up_an_offering(login, manager_a, holder_a, live_offering):
    response = login(manager_a).post("/compliance/offerings/new/", _form(live_offering))

    offering = Offering.objects.get(name="Table 9")
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/offerings/{offering.pk}/"
    assert (offering.holder, offering.status) == (holder_a, OfferingStatus.ACTIVE)
    assert AuditEvent.objects.filter(action="offering.create", object_id=str(offering.pk)).exists()


def test_617b8_a_an_offering_must_match_its_rules_submission(
    login, manager_a, holder_a, live_offering
):
    other_layout = make_layout(manager_a, holder_a, title="Other floor")

    response = login(manager_a).post(
        "/compliance/offerings/new/", _form(live_offering, layout=other_layout.pk)
    )

    assert response.status_code == 400
    assert "§ 617b.8(a)" in field_errors(response, "id_layout")
    assert not Offering.objects.filter(name="Table 9").exists()


def test_a_name_already_used_is_refused_on_the_name(login, manager_a, live_offering):
    response = login(manager_a).post(
        "/compliance/offerings/new/", _form(live_offering, name="Table 1")
    )

    assert response.status_code == 400
    assert "already has an offering named" in field_errors(response, "id_name")


def test_a_manager_renames_an_offering(login, manager_a, holder_b, live_offering):
    response = login(manager_a).post(
        f"/compliance/offerings/{live_offering.pk}/edit/",
        _form(live_offering, name="High limit", holder=holder_b.pk, status="retired"),
    )

    live_offering.refresh_from_db()
    assert response.status_code == 302
    assert (live_offering.name, live_offering.status) == ("High limit", OfferingStatus.ACTIVE)
    assert live_offering.holder_id != holder_b.pk


def test_retiring_needs_a_reason_and_ends_editing(login, manager_a, live_offering):
    client = login(manager_a)

    page = f"/compliance/offerings/{live_offering.pk}/"
    refused = client.post(page, {"step": "retire", "reason": ""})
    retired = client.post(page, {"step": "retire", "reason": "Moved"})
    editing = client.get(f"/compliance/offerings/{live_offering.pk}/edit/")
    again = client.post(page, {"step": "retire", "reason": "Again"})

    assert refused.status_code == 400
    assert "give a reason" in field_errors(refused, "id_retire_reason")
    assert retired.status_code == 302
    live_offering.refresh_from_db()
    assert live_offering.status == OfferingStatus.RETIRED
    assert (editing.status_code, again.status_code) == (409, 409)
    assert "is retired" in text(editing)


def test_others_may_look_but_not_change(login, auditor, officer, manager_b, live_offering):
    detail = f"/compliance/offerings/{live_offering.pk}/"
    retire = {"step": "retire", "reason": "x"}

    assert login(manager_b).get(detail).status_code == 404
    assert login(manager_b).post(detail, retire).status_code == 404
    for user in (auditor, officer):
        client = login(user)
        assert 'value="retire"' not in text(client.get(detail))
        assert client.post(detail, retire).status_code == 403
        assert client.get("/compliance/offerings/new/").status_code == 403
    live_offering.refresh_from_db()
    assert live_offering.status == OfferingStatus.ACTIVE


def test_the_history_tab_lists_the_offering_events(login, manager_a, live_offering):
    client = login(manager_a)
    client.post(f"/compliance/offerings/{live_offering.pk}/", {"step": "retire", "reason": "Moved"})

    page = text(client.get(f"/compliance/offerings/{live_offering.pk}/?tab=history"))

    assert "<td>Created</td>" in page
    assert "<td>Retired</td>" in page
    assert "offering.retire" not in page
    assert "Moved" in page


def test_the_form_offers_only_the_holders_records(
    login, manager_a, manager_b, holder_b, live_offering
):
    make_paytable(manager_b, holder_b, name="Their paytable")

    page = text(login(manager_a).get("/compliance/offerings/new/"))

    assert "Standard v1 (approved)" in page
    assert "Their paytable" not in page
