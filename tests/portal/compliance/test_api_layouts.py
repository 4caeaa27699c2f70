import datetime
import hashlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import NoReverseMatch, reverse

from portal.api import errors as api_msg
from portal.compliance import artwork
from portal.compliance import messages as msg
from portal.compliance.models import Layout
from portal.compliance.services.layouts import layout_submit
from portal.core.padates import pa_date
from tests.portal.api.helpers import last_event, layout_body, nothing_written
from tests.portal.factories import (
    EFFECTIVE,
    EXPIRY,
    PNG_BYTES,
    STANDARD_ORDER,
    approved_layout,
    make_layout,
    png_upload,
)

pytestmark = pytest.mark.django_db

URL = "/api/layouts/"
STANDARD_RED = {1, 3, 5, 8, 10, 12}


def _approval(**overrides) -> dict:
    body = {
        "reference_number": "BGO-2026-0042",
        "effective_date": EFFECTIVE.isoformat(),
        "expiry_date": EXPIRY.isoformat(),
        "conditions": "Signage in English and Spanish",
        "reason": "Bureau letter of 2026-01-02",
    }
    body.update(overrides)
    return body


def _submitted(manager, holder) -> Layout:
    return layout_submit(actor=manager, layout=make_layout(manager, holder))


def test_it_creates_a_layout_from_json_with_the_wheels_colours(api_as, manager_a, holder_a):
    response = api_as(manager_a).post(URL, layout_body(), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["wheel_order"] == STANDARD_ORDER
    assert body["colours"]["0"] == "white"
    assert {int(n) for n, colour in body["colours"].items() if colour == "red"} == STANDARD_RED
    assert (body["status"], body["version"], body["holder"]) == ("draft", 1, holder_a.pk)
    assert "artwork_url" not in body  # no artwork yet
    assert last_event("layout.create").after["wheel_order"] == STANDARD_ORDER


def test_601a10_a_api_creates_a_layout_from_a_multipart_form_with_its_artwork(api_as, manager_a):
    form = {
        "title": "Main floor layout",
        "wheel_order": "0,1,7,8,2,3,9,10,4,5,11,12,6",
        "signage_text": "Minimum bet $1",
        "artwork": png_upload(),
    }

    response = api_as(manager_a).post(URL, form, format="multipart")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["artwork_sha256"] == hashlib.sha256(PNG_BYTES).hexdigest()
    assert body["artwork_content_type"] == "image/png"
    assert body["wheel_order"] == STANDARD_ORDER
    assert body["signage_text"] == "Minimum bet $1"


def test_a_superuser_names_the_holder_in_a_form_as_digits(api_as, superuser, holder_b):
    form = {"title": "Form", "wheel_order": "0,1,7,8,2,3,9,10,4,5,11,12,6"}
    client = api_as(superuser)

    created = client.post(URL, {**form, "holder": str(holder_b.pk)}, format="multipart")
    refused = client.post(URL, {**form, "holder": "2.0"}, format="multipart")

    assert created.status_code == 201, created.json()
    assert created.json()["holder"] == holder_b.pk
    assert refused.status_code == 400
    assert "must be a whole number" in refused.json()["errors"]["holder"][0]


def test_the_wheel_may_be_given_as_text_or_as_a_json_list_in_a_form(api_as, manager_a):
    client = api_as(manager_a)

    as_text = client.post(URL, layout_body(wheel_order=" 0, 1,7,8,2,3,9,10,4,5,11,12,6"))
    as_list = client.post(
        URL, {"title": "Form", "wheel_order": str(STANDARD_ORDER)}, format="multipart"
    )

    assert as_text.status_code == as_list.status_code == 201
    assert as_text.json()["wheel_order"] == as_list.json()["wheel_order"] == STANDARD_ORDER


def test_the_artwork_link_points_at_the_portal_page_when_it_exists(api_as, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    body = api_as(manager_a).get(f"{URL}{layout.pk}/").json()

    try:
        path = reverse("compliance:layout-artwork", kwargs={"pk": layout.pk})
    except NoReverseMatch:
        assert "artwork_url" not in body
    else:
        assert body["artwork_url"] == f"http://testserver{path}"


@pytest.mark.parametrize(
    ("order", "clause_text"),
    [
        (STANDARD_ORDER[:-1] + [12], "each number 0–12 must be used exactly once"),
        (STANDARD_ORDER[:12], "exactly 13 compartments, got 12"),
        (STANDARD_ORDER[1:] + [0], "starting at 0"),
        ([0, 1.0, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6], "1.0 (float), not a whole number"),
        ([0, True, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6], "True (bool), not a whole number"),
        ([0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 13, 6], "13, outside 0–12"),
        ("0,1,7,8,2,3,9,10,4,5,11,12", "exactly 13 compartments"),
        ("zero,one", "cannot read wheel order"),
        ({"0": 0}, "a wheel is the clockwise order of its 13 numbers"),
        (7, "a wheel is the clockwise order of its 13 numbers"),
    ],
)
def test_617b8_c_api_refuses_bad_wheel(api_as, manager_a, order, clause_text):
    with nothing_written():
        response = api_as(manager_a).post(URL, layout_body(wheel_order=order), format="json")

    assert response.status_code == 400
    [message] = response.json()["errors"]["wheel_order"]
    assert message.startswith("§ 617b.8(c): ")
    assert clause_text in message
    assert Layout.objects.count() == 0


def test_a_form_wheel_that_is_not_json_is_refused(api_as, manager_a):
    response = api_as(manager_a).post(
        URL, {"title": "x", "wheel_order": "[0, 1,"}, format="multipart"
    )

    assert response.status_code == 400
    assert response.json()["errors"]["wheel_order"][0].startswith(
        "wheel_order is not a readable JSON list"
    )


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("fake.png", b"just some text pretending", "checked by content"),
        ("layout.gif", b"GIF89a" + b"\x00" * 20, "image/gif"),
        (
            "evil.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            "SVG artwork may not contain <script> elements",
        ),
        ("empty.png", b"", "artwork file is empty"),
    ],
)
def test_601a10_a_api_refuses_wrong_type_artwork(api_as, manager_a, name, content, message):
    form = {**layout_body(wheel_order="0,1,7,8,2,3,9,10,4,5,11,12,6")}
    form["artwork"] = SimpleUploadedFile(name, content)

    with nothing_written():
        response = api_as(manager_a).post(URL, form, format="multipart")

    assert response.status_code == 400
    assert message in response.json()["errors"]["artwork"][0]
    assert Layout.objects.count() == 0


def test_601a10_a_api_refuses_oversize_artwork(api_as, manager_a, settings, monkeypatch):
    settings.JINZI_MAX_ARTWORK_BYTES = 1024
    # Older builds of the checker read the cap once, at import.
    monkeypatch.setattr(artwork, "MAX_ARTWORK_BYTES", 1024, raising=False)
    form = {**layout_body(wheel_order="0,1,7,8,2,3,9,10,4,5,11,12,6")}
    form["artwork"] = SimpleUploadedFile("big.pdf", b"%PDF-1.7\n" + b"0" * 2048)

    with nothing_written():
        response = api_as(manager_a).post(URL, form, format="multipart")

    assert response.status_code == 400
    assert response.json()["errors"]["artwork"] == [artwork.TOO_BIG.format(size=2057, limit=1024)]


def test_artwork_given_as_json_text_is_refused(api_as, manager_a):
    response = api_as(manager_a).post(URL, layout_body(artwork="iVBORw0KGgo="), format="json")

    assert response.status_code == 400
    assert "artwork" in response.json()["errors"]


def test_a_draft_is_updated_with_patch_including_new_artwork(api_as, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a, artwork=None)
    pdf = SimpleUploadedFile("layout.pdf", b"%PDF-1.7\n%%EOF")

    response = api_as(manager_a).patch(
        f"{URL}{layout.pk}/", {"title": "Main floor v2", "artwork": pdf}, format="multipart"
    )

    assert response.status_code == 200, response.json()
    layout.refresh_from_db()
    assert (layout.title, layout.artwork_content_type) == ("Main floor v2", "application/pdf")
    assert last_event("layout.update").after["title"] == "Main floor v2"


@pytest.mark.parametrize(
    "body",
    [
        {"status": "approved"},
        {"version": 9},
        {"review_due": "2026-01-01"},
        {"reference_number": "BGO-FORGED"},
        {"holder": 2},
        {"wheel_order": STANDARD_ORDER[:-1] + [12]},
        {"title": ""},
        {"title": "x" * 201},
    ],
)
def test_forged_or_illegal_layout_patches_change_nothing(api_as, manager_a, holder_a, body):
    layout = make_layout(manager_a, holder_a)

    with nothing_written(layout):
        response = api_as(manager_a).patch(f"{URL}{layout.pk}/", body, format="json")

    assert response.status_code == 400
    assert set(response.json()["errors"]) == set(body)


def test_601a10_a_api_submit_sets_review_due_fifteen_calendar_days_later(
    api_as, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a)

    response = api_as(manager_a).post(f"{URL}{layout.pk}/submit/")

    assert response.status_code == 200
    layout.refresh_from_db()
    assert (
        response.json()["review_due"]
        == (pa_date(layout.submitted_at) + datetime.timedelta(days=15)).isoformat()
    )
    assert last_event("layout.submit").object_id == str(layout.pk)


def test_601a10_a_api_a_layout_is_submitted_with_its_artwork(api_as, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a, artwork=None)

    with nothing_written(layout):
        response = api_as(manager_a).post(f"{URL}{layout.pk}/submit/")

    assert response.status_code == 400
    assert response.json()["errors"] == {"artwork": [msg.ARTWORK_REQUIRED]}


def test_601a10_a_api_approval_records_the_bureaus_decision(api_as, manager_a, officer, holder_a):
    layout = _submitted(manager_a, holder_a)

    response = api_as(officer).post(f"{URL}{layout.pk}/approve/", _approval(), format="json")

    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "approved"
    assert body["decided_by"] == "officer"
    assert body["decided_at"]
    assert body["decision_reason"] == "Bureau letter of 2026-01-02"
    assert body["reference_number"] == "BGO-2026-0042"
    assert body["conditions"] == "Signage in English and Spanish"
    assert (body["effective_date"], body["expiry_date"]) == ("2026-01-01", "2028-01-01")
    assert last_event("layout.approve").after["reference_number"] == "BGO-2026-0042"


def test_601a10_a_api_approval_needs_a_reference_number_and_dates(
    api_as, manager_a, officer, holder_a
):
    layout = _submitted(manager_a, holder_a)

    with nothing_written(layout):
        response = api_as(officer).post(
            f"{URL}{layout.pk}/approve/",
            {"reference_number": " ", "effective_date": None},
            format="json",
        )

    assert response.status_code == 400
    errors = response.json()["errors"]
    assert errors["reference_number"] == [msg.REFERENCE_REQUIRED]
    assert errors["effective_date"] == [msg.DATES_REQUIRED]


def test_617b8_sunset_api_refuses_layout_approval_expiring_after_2028_06_14(
    api_as, manager_a, officer, holder_a
):
    layout = _submitted(manager_a, holder_a)

    with nothing_written(layout):
        response = api_as(officer).post(
            f"{URL}{layout.pk}/approve/", _approval(expiry_date="2028-06-15"), format="json"
        )

    assert response.status_code == 400
    assert response.json()["errors"]["expiry_date"] == [
        msg.EXPIRY_AFTER_SUNSET.format(expiry="2028-06-15")
    ]


def test_617b8_sunset_api_approval_may_run_until_the_sunset_itself(
    api_as, manager_a, officer, holder_a
):
    layout = _submitted(manager_a, holder_a)

    response = api_as(officer).post(
        f"{URL}{layout.pk}/approve/", _approval(expiry_date="2028-06-14"), format="json"
    )

    assert response.status_code == 200
    assert response.json()["expiry_date"] == "2028-06-14"


@pytest.mark.parametrize("date", ["2026/01/01", "01-01-2026", "2026-01-01T00:00:00", 20260101])
def test_approval_dates_must_be_iso(api_as, manager_a, officer, holder_a, date):
    layout = _submitted(manager_a, holder_a)

    with nothing_written(layout):
        response = api_as(officer).post(
            f"{URL}{layout.pk}/approve/", _approval(effective_date=date), format="json"
        )

    assert response.status_code == 400
    assert "YYYY-MM-DD" in response.json()["errors"]["effective_date"][0]


@pytest.mark.parametrize(
    ("step", "status"), [("reject", "rejected"), ("request-changes", "changes_requested")]
)
def test_the_bureau_rejects_or_asks_for_more(api_as, manager_a, officer, holder_a, step, status):
    layout = _submitted(manager_a, holder_a)

    response = api_as(officer).post(
        f"{URL}{layout.pk}/{step}/", {"reason": "artwork unreadable"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["status"] == status
    assert last_event(f"layout.{step.replace('-', '_')}").reason == "artwork unreadable"


def test_an_approved_layout_is_withdrawn(api_as, manager_a, officer, holder_a):
    layout = approved_layout(manager_a, officer, holder_a)

    response = api_as(officer).post(
        f"{URL}{layout.pk}/withdraw/", {"reason": "wheel replaced"}, format="json"
    )

    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"
    assert last_event("layout.withdraw").actor == officer


def test_an_amendment_is_the_next_version_of_the_series(api_as, manager_a, officer, holder_a):
    layout = approved_layout(manager_a, officer, holder_a)
    client = api_as(manager_a)

    response = client.post(f"{URL}{layout.pk}/amend/")
    again = client.post(f"{URL}{layout.pk}/amend/")

    assert response.status_code == 201
    body = response.json()
    assert (body["version"], body["series"], body["status"]) == (2, str(layout.series), "draft")
    assert body["wheel_order"] == STANDARD_ORDER
    assert last_event("layout.amend").object_version == 2
    assert again.status_code == 409
    assert client.get(URL, {"series": str(layout.series)}).json()["count"] == 2


def test_four_eyes_the_submitter_cannot_decide_over_http(api_as, superuser, holder_a):
    layout = _submitted(superuser, holder_a)
    client = api_as(superuser)

    with nothing_written(layout):
        responses = [
            client.post(f"{URL}{layout.pk}/approve/", _approval(), format="json"),
            client.post(f"{URL}{layout.pk}/reject/", {"reason": "mine"}, format="json"),
        ]

    assert [r.status_code for r in responses] == [403, 403]
    assert responses[0].json()["detail"] == msg.FOUR_EYES_OWN_WORK.format(kind="layout")


def test_an_auditor_may_read_but_not_decide(api_as, manager_a, auditor, holder_a):
    layout = _submitted(manager_a, holder_a)
    client = api_as(auditor)

    with nothing_written(layout):
        read = client.get(f"{URL}{layout.pk}/")
        decide = client.post(f"{URL}{layout.pk}/approve/", _approval(), format="json")
        withdraw = client.post(f"{URL}{layout.pk}/withdraw/", {"reason": "x"}, format="json")

    assert read.status_code == 200
    assert (decide.status_code, withdraw.status_code) == (403, 403)


def test_editing_a_submitted_layout_is_a_conflict(api_as, manager_a, holder_a):
    layout = _submitted(manager_a, holder_a)

    with nothing_written(layout):
        response = api_as(manager_a).patch(f"{URL}{layout.pk}/", {"title": "x"}, format="json")

    assert response.status_code == 409
    assert response.json()["errors"] == {}


def test_the_approve_body_refuses_unknown_fields(api_as, manager_a, officer, holder_a):
    layout = _submitted(manager_a, holder_a)

    with nothing_written(layout):
        response = api_as(officer).post(
            f"{URL}{layout.pk}/approve/", _approval(status="approved"), format="json"
        )

    assert response.status_code == 400
    assert response.json()["errors"]["status"] == [api_msg.READ_ONLY_FIELD.format(field="status")]


def test_617b8_c_api_creates_a_black_first_layout_with_its_colours(api_as, manager_a):
    response = api_as(manager_a).post(URL, layout_body(first_colour="black"), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["first_colour"] == "black"
    assert {int(n) for n, colour in body["colours"].items() if colour == "black"} == STANDARD_RED
    assert Layout.objects.get().wheel().first == "black"
    assert last_event("layout.create").after["first_colour"] == "black"


def test_617b8_c_api_layouts_are_red_first_unless_told(api_as, manager_a):
    response = api_as(manager_a).post(URL, layout_body(), format="json")

    assert response.status_code == 201, response.json()
    assert response.json()["first_colour"] == "red"


def test_617b8_c_api_patches_the_first_colour_alone(api_as, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    response = api_as(manager_a).patch(
        f"{URL}{layout.pk}/", {"first_colour": "black"}, format="json"
    )

    assert response.status_code == 200, response.json()
    assert (response.json()["first_colour"], response.json()["wheel_order"]) == (
        "black",
        STANDARD_ORDER,
    )
    assert last_event("layout.update").after["first_colour"] == "black"


def test_617b8_c_api_amendment_copies_the_first_colour(api_as, manager_a, officer, holder_a):
    layout = approved_layout(manager_a, officer, holder_a, first_colour="black")

    response = api_as(manager_a).post(f"{URL}{layout.pk}/amend/")

    assert response.status_code == 201
    assert response.json()["first_colour"] == "black"


@pytest.mark.parametrize("colour", ["white", "green", "", None, 1, ["red"]])
def test_617b8_c_api_refuses_a_first_colour_other_than_red_or_black(
    api_as, manager_a, holder_a, colour
):
    layout = make_layout(manager_a, holder_a)
    client = api_as(manager_a)

    with nothing_written(layout):
        created = client.post(URL, layout_body(first_colour=colour), format="json")
        patched = client.patch(f"{URL}{layout.pk}/", {"first_colour": colour}, format="json")

    for response in (created, patched):
        assert response.status_code == 400
        [message] = response.json()["errors"]["first_colour"]
        assert message.startswith("§ 617b.8(c): the first compartment after 0 must be")
    assert Layout.objects.count() == 1
