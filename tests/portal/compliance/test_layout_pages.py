import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from portal.audit.models import AuditEvent
from portal.compliance.models import Layout, RecordStatus
from portal.compliance.services.layouts import layout_amend
from tests.portal.factories import events_written, make_layout, png_upload
from tests.portal.page_helpers import (
    approve_layout,
    field_errors,
    stored_files,
    submitted_layout,
    text,
)

pytestmark = pytest.mark.django_db

WHEEL = "0,1,7,8,2,3,9,10,4,5,11,12,6"


def _layout_form(**overrides):
    data = {"title": "Main floor", "wheel_order": WHEEL, "signage_text": "Minimum $1"}
    data["artwork"] = png_upload()
    data.update(overrides)
    return data


def test_the_form_prefills_the_default_wheel_and_labels_every_input(login, manager_a):
    response = login(manager_a).get("/compliance/layouts/new/")

    assert response.status_code == 200
    page = text(response)
    assert f'value="{WHEEL}"' in page
    for field in ("title", "wheel_order", "signage_text", "artwork"):
        assert f'<label for="id_{field}"' in page
    assert 'name="holder"' not in page  # a manager drafts for their own holder


def test_601a10_a_a_manager_drafts_a_layout_with_an_audit_event(login, manager_a, holder_a):
    response = login(manager_a).post("/compliance/layouts/new/", _layout_form())

    layout = Layout.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/layouts/{layout.pk}/"
    assert (layout.holder, layout.created_by, layout.status) == (holder_a, manager_a, "draft")
    assert layout.wheel_order == [int(n) for n in WHEEL.split(",")]
    assert layout.artwork_content_type == "image/png"
    event = AuditEvent.objects.get(action="layout.create")
    assert (event.actor, event.object_id) == (manager_a, str(layout.pk))


def test_617b8_c_layout_form_refuses_bad_wheel(login, manager_a):
    events = events_written()

    response = login(manager_a).post(
        "/compliance/layouts/new/", _layout_form(wheel_order="0,1,7,8,2,3,9,10,4,5,11,12,12")
    )

    assert response.status_code == 400
    errors = field_errors(response, "id_wheel_order")
    assert "§ 617b.8(c)" in errors
    assert "12 appears 2 times" in errors
    assert 'aria-invalid="true"' in text(response)
    assert Layout.objects.count() == 0
    assert events_written() == events


def test_617b8_c_layout_form_refuses_an_unreadable_wheel(login, manager_a):
    response = login(manager_a).post("/compliance/layouts/new/", _layout_form(wheel_order="zero"))

    assert response.status_code == 400
    assert "§ 617b.8(c)" in field_errors(response, "id_wheel_order")


def test_601a10_a_oversize_artwork_is_refused_and_nothing_stored(login, manager_a):
    before = stored_files()
    too_big = SimpleUploadedFile("big.pdf", b"%PDF-1.7\n" + b"0" * (5 * 1024 * 1024))

    response = login(manager_a).post("/compliance/layouts/new/", _layout_form(artwork=too_big))

    assert response.status_code == 400
    assert "the limit is" in field_errors(response, "id_artwork")
    assert Layout.objects.count() == 0
    assert stored_files() == before


@pytest.mark.parametrize(
    ("name", "content", "found"),
    [
        ("layout.gif", b"GIF89a" + b"\x00" * 20, "image/gif"),
        ("fake.png", b"just some text", "unrecognised"),
        ("evil.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script/></svg>', "script"),
    ],
)
def test_601a10_a_artwork_of_the_wrong_type_is_refused_and_nothing_stored(
    login, manager_a, name, content, found
):
    before = stored_files()

    response = login(manager_a).post(
        "/compliance/layouts/new/", _layout_form(artwork=SimpleUploadedFile(name, content))
    )

    assert response.status_code == 400
    assert found in field_errors(response, "id_artwork")
    assert Layout.objects.count() == 0
    assert stored_files() == before


def test_601a10_a_a_bad_replacement_artwork_leaves_the_draft_as_it_was(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    before = stored_files()

    response = login(manager_a).post(
        f"/compliance/layouts/{layout.pk}/edit/",
        _layout_form(title="Renamed", artwork=SimpleUploadedFile("x.gif", b"GIF89a" + b"0" * 9)),
    )

    assert response.status_code == 400
    assert "image/gif" in field_errors(response, "id_artwork")
    layout.refresh_from_db()
    assert (layout.title, layout.artwork_content_type) == ("Main floor layout", "image/png")
    assert stored_files() == before


def test_a_manager_cannot_forge_the_holder_of_a_new_layout(login, manager_a, holder_a, holder_b):
    login(manager_a).post("/compliance/layouts/new/", _layout_form(holder=holder_b.pk))

    assert Layout.objects.get().holder == holder_a


def test_a_superuser_drafts_only_for_a_chosen_holder(login, superuser, holder_b):
    client = login(superuser)

    refused = client.post("/compliance/layouts/new/", _layout_form())
    drafted = client.post("/compliance/layouts/new/", _layout_form(holder=holder_b.pk))

    assert refused.status_code == 400
    assert "Choose the certificate holder" in field_errors(refused, "id_holder")
    assert drafted.status_code == 302
    assert Layout.objects.get().holder == holder_b


@pytest.mark.parametrize("role", ["officer", "auditor", "player"])
def test_officers_auditors_and_players_may_not_draft_layouts(login, request, role):
    client = login(request.getfixturevalue(role))

    assert client.get("/compliance/layouts/new/").status_code == 403
    response = client.post("/compliance/layouts/new/", _layout_form())

    assert response.status_code == 403
    assert "may not" in text(response)
    assert Layout.objects.count() == 0


def test_anonymous_visitors_are_sent_to_sign_in(client, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    for url in ("/compliance/layouts/", f"/compliance/layouts/{layout.pk}/"):
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/?next=")


def test_posting_a_status_to_the_edit_form_changes_no_status(login, manager_a, holder_a, holder_b):
    layout = make_layout(manager_a, holder_a)

    response = login(manager_a).post(
        f"/compliance/layouts/{layout.pk}/edit/",
        {
            "title": "Renamed",
            "wheel_order": WHEEL,
            "status": RecordStatus.APPROVED,
            "holder": holder_b.pk,
            "reference_number": "FORGED",
            "version": 9,
        },
    )

    layout.refresh_from_db()
    assert response.status_code == 302
    assert (layout.title, layout.status, layout.holder, layout.version) == (
        "Renamed",
        "draft",
        holder_a,
        1,
    )
    assert layout.reference_number == ""
    assert layout.artwork_content_type == "image/png"  # kept: no new file was chosen


def test_editing_a_submitted_layout_is_a_conflict(login, manager_a, holder_a):
    layout = submitted_layout(manager_a, holder_a)
    client = login(manager_a)

    shown = client.get(f"/compliance/layouts/{layout.pk}/edit/")
    posted = client.post(
        f"/compliance/layouts/{layout.pk}/edit/", {"title": "Sneaky", "wheel_order": WHEEL}
    )

    assert (shown.status_code, posted.status_code) == (409, 409)
    assert "only a draft layout can be edited" in text(posted)
    layout.refresh_from_db()
    assert layout.title == "Main floor layout"


def test_another_holders_layout_is_not_found(login, manager_a, manager_b, holder_a):
    layout = make_layout(manager_a, holder_a)
    client = login(manager_b)

    for url in ("", "edit/", "artwork/"):
        assert client.get(f"/compliance/layouts/{layout.pk}/{url}").status_code == 404
    assert client.post(f"/compliance/layouts/{layout.pk}/", {"step": "submit"}).status_code == 404
    layout.refresh_from_db()
    assert layout.status == RecordStatus.DRAFT


def test_the_list_shows_only_the_managers_own_holder(
    login, manager_a, manager_b, holder_a, holder_b
):
    make_layout(manager_a, holder_a, title="Keystone floor")
    make_layout(manager_b, holder_b, title="Susquehanna floor")

    page = text(login(manager_a).get("/compliance/layouts/"))

    assert "Keystone floor" in page
    assert "Susquehanna floor" not in page


def test_the_list_filters_by_status(login, officer, manager_a, holder_a):
    make_layout(manager_a, holder_a, title="Still a draft")
    submitted_layout(manager_a, holder_a, title="Sent in")

    page = text(login(officer).get("/compliance/layouts/?status=submitted"))

    assert "Sent in" in page
    assert "Still a draft" not in page


def test_617b8_c_detail_shows_the_wheel_in_order_and_the_grid_in_its_colours(
    login, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a)

    page = text(login(manager_a).get(f"/compliance/layouts/{layout.pk}/"))

    wheel = page[page.index('<ol class="wheel"') : page.index("</ol>", page.index('class="wheel"'))]
    numbers = [int(n) for n in re.findall(r'class="pocket \w+">(\d+)<', wheel)]
    assert numbers == [0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6]
    grid = page[page.index('<table class="layout-grid"') :]
    assert '<td colspan="3" class="pocket white">0' in grid
    for number in (1, 3, 5, 8, 10, 12):
        assert f'<td class="pocket red">{number}<' in grid
    for number in (2, 4, 6, 7, 9, 11):
        assert f'<td class="pocket black">{number}<' in grid
    assert grid.index(">1<") < grid.index(">2<") < grid.index(">4<") < grid.index(">12<")


def test_601a10_a_detail_shows_the_bureau_decision(login, auditor, manager_a, officer, holder_a):
    layout = approve_layout(
        officer,
        submitted_layout(manager_a, holder_a),
        reference_number="BGO-2026-0042",
        conditions="Signage in English and Spanish",
        reason="Matches the artwork",
    )

    page = text(login(auditor).get(f"/compliance/layouts/{layout.pk}/"))

    assert "Bureau of Gaming Operations decision" in page
    for shown in (
        "officer",
        "BGO-2026-0042",
        "Signage in English and Spanish",
        "Matches the artwork",
        "2026-01-01",
        "2028-01-01",
        layout.review_due.isoformat(),
    ):
        assert shown in page


def test_811a7_history_tab_lists_the_events_of_the_record(login, manager_a, officer, holder_a):
    layout = approve_layout(officer, submitted_layout(manager_a, holder_a))
    other = make_layout(manager_a, holder_a, title="Other")

    page = text(login(manager_a).get(f"/compliance/layouts/{layout.pk}/?tab=history"))

    for action in ("Created", "Submitted for review", "Approved"):
        assert f"<td>{action}</td>" in page
    assert 'aria-current="page">History' in page
    assert f"/compliance/layouts/{other.pk}/" not in page


def test_detail_links_to_the_other_versions(login, manager_a, officer, holder_a):
    first = approve_layout(officer, submitted_layout(manager_a, holder_a))
    second = layout_amend(actor=manager_a, layout=first)

    page = text(login(officer).get(f"/compliance/layouts/{first.pk}/"))

    assert f'href="/compliance/layouts/{second.pk}/">v2</a>' in page
    assert '<strong aria-current="page">v1</strong>' in page


def test_the_detail_page_shows_the_artwork_inline(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    page = text(login(manager_a).get(f"/compliance/layouts/{layout.pk}/"))

    assert f'<img class="artwork" src="/compliance/layouts/{layout.pk}/artwork/"' in page


def test_617b8_c_the_form_offers_either_colour_after_zero_red_first(login, manager_a):
    page = text(login(manager_a).get("/compliance/layouts/new/"))

    assert '<label for="id_first_colour"' in page
    assert '<option value="red" selected>Red</option>' in page
    assert '<option value="black">Black</option>' in page


def test_617b8_c_a_black_first_layout_is_drafted_and_shown_in_its_colours(
    login, manager_a, holder_a
):
    client = login(manager_a)

    response = client.post("/compliance/layouts/new/", _layout_form(first_colour="black"))

    layout = Layout.objects.get()
    assert response.status_code == 302
    assert layout.first_colour == "black"
    page = text(client.get(f"/compliance/layouts/{layout.pk}/"))
    assert '<strong class="first-colour">black</strong>' in page
    grid = page[page.index('<table class="layout-grid"') :]
    for number in (1, 3, 5, 8, 10, 12):
        assert f'<td class="pocket black">{number}<' in grid
    for number in (2, 4, 6, 7, 9, 11):
        assert f'<td class="pocket red">{number}<' in grid
    edit = text(client.get(f"/compliance/layouts/{layout.pk}/edit/"))
    assert '<option value="black" selected>Black</option>' in edit


def test_617b8_c_the_detail_page_says_red_follows_zero_by_default(login, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    page = text(login(manager_a).get(f"/compliance/layouts/{layout.pk}/"))

    assert '<strong class="first-colour">red</strong>' in page


@pytest.mark.parametrize("colour", ["white", "green"])
def test_617b8_c_layout_form_refuses_a_first_colour_other_than_red_or_black(
    login, manager_a, holder_a, colour
):
    client = login(manager_a)
    layout = make_layout(manager_a, holder_a)
    events = events_written()

    created = client.post("/compliance/layouts/new/", _layout_form(first_colour=colour))
    edited = client.post(
        f"/compliance/layouts/{layout.pk}/edit/", _layout_form(first_colour=colour, artwork="")
    )

    for response in (created, edited):
        assert response.status_code == 400
        errors = field_errors(response, "id_first_colour")
        assert "§ 617b.8(c)" in errors
        assert "choose red or black as the first colour after 0" in errors
        assert "(str)" not in text(response)
    assert Layout.objects.count() == 1
    layout.refresh_from_db()
    assert layout.first_colour == "red"
    assert events_written() == events
