import re

import pytest

from portal.audit.models import AuditEvent
from portal.compliance import messages as msg
from portal.compliance.models import Paytable, RecordStatus
from portal.compliance.services.paytables import paytable_approve
from tests.portal.factories import MINIMUM_ODDS, acknowledged, make_paytable
from tests.portal.page_helpers import field_errors, submitted_paytable, text

pytestmark = pytest.mark.django_db

GENEROUS = {**MINIMUM_ODDS, "straight": 12}  # a straight up then pays the player on average


def _form(**odds):
    return {"name": "House special", **{k: str(v) for k, v in {**MINIMUM_ODDS, **odds}.items()}}


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_the_form_has_a_labelled_field_per_wager_with_its_minimum(login, manager_a):
    page = text(login(manager_a).get("/compliance/paytables/new/"))

    for kind, label, minimum in (
        ("straight", "Straight up", "11 to 1"),
        ("three_numbers", "Three numbers", "3 to 1"),
        ("big", "Big", "1 to 1"),
    ):
        assert f'<label for="id_{kind}">{label}:</label>' in page
        assert f"at least {minimum}" in page
        # A phone offers the keyboard with "/" for odds such as 23/2, not a decimal keypad.
        field = re.search(rf'<input[^>]*id="id_{kind}"[^>]*>', page).group()
        assert 'inputmode="text"' in field
    assert 'aria-live="polite"' in page
    assert 'hx-post="/compliance/paytables/preview/"' in page
    assert "1/26" in page and "1/13" in page  # the minimum table's edges, shown from the start


def test_617b8_f_a_manager_drafts_a_paytable_with_fractional_odds(login, manager_a, holder_a):
    response = login(manager_a).post("/compliance/paytables/new/", _form(split="23/2"))

    paytable = Paytable.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/compliance/paytables/{paytable.pk}/"
    assert (paytable.holder, paytable.name) == (holder_a, "House special")
    assert paytable.odds["split"] == "23/2"
    assert paytable.odds["straight"] == "11"
    assert AuditEvent.objects.get(action="paytable.create").object_id == str(paytable.pk)


def test_617b8_f_paytable_form_shows_below_minimum_error_with_clause(login, manager_a):
    response = login(manager_a).post("/compliance/paytables/new/", _form(straight=10))

    assert response.status_code == 400
    errors = field_errors(response, "id_straight")  # on the wager's own field, once
    assert errors.count("§ 617b.8(f)") == 1
    assert "Straight up pays 10 to 1, below the minimum 11 to 1" in errors
    assert Paytable.objects.count() == 0


def test_unreadable_odds_are_refused_with_the_wager_named(login, manager_a):
    response = login(manager_a).post("/compliance/paytables/new/", _form(corner="2.5"))

    assert response.status_code == 400
    errors = field_errors(response, "id_corner")
    assert "Enter the odds for Corner as a whole number like 11" in errors
    assert "(str)" not in text(response) and "got" not in errors
    assert Paytable.objects.count() == 0


def test_a_missing_odds_field_is_required(login, manager_a):
    data = _form()
    del data["column"]

    response = login(manager_a).post("/compliance/paytables/new/", data)

    assert response.status_code == 400
    assert "Enter the odds for Column, at least 2 to 1" in field_errors(response, "id_column")


def test_the_preview_recomputes_the_edge_table(login, manager_a):
    response = login(manager_a).post("/compliance/paytables/preview/", _form(split="11/2"))

    page = text(response)
    assert response.status_code == 200
    assert "<html" not in page  # a fragment for htmx to swap in
    assert "11 to 2" in page
    # The range of hold follows the typed odds: splits at 11 to 2 give −1/26 off 0, 0 on it.
    assert re.search(r"Hold, wagers not covering 0</th>.*?<td>-1/26 – 1/26</td>", page, re.S)
    assert re.search(r"Hold, wagers covering 0</th>.*?<td>0 – 1/13</td>", page, re.S)
    assert "Theoretical hold" not in page


def test_the_preview_flags_an_edge_of_zero_or_less(login, manager_a):
    page = text(login(manager_a).post("/compliance/paytables/preview/", _form(**GENEROUS)))

    assert "House edge of zero or less" in page
    assert "edge ≤ 0" in page


def test_the_preview_explains_odds_it_cannot_read(login, manager_a):
    page = text(login(manager_a).post("/compliance/paytables/preview/", _form(straight=9)))

    assert "§ 617b.8(f): Straight up pays 9 to 1, below the minimum 11 to 1" in page


def test_the_preview_is_for_drafters(login, officer):
    assert login(officer).post("/compliance/paytables/preview/", _form()).status_code == 403


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_g_detail_shows_exact_edges_and_the_range_of_hold(
    login, auditor, manager_a, holder_a
):
    paytable = make_paytable(manager_a, holder_a)

    page = text(login(auditor).get(f"/compliance/paytables/{paytable.pk}/"))

    assert "Straight up" in page
    assert "1/26 – 1/13" in page  # straights differ by whether they cover 0
    assert "3.846 %" in page
    # reading:expected-win: the two edges a stake can earn, not a mean over the 52 spots.
    assert re.search(
        r"Hold, wagers not covering 0</th>.*?<td>46</td>\s*<td>1/26</td><td>3.846 %</td>",
        page,
        re.S,
    )
    assert re.search(
        r"Hold, wagers covering 0</th>.*?<td>6</td>\s*<td>1/13</td><td>7.692 %</td>", page, re.S
    )
    assert "Theoretical hold" not in page and "29/676" not in page
    assert "House edge of zero or less" not in page


@pytest.mark.clause("617b.8(f)", kind="related")
def test_617b8_f_a_flagged_paytable_is_shown_loudly(login, officer, manager_a, holder_a):
    paytable = submitted_paytable(manager_a, holder_a, GENEROUS)

    page = text(login(officer).get(f"/compliance/paytables/{paytable.pk}/"))

    assert "House edge of zero or less" in page
    assert 'class="flagged"' in page
    assert 'id="id_approve_override_reason"' in page


def test_the_override_field_is_asked_for_only_when_flagged(login, officer, manager_a, holder_a):
    paytable = submitted_paytable(manager_a, holder_a)

    page = text(login(officer).get(f"/compliance/paytables/{paytable.pk}/"))

    assert 'id="id_approve_reason"' in page
    assert 'id="id_approve_override_reason"' not in page


@pytest.mark.clause("617b.8(f)", kind="related")
@pytest.mark.clause("reading:edge-acknowledgement", kind="proves")
def test_617b8_f_approving_a_flagged_paytable_needs_the_list_acknowledged_and_a_reason(
    login, officer, manager_a, holder_a
):
    paytable = submitted_paytable(manager_a, holder_a, GENEROUS)
    client = login(officer)

    page = client.get(f"/compliance/paytables/{paytable.pk}/").content.decode()
    assert "Wagers approving leaves with a house edge of zero or less" in page
    fingerprint = acknowledged(paytable)
    assert (
        f'name="edge_acknowledged" id="id_approve_edge_acknowledged" value="{fingerprint}"' in page
    )

    typed = {"step": "approve", "reason": "ok", "override_reason": "Promotional table"}
    alone = client.post(f"/compliance/paytables/{paytable.pk}/", typed)
    assert alone.status_code == 400
    assert 'href="/regulation/#clause-readingedge-acknowledgement"' in alone.content.decode()
    stale = client.post(
        f"/compliance/paytables/{paytable.pk}/", {**typed, "edge_acknowledged": "0" * 64}
    )
    assert stale.status_code == 409  # the list as it now is, shown again
    refused = client.post(
        f"/compliance/paytables/{paytable.pk}/",
        {"step": "approve", "reason": "ok", "edge_acknowledged": fingerprint},
    )
    paytable.refresh_from_db()
    assert refused.status_code == 400
    errors = field_errors(refused, "id_approve_override_reason")
    assert "§ 617b.8(f)" in errors and "override reason" in errors
    assert paytable.status == RecordStatus.SUBMITTED

    approved = client.post(
        f"/compliance/paytables/{paytable.pk}/",
        {
            "step": "approve",
            "reason": "ok",
            "override_reason": "Promotional table, capped stakes",
            "edge_acknowledged": fingerprint,
        },
    )
    paytable.refresh_from_db()
    assert approved.status_code == 302
    assert paytable.status == RecordStatus.APPROVED
    assert paytable.edge_override_reason == "Promotional table, capped stakes"


def test_a_paytable_goes_through_submit_request_changes_and_amend(
    login, manager_a, officer, holder_a
):
    paytable = make_paytable(manager_a, holder_a)

    assert (
        login(manager_a)
        .post(f"/compliance/paytables/{paytable.pk}/", {"step": "submit"})
        .status_code
        == 302
    )
    response = login(officer).post(
        f"/compliance/paytables/{paytable.pk}/",
        {"step": "request-changes", "reason": "Round the split"},
    )
    assert response.status_code == 302
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.CHANGES_REQUESTED

    login(manager_a).post(f"/compliance/paytables/{paytable.pk}/", {"step": "amend"})
    assert Paytable.objects.get(series=paytable.series, version=2).status == RecordStatus.DRAFT


def test_paytable_rejection_and_withdrawal(login, manager_a, officer, holder_a):
    rejected = submitted_paytable(manager_a, holder_a)
    approved = paytable_approve(actor=officer, paytable=submitted_paytable(manager_a, holder_a))
    client = login(officer)

    client.post(f"/compliance/paytables/{rejected.pk}/", {"step": "reject", "reason": "Typo"})
    client.post(f"/compliance/paytables/{approved.pk}/", {"step": "withdraw", "reason": "Replaced"})

    rejected.refresh_from_db()
    approved.refresh_from_db()
    assert (rejected.status, approved.status) == (RecordStatus.REJECTED, RecordStatus.WITHDRAWN)


def test_four_eyes_on_paytables(login, superuser, holder_a):
    paytable = submitted_paytable(superuser, holder_a)

    response = login(superuser).post(f"/compliance/paytables/{paytable.pk}/", {"step": "approve"})

    assert response.status_code == 403
    assert msg.FOUR_EYES_OWN_WORK.format(kind="paytable") in text(response)


def test_editing_a_draft_keeps_status_and_holder(login, manager_a, holder_a, holder_b):
    paytable = make_paytable(manager_a, holder_a)
    client = login(manager_a)

    shown = text(client.get(f"/compliance/paytables/{paytable.pk}/edit/"))
    response = client.post(
        f"/compliance/paytables/{paytable.pk}/edit/",
        {**_form(red="3/2"), "name": "Renamed", "status": "approved", "holder": holder_b.pk},
    )

    assert 'value="Standard"' in shown
    paytable.refresh_from_db()
    assert response.status_code == 302
    assert (paytable.name, paytable.odds["red"], paytable.status, paytable.holder) == (
        "Renamed",
        "3/2",
        RecordStatus.DRAFT,
        holder_a,
    )


def test_another_holders_paytable_is_not_found(login, manager_a, manager_b, holder_a):
    paytable = make_paytable(manager_a, holder_a)
    client = login(manager_b)

    assert client.get(f"/compliance/paytables/{paytable.pk}/").status_code == 404
    assert client.post(f"/compliance/paytables/{paytable.pk}/edit/", _form()).status_code == 404
    assert (
        client.post(f"/compliance/paytables/{paytable.pk}/", {"step": "submit"}).status_code == 404
    )


def test_a_superuser_chooses_the_holder_of_a_paytable(login, superuser, holder_a, holder_b):
    client = login(superuser)

    shown = text(client.get("/compliance/paytables/new/"))
    response = client.post("/compliance/paytables/new/", {**_form(), "holder": holder_b.pk})

    assert '<select name="holder"' in shown and "Susquehanna Gaming" in shown
    assert response.status_code == 302
    assert Paytable.objects.get().holder == holder_b


def test_officers_may_not_draft_paytables(login, officer):
    response = login(officer).post("/compliance/paytables/new/", _form())

    assert response.status_code == 403
    assert Paytable.objects.count() == 0
