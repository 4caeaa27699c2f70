import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.artwork import UNSAFE_SVG, WRONG_TYPE
from portal.compliance.models import Layout, RecordStatus
from portal.compliance.services.layouts import (
    layout_amend,
    layout_approve,
    layout_reject,
    layout_request_changes,
    layout_submit,
    layout_update,
    layout_withdraw,
)
from portal.core.errors import Conflict, NotPermitted, ValidationFailed
from portal.core.padates import pa_date
from tests.portal.factories import (
    EFFECTIVE,
    EXPIRY,
    STANDARD_ORDER,
    approved_layout,
    events_written,
    make_layout,
)

pytestmark = pytest.mark.django_db


def _approve(officer, layout, **overrides):
    fields = {
        "reference_number": "BGO-1",
        "effective_date": EFFECTIVE,
        "expiry_date": EXPIRY,
    }
    fields.update(overrides)
    return layout_approve(actor=officer, layout=layout, **fields)


def test_617b8_c_layout_with_a_duplicate_number_on_the_wheel_is_refused(manager_a, holder_a):
    events = events_written()
    bad = [0, 1, 7, 8, 2, 3, 9, 10, 4, 5, 11, 12, 12]

    with pytest.raises(ValidationFailed) as caught:
        make_layout(manager_a, holder_a, wheel_order=bad)

    assert "617b.8(c)" in caught.value.field_errors["wheel_order"][0]
    assert Layout.objects.count() == 0
    assert events_written() == events


def test_617b8_c_layout_wheel_must_be_a_list(manager_a, holder_a):
    with pytest.raises(ValidationFailed):
        make_layout(manager_a, holder_a, wheel_order={"a": 1})


def test_601a10_a_create_writes_an_audit_event_with_the_record(manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    event = AuditEvent.objects.get(action="layout.create")
    assert (event.actor, event.object_id, event.object_version) == (manager_a, str(layout.pk), 1)
    assert event.after["wheel_order"] == STANDARD_ORDER
    assert layout.artwork_content_type == "image/png"
    assert len(layout.artwork_sha256) == 64


def test_601a10_a_submission_sets_review_due_fifteen_calendar_days_later(manager_a, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    assert layout.status == RecordStatus.SUBMITTED
    assert layout.submitted_by == manager_a
    # 15 calendar days from the Pennsylvania date of submission (reading:pennsylvania-dates).
    assert layout.review_due == pa_date(layout.submitted_at) + datetime.timedelta(days=15)


def test_601a10_a_a_layout_is_submitted_with_its_artwork(manager_a, holder_a):
    layout = make_layout(manager_a, holder_a, artwork=None)

    with pytest.raises(ValidationFailed, match="artwork"):
        layout_submit(actor=manager_a, layout=layout)

    layout.refresh_from_db()
    assert layout.status == RecordStatus.DRAFT


def test_601a10_a_approval_records_reference_conditions_and_dates(manager_a, officer, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    approved = _approve(officer, layout, conditions="Signage in English and Spanish")

    assert approved.status == RecordStatus.APPROVED
    assert (approved.decided_by, approved.reference_number) == (officer, "BGO-1")
    assert (approved.effective_date, approved.expiry_date) == (EFFECTIVE, EXPIRY)
    assert approved.conditions == "Signage in English and Spanish"


def test_617b8_sunset_approval_expiring_after_2028_06_14_is_refused(manager_a, officer, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    with pytest.raises(ValidationFailed) as caught:
        _approve(officer, layout, expiry_date=datetime.date(2028, 6, 15))

    assert "2028-06-14" in caught.value.field_errors["expiry_date"][0]
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


def test_617b8_sunset_approval_may_run_until_the_sunset_itself(manager_a, officer, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    assert _approve(officer, layout, expiry_date=datetime.date(2028, 6, 14)).status == "approved"


@pytest.mark.clause("reading:roles", kind="proves")
def test_four_eyes_the_submitter_can_never_decide_whatever_their_roles(superuser, holder_a):
    layout = layout_submit(actor=superuser, layout=make_layout(superuser, holder_a))

    for decide in (
        lambda: _approve(superuser, layout),
        lambda: layout_reject(actor=superuser, layout=layout, reason="no"),
        lambda: layout_request_changes(actor=superuser, layout=layout, reason="no"),
    ):
        with pytest.raises(NotPermitted, match="four-eyes"):
            decide()
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED


def test_managers_cannot_decide_and_officers_cannot_draft(manager_a, officer, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    with pytest.raises(NotPermitted, match="approve or reject"):
        layout_reject(actor=manager_a, layout=layout, reason="x")
    with pytest.raises(NotPermitted, match="draft"):
        make_layout(officer, holder_a)


def test_a_manager_cannot_touch_another_holders_layout(manager_a, manager_b, holder_a):
    layout = make_layout(manager_a, holder_a)

    with pytest.raises(NotPermitted, match="another certificate holder"):
        layout_submit(actor=manager_b, layout=layout)
    with pytest.raises(NotPermitted, match="another certificate holder"):
        make_layout(manager_b, holder_a)


def test_bad_transitions_are_conflicts(manager_a, officer, holder_a):
    layout = make_layout(manager_a, holder_a)

    with pytest.raises(Conflict, match="only a submitted layout can be approved"):
        _approve(officer, layout)
    layout_submit(actor=manager_a, layout=layout)
    with pytest.raises(Conflict, match="only a draft layout can be edited"):
        layout_update(actor=manager_a, layout=layout, title="New")
    with pytest.raises(Conflict, match="only a approved layout can be withdrawn|only a"):
        layout_withdraw(actor=officer, layout=layout, reason="x")


def test_a_second_decision_on_a_decided_record_is_a_conflict(
    manager_a, officer, officer2, holder_a
):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    _approve(officer, layout)

    with pytest.raises(Conflict, match="already decided"):
        layout_reject(actor=officer2, layout=layout, reason="too late")


def test_rejection_needs_a_reason(manager_a, officer, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    with pytest.raises(ValidationFailed, match=msg.REASON_REQUIRED):
        layout_reject(actor=officer, layout=layout, reason="  ")


def test_an_approved_amendment_supersedes_the_previous_version(manager_a, officer, holder_a):
    first = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    first = _approve(officer, first)

    second = layout_amend(actor=manager_a, layout=first)
    assert (second.version, second.series, second.status) == (2, first.series, "draft")
    with pytest.raises(Conflict, match="open version"):
        layout_amend(actor=manager_a, layout=second)
    second = layout_update(actor=manager_a, layout=second, title="Main floor v2")
    second = layout_submit(actor=manager_a, layout=second)
    _approve(officer, second)

    first.refresh_from_db()
    assert first.status == RecordStatus.SUPERSEDED
    assert first.title == "Main floor layout"  # superseded versions stay readable, unchanged
    assert AuditEvent.objects.filter(action="layout.supersede", object_id=str(first.pk)).exists()


def test_only_the_latest_version_can_be_amended(manager_a, officer, holder_a):
    first = _approve(
        officer, layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    )
    layout_amend(actor=manager_a, layout=first)

    with pytest.raises(Conflict):
        layout_amend(actor=manager_a, layout=first)


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("fake.png", b"just some text pretending", WRONG_TYPE.split(";")[0]),
        ("layout.gif", b"GIF89a" + b"\x00" * 20, "image/gif"),
        (
            "evil.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
            UNSAFE_SVG.format(what="<script> elements"),
        ),
        (
            "evil2.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><rect onload="x()"/></svg>',
            "event handlers",
        ),
        ("notsvg.svg", b'<html xmlns="http://www.w3.org/1999/xhtml"></html>', "root <html>"),
        (
            "set.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><a><set attributeName="href" '
            b'to="javascript:alert(1)"/></a></svg>',
            "<set> elements",
        ),
        (
            "css.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:url(https://x.example/a)}'
            b"</style></svg>",
            "<style> elements",
        ),
        (
            "attr.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://x.example/a)"/></svg>',
            "url() references",
        ),
        (
            "pi.svg",
            b'<?xml version="1.0"?><?xml-stylesheet href="https://x.example/a.css"?>'
            b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="4"/></svg>',
            "processing instructions (<?xml-stylesheet …?>)",
        ),
        (
            "inner-pi.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg"><?php echo 1; ?><rect width="4"/></svg>',
            "processing instructions (<?php …?>)",
        ),
        (
            "doctype.svg",
            b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" '
            b'"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">'
            b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="4"/></svg>',
            "a DOCTYPE",
        ),
        (
            "image.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">'
            b'<image xlink:href="https://x.example/a.png"/></svg>',
            "external references",
        ),
        (
            "data.svg",
            b'<svg xmlns="http://www.w3.org/2000/svg">'
            b'<rect mask="data:image/png;base64,AA"/></svg>',
            "external references",
        ),
        ("empty.pdf", b"", "empty"),
    ],
)
def test_601a10_a_artwork_type_is_checked_by_content(manager_a, holder_a, name, content, message):
    upload = SimpleUploadedFile(name, content)

    with pytest.raises(ValidationFailed) as caught:
        make_layout(manager_a, holder_a, artwork=upload)

    assert message in caught.value.field_errors["artwork"][0]
    assert Layout.objects.count() == 0


def test_601a10_a_artwork_over_the_size_cap_is_refused(manager_a, holder_a, settings):
    upload = SimpleUploadedFile("big.pdf", b"%PDF-1.7\n" + b"0" * (5 * 1024 * 1024))

    with pytest.raises(ValidationFailed, match="the limit is"):
        make_layout(manager_a, holder_a, artwork=upload)


def test_601a10_a_pdf_and_clean_svg_artwork_are_accepted(manager_a, holder_a):
    pdf = make_layout(manager_a, holder_a, artwork=SimpleUploadedFile("a.bin", b"%PDF-1.7\n%%EOF"))
    svg = make_layout(
        manager_a,
        holder_a,
        artwork=SimpleUploadedFile(
            "a.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><rect width="4"/></svg>'
        ),
    )

    assert (pdf.artwork_content_type, svg.artwork_content_type) == (
        "application/pdf",
        "image/svg+xml",
    )
    assert pdf.artwork.name.endswith(".pdf")


def test_permission_and_status_are_checked_before_the_input(
    manager_a, manager_b, officer, holder_a
):
    layout = make_layout(manager_a, holder_a)

    with pytest.raises(NotPermitted):
        layout_update(actor=manager_b, layout=layout, wheel_order="nonsense")
    layout_submit(actor=manager_a, layout=layout)
    with pytest.raises(Conflict):
        layout_update(actor=manager_a, layout=layout, wheel_order="nonsense")
    with pytest.raises(NotPermitted):
        layout_reject(actor=manager_a, layout=layout, reason="")


def test_four_eyes_whoever_edited_a_draft_cannot_decide_it(superuser, manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    layout_update(actor=superuser, layout=layout, title="Rewritten by the superuser")
    layout = layout_submit(actor=manager_a, layout=layout)

    with pytest.raises(NotPermitted, match="four-eyes"):
        _approve(superuser, layout)
    layout.refresh_from_db()
    assert layout.status == RecordStatus.SUBMITTED
    assert sorted(layout.author_ids) == sorted([manager_a.pk, superuser.pk])


def test_an_approval_that_could_never_hold_is_refused(manager_a, officer, holder_a):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    with pytest.raises(ValidationFailed, match="would never hold"):
        _approve(
            officer,
            layout,
            effective_date=datetime.date(2025, 7, 1),
            expiry_date=datetime.date(2025, 7, 2),
        )


def test_617b8_sunset_nothing_is_approved_once_the_regulation_has_expired(
    manager_a, officer, holder_a, monkeypatch
):
    from portal.compliance.services import workflow

    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))
    sunset = datetime.datetime(2028, 6, 14, 9, 0, tzinfo=datetime.UTC)
    monkeypatch.setattr(workflow.timezone, "now", lambda: sunset)

    with pytest.raises(Conflict, match="617b.8 expired on 2028-06-14"):
        _approve(officer, layout, expiry_date=datetime.date(2028, 6, 14))


def test_an_edit_that_changes_nothing_writes_no_event(manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)
    events = events_written()

    layout_update(actor=manager_a, layout=layout, title=layout.title)

    assert events_written() == events


def test_601a10_a_svg_may_reference_its_own_gradients(manager_a, holder_a):
    svg = (
        b'<svg xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g"/></defs>'
        b'<rect fill="url(#g)" width="4"/></svg>'
    )

    layout = make_layout(manager_a, holder_a, artwork=SimpleUploadedFile("g.svg", svg))

    assert layout.artwork_content_type == "image/svg+xml"


def test_617b8_c_a_black_first_layout_is_created_submitted_and_approved(
    manager_a, officer, holder_a
):
    layout = make_layout(manager_a, holder_a, first_colour="black")
    layout = layout_submit(actor=manager_a, layout=layout)
    layout = _approve(officer, layout)

    layout.refresh_from_db()
    assert (layout.status, layout.first_colour) == (RecordStatus.APPROVED, "black")
    wheel = layout.wheel()
    assert wheel.first == "black"
    assert wheel.black == {1, 3, 5, 8, 10, 12}  # the standard order's red, swapped
    assert wheel.red == {2, 4, 6, 7, 9, 11}
    for action in ("layout.create", "layout.submit", "layout.approve"):
        assert AuditEvent.objects.get(action=action).after["first_colour"] == "black"


def test_617b8_c_a_layout_is_red_first_unless_told(manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    assert layout.first_colour == "red"
    assert layout.wheel().red == {1, 3, 5, 8, 10, 12}


def test_617b8_c_an_amendment_copies_the_first_colour(manager_a, officer, holder_a):
    first = approved_layout(manager_a, officer, holder_a, first_colour="black")

    second = layout_amend(actor=manager_a, layout=first)

    assert second.first_colour == "black"
    assert second.wheel() == first.wheel()
    assert AuditEvent.objects.get(action="layout.amend").after["first_colour"] == "black"


def test_617b8_c_a_draft_changes_its_first_colour_alone_with_an_event(manager_a, holder_a):
    layout = make_layout(manager_a, holder_a)

    layout = layout_update(actor=manager_a, layout=layout, first_colour="black")

    assert (layout.first_colour, layout.wheel_order) == ("black", STANDARD_ORDER)
    event = AuditEvent.objects.get(action="layout.update")
    assert (event.before["first_colour"], event.after["first_colour"]) == ("red", "black")


@pytest.mark.parametrize("colour", ["white", "green", "", None, ["black"]])
def test_617b8_c_a_first_colour_other_than_red_or_black_is_refused(manager_a, holder_a, colour):
    with pytest.raises(ValidationFailed) as caught:
        make_layout(manager_a, holder_a, first_colour=colour)
    assert caught.value.field_errors["first_colour"][0].startswith("§ 617b.8(c): ")
    assert Layout.objects.count() == 0

    layout = make_layout(manager_a, holder_a)
    events = events_written()
    with pytest.raises(ValidationFailed) as caught:
        layout_update(actor=manager_a, layout=layout, first_colour=colour)
    assert "must be 'red' or 'black'" in caught.value.field_errors["first_colour"][0]
    layout.refresh_from_db()
    assert layout.first_colour == "red"
    assert events_written() == events
