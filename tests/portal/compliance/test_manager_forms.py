"""What managers see of their own work and how their forms answer (issue 15): "My
submissions", the offering form narrowed to what the rules submission lists (§ 601a.2),
and every error at once, each once, on its field."""

from __future__ import annotations

import datetime
import re

import pytest
import time_machine

from portal.access.roles import Role
from portal.compliance import messages as msg
from portal.compliance.forms import LIMITS_ORDER_PLAIN
from portal.compliance.models import Offering, Paytable, RulesSubmission
from portal.compliance.services.layouts import layout_submit
from portal.compliance.services.paytables import paytable_approve, paytable_submit, paytable_update
from portal.compliance.services.rules import rules_submission_submit
from portal.core.padates import pa_time
from tests.portal.factories import (
    MINIMUM_ODDS,
    approved_layout,
    make_layout,
    make_offering,
    make_paytable,
    make_rules,
    make_user,
)
from tests.portal.page_helpers import field_errors, form_errors, rules_form, shown_once, text

pytestmark = pytest.mark.django_db

SUNSET_PASSED = datetime.datetime(2028, 6, 20, 16, 0, tzinfo=datetime.UTC)


def _options(page: str, field: str) -> list[str]:
    """The labels of the options of the select named ``field``, the empty one left out."""
    select = re.search(rf'<select name="{field}"[^>]*>(.*?)</select>', page, re.S)
    assert select, f"no select {field}"
    options = re.findall(r'<option value="(\d+)"[^>]*>([^<]*)</option>', select.group(1))
    return [label for _, label in options]


def _selected(page: str, field: str) -> str | None:
    select = re.search(rf'<select name="{field}"[^>]*>(.*?)</select>', page, re.S)
    chosen = re.search(r'<option value="(\d+)" selected>', select.group(1))
    return chosen.group(1) if chosen else None


# --- My submissions -------------------------------------------------------------------


@pytest.fixture
def own_work(manager_a, officer, holder_a):
    """manager_a's layout, paytable, rules submission (submitted) and offering."""
    layout = make_layout(manager_a, holder_a, title="Keystone floor")
    paytable = make_paytable(manager_a, holder_a, name="Keystone odds")
    rules = make_rules(manager_a, holder_a, paytable, layout, title="Keystone rules")
    rules = rules_submission_submit(actor=manager_a, submission=rules)
    offering = make_offering(manager_a, holder_a, rules, layout, paytable, name="Keystone 1")
    return layout, paytable, rules, offering


def test_my_submissions_lists_exactly_the_managers_own_records(
    login, manager_a, manager_b, holder_a, holder_b, own_work
):
    layout, paytable, rules, offering = own_work
    colleague = make_user("colleague_a", Role.MANAGER, holder_a)
    make_paytable(colleague, holder_a, name="Colleague odds")
    make_layout(manager_b, holder_b, title="Susquehanna floor")
    make_paytable(manager_b, holder_b, name="Susquehanna odds")

    response = login(manager_a).get("/compliance/mine/")

    page = text(response)
    assert response.status_code == 200
    rows = re.findall(
        r"<tr>\s*<td[^>]*>([^<]+)</td>\s*<td[^>]*><a href=\"([^\"]+)\">([^<]+)</a>", page
    )
    assert sorted(rows) == sorted(
        [
            ("Layout", f"/compliance/layouts/{layout.pk}/", "Keystone floor"),
            ("Paytable", f"/compliance/paytables/{paytable.pk}/", "Keystone odds"),
            ("Rules submission", f"/compliance/rules/{rules.pk}/", "Keystone rules"),
            ("Offering", f"/compliance/offerings/{offering.pk}/", "Keystone 1"),
        ]
    )
    assert "Colleague odds" not in page and "Susquehanna" not in page
    assert '<span class="status status-submitted">Submitted</span>' in page
    assert '<span class="status status-draft">Draft</span>' in page
    assert '<span class="status status-active">Active</span>' in page
    offering.refresh_from_db()
    assert pa_time(offering.updated_at).strftime("%Y-%m-%d %H:%M %Z") in page
    assert "4 in all." in page


def test_my_submissions_are_newest_change_first(login, manager_a, holder_a, own_work):
    layout, paytable, _rules, _offering = own_work
    paytable_update(actor=manager_a, paytable=paytable, name="Keystone odds, revised")

    page = text(login(manager_a).get("/compliance/mine/"))

    titles = re.findall(r'<td[^>]*><a href="[^"]+">([^<]+)</a></td>', page)
    assert titles[0] == "Keystone odds, revised"
    assert titles.index("Keystone 1") < titles.index("Keystone floor")


def test_my_submissions_shows_what_a_manager_submitted_of_a_colleagues_draft(
    login, manager_a, holder_a
):
    colleague = make_user("colleague_a", Role.MANAGER, holder_a)
    layout = make_layout(colleague, holder_a, title="Drawn by a colleague")
    layout_submit(actor=manager_a, layout=layout)

    page = text(login(manager_a).get("/compliance/mine/"))

    assert "Drawn by a colleague" in page


def test_a_superuser_who_drafts_sees_their_own_with_the_holder(login, superuser, holder_b):
    make_paytable(superuser, holder_b, name="Drafted by root")

    page = text(login(superuser).get("/compliance/mine/"))

    assert "Drafted by root" in page and "Susquehanna Gaming" in page


def test_those_who_do_not_draft_have_no_submissions_page(login, officer, auditor, player):
    for user in (officer, auditor, player):
        assert login(user).get("/compliance/mine/").status_code == 403


@pytest.mark.parametrize("rows", [1, 6])
def test_my_submissions_run_a_constant_number_of_queries(
    login, django_assert_num_queries, manager_a, holder_a, rows
):
    for number in range(rows):
        layout = make_layout(manager_a, holder_a, title=f"Layout {number}")
        paytable = make_paytable(manager_a, holder_a, name=f"Paytable {number}")
        rules = make_rules(manager_a, holder_a, paytable, layout, title=f"Rules {number}")
        make_offering(manager_a, holder_a, rules, layout, paytable, name=f"Table {number}")
    client = login(manager_a)

    # Session, user, roles and holder; then the page's count and its rows (one UNION each).
    with django_assert_num_queries(6):  # with the header's unread-notification count
        response = client.get("/compliance/mine/")

    assert response.status_code == 200
    assert f"{rows * 4} in all." in text(response)


# --- The offering form, narrowed to the listing ---------------------------------------


@pytest.fixture
def two_listings(manager_a, officer, holder_a):
    """Two approved rules submissions, each listing its own layout and paytable."""
    first = approved_layout(manager_a, officer, holder_a, title="First floor")
    second = approved_layout(manager_a, officer, holder_a, title="Second floor")
    paytables = []
    for name in ("Standard", "Generous"):
        paytable = make_paytable(manager_a, holder_a, name=name)
        paytable = paytable_submit(actor=manager_a, paytable=paytable)
        paytables.append(paytable_approve(actor=officer, paytable=paytable))
    rules = [
        make_rules(manager_a, holder_a, paytable, layout, title=title)
        for paytable, layout, title in (
            (paytables[0], first, "First rules"),
            (paytables[1], second, "Second rules"),
        )
    ]
    return rules, (first, second), paytables


def test_the_rules_select_asks_htmx_for_the_listed_choices(login, manager_a, two_listings):
    page = text(login(manager_a).get("/compliance/offerings/new/"))

    select = re.search(r'<select name="rules_submission"[^>]*>', page).group(0)
    assert 'hx-get="/compliance/offerings/listed/"' in select
    assert 'hx-target="#listed-choices"' in select and 'hx-swap="innerHTML"' in select
    assert '<div id="listed-choices"' in page


def test_the_listed_choices_are_only_what_the_submission_lists(login, manager_a, two_listings):
    rules, layouts, paytables = two_listings

    response = login(manager_a).get(
        "/compliance/offerings/listed/", {"rules_submission": rules[1].pk}
    )

    page = text(response)
    assert response.status_code == 200
    assert "<html" not in page  # a fragment for htmx to swap in
    assert _options(page, "layout") == ["Second floor v1 (approved)"]
    assert _options(page, "paytable") == ["Generous v1 (approved)"]
    # The only listed one is chosen.
    assert _selected(page, "layout") == str(layouts[1].pk)
    assert _selected(page, "paytable") == str(paytables[1].pk)


def test_without_a_submission_the_choices_are_all_the_holders_own(
    login, manager_a, manager_b, holder_b, two_listings
):
    make_layout(manager_b, holder_b, title="Their floor")

    page = text(login(manager_a).get("/compliance/offerings/listed/"))

    assert _options(page, "layout") == ["Second floor v1 (approved)", "First floor v1 (approved)"]


def test_another_holders_submission_narrows_nothing(
    login, manager_a, manager_b, holder_b, two_listings
):
    their_layout = make_layout(manager_b, holder_b, title="Their floor")
    their_rules = make_rules(
        manager_b, holder_b, make_paytable(manager_b, holder_b), their_layout, title="Theirs"
    )

    page = text(
        login(manager_a).get("/compliance/offerings/listed/", {"rules_submission": their_rules.pk})
    )

    assert "Their floor" not in page
    assert len(_options(page, "layout")) == 2


def test_the_edit_page_offers_what_the_offerings_submission_lists(
    login, manager_a, holder_a, two_listings
):
    rules, layouts, paytables = two_listings
    offering = make_offering(manager_a, holder_a, rules[0], layouts[0], paytables[0])

    page = text(login(manager_a).get(f"/compliance/offerings/{offering.pk}/edit/"))

    assert _options(page, "layout") == ["First floor v1 (approved)"]
    assert _options(page, "paytable") == ["Standard v1 (approved)"]


def test_601a2_a_layout_the_submission_does_not_list_is_refused_on_its_field(
    login, manager_a, two_listings
):
    rules, layouts, paytables = two_listings
    data = {
        "name": "Table 7",
        "rules_submission": rules[0].pk,
        "layout": layouts[1].pk,  # listed by the other submission
        "paytable": paytables[0].pk,
    }

    response = login(manager_a).post("/compliance/offerings/new/", data)

    page = text(response)
    assert response.status_code == 400
    errors = field_errors(response, "id_layout")
    assert "§ 601a.2" in errors
    assert "“First rules” v1 does not list Jinzi Roulette with this layout" in errors
    assert shown_once(page, "does not list Jinzi Roulette")
    assert 'id="id_paytable_error"' not in page
    assert not Offering.objects.filter(name="Table 7").exists()


def test_the_listed_layout_and_paytable_are_accepted(login, manager_a, two_listings):
    rules, layouts, paytables = two_listings
    data = {
        "name": "Table 8",
        "rules_submission": rules[1].pk,
        "layout": layouts[1].pk,
        "paytable": paytables[1].pk,
    }

    response = login(manager_a).post("/compliance/offerings/new/", data)

    assert response.status_code == 302
    assert Offering.objects.get(name="Table 8").layout == layouts[1]


# --- Every error at once, each once, on its field -------------------------------------


def _paytable_form(**odds):
    return {"name": "House special", **{k: str(v) for k, v in {**MINIMUM_ODDS, **odds}.items()}}


def test_617b8_f_a_below_minimum_odds_error_shows_once_on_its_field(login, manager_a):
    response = login(manager_a).post("/compliance/paytables/new/", _paytable_form(straight=10))

    page = text(response)
    assert response.status_code == 400
    message = "§ 617b.8(f): Straight up pays 10 to 1, below the minimum 11 to 1"
    assert message in field_errors(response, "id_straight")
    assert shown_once(page, "Straight up pays 10 to 1")
    assert 'class="errorlist nonfield"' not in page
    assert Paytable.objects.count() == 0


def test_each_bad_odds_is_shown_on_its_own_field_with_the_name_error(login, manager_a):
    data = _paytable_form(split=4, corner="2.5")
    data["name"] = ""

    response = login(manager_a).post("/compliance/paytables/new/", data)

    page = text(response)
    assert "Split pays 4 to 1, below the minimum 5 to 1" in field_errors(response, "id_split")
    assert "Enter the odds for Corner as a whole number" in field_errors(response, "id_corner")
    assert "Enter the name" in field_errors(response, "id_name")
    assert shown_once(page, "Split pays 4 to 1")
    assert shown_once(page, "Enter the odds for Corner")
    assert 'id="id_straight_error"' not in page


def test_the_edit_form_shows_an_odds_error_once_too(login, manager_a, holder_a):
    paytable = make_paytable(manager_a, holder_a)

    response = login(manager_a).post(
        f"/compliance/paytables/{paytable.pk}/edit/", _paytable_form(column=1)
    )

    assert "Column pays 1 to 1" in field_errors(response, "id_column")
    assert shown_once(text(response), "Column pays 1 to 1")


def test_617b8_past_sunset_expiry_shows_with_a_missing_title(login, manager_a, parts):
    data = rules_form(*parts, title="", expiry_date="2029-01-01")

    response = login(manager_a).post("/compliance/rules/new/", data)

    page = text(response)
    assert response.status_code == 400
    assert "Enter the title" in field_errors(response, "id_title")
    expiry = msg.EXPIRY_AFTER_SUNSET.format(expiry="2029-01-01")
    assert expiry in field_errors(response, "id_expiry_date")
    assert shown_once(page, "an approval cannot run past it")
    assert not RulesSubmission.objects.exists()


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
def test_617b8_g_a_past_sunset_expiry_shows_with_an_odd_chip_unit(login, manager_a, parts):
    data = rules_form(*parts, chip_unit="1.01", expiry_date="2029-01-01")

    response = login(manager_a).post("/compliance/rules/new/", data)

    page = text(response)
    assert "§ 617b.8(g)" in field_errors(response, "id_chip_unit")
    assert "2028-06-14" in field_errors(response, "id_expiry_date")
    assert shown_once(page, "an approval cannot run past it")
    assert shown_once(page, "$1.01 is an odd number of cents")


def test_the_rules_edit_form_shows_the_date_errors_with_the_others(
    login, manager_a, holder_a, parts
):
    paytable, layout = parts
    submission = make_rules(manager_a, holder_a, paytable, layout)
    data = rules_form(
        paytable, layout, effective_date="2025-01-01", expiry_date="2029-01-01", max_wager="0.50"
    )

    response = login(manager_a).post(f"/compliance/rules/{submission.pk}/edit/", data)

    assert "takes effect on 2025-06-14" in field_errors(response, "id_effective_date")
    assert "2028-06-14" in field_errors(response, "id_expiry_date")
    assert LIMITS_ORDER_PLAIN in field_errors(response, "id_max_wager")


def test_617b8_sunset_a_new_offering_is_refused_with_the_other_errors(
    login, manager_a, live_offering
):
    data = {
        "name": "",
        "rules_submission": live_offering.rules_submission_id,
        "layout": live_offering.layout_id,
        "paytable": live_offering.paytable_id,
    }
    with time_machine.travel(SUNSET_PASSED, tick=False):
        response = login(manager_a).post("/compliance/offerings/new/", data)

    page = text(response)
    assert response.status_code == 400
    assert "no offering for Jinzi Roulette can be set up" in form_errors(response)
    assert "Enter the name" in field_errors(response, "id_name")
    assert shown_once(page, "no approval can hold under it")
