"""The audit trail reads like a record (§ 811a.7): people and records by their names, each
action by its label, an event's before and after as labelled values (names, dollars,
Pennsylvania times, Yes/No, "—"), the stored JSON folded away for whoever needs it."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model

from portal.audit.models import AuditEvent
from portal.audit.presenters import ACTION_LABELS, Names, action_label, field_label, shown
from portal.compliance.services.layouts import layout_update
from portal.compliance.services.paytables import paytable_approve, paytable_submit
from tests.portal.factories import make_layout, make_paytable
from tests.portal.page_helpers import text

pytestmark = pytest.mark.django_db

RAW_RECORD = re.compile(r'<details class="raw-record">.*?</details>', re.S)


def _name(user, first: str, last: str) -> None:
    get_user_model().objects.filter(pk=user.pk).update(first_name=first, last_name=last)


def _event(action: str) -> AuditEvent:
    return AuditEvent.objects.filter(action=action).order_by("-sequence").first()


def _main(page: str) -> str:
    """The page's own content, the folded raw record left out."""
    return RAW_RECORD.sub("", page[page.index("<main") : page.index("</main>")])


def _values(page: str) -> dict[str, tuple[str, str]]:
    """The before/after table: each row's label and its two values as read."""
    rows = re.findall(
        r'<th scope="row">([^<]+)(?:<span[^>]*>[^<]*</span>)?</th>\s*'
        r'<td class="value">(.*?)</td>\s*<td class="value">(.*?)</td>',
        page,
        re.S,
    )
    plain = lambda cell: re.sub(r"<[^>]+>", "", cell).replace(" not recorded", "").strip()  # noqa: E731
    return {label: (plain(before), plain(after)) for label, before, after in rows}


def test_811a7_an_event_names_the_people_and_labels_each_value_before_and_after(
    login, auditor, manager_a, officer, holder_a
):
    _name(manager_a, "Dana", "Reyes")
    _name(officer, "Sam", "Ortiz")
    paytable = paytable_submit(
        actor=manager_a, paytable=make_paytable(manager_a, holder_a, name="House table")
    )
    paytable_approve(actor=officer, paytable=paytable)
    event = _event("paytable.approve")

    response = login(auditor).get(f"/audit/events/{event.pk}/")

    page = text(response)
    main = _main(page)
    values = _values(main)
    assert response.status_code == 200
    assert "<dt>Who</dt><dd>Sam Ortiz</dd>" in main
    assert "<dt>What happened</dt><dd>Approved</dd>" in main
    assert f'<a href="/compliance/paytables/{paytable.pk}/">Paytable “House table” v1</a>' in main
    assert values["Decided by"] == ("—", "Sam Ortiz")
    assert values["Created by"] == ("Dana Reyes", "Dana Reyes")
    assert values["Written by"] == ("Dana Reyes", "Dana Reyes")
    assert values["Status"] == ("Submitted", "Approved")
    assert values["Certificate holder"] == ("Keystone Casino", "Keystone Casino")
    assert values["Odds: Straight up"] == ("11 to 1", "11 to 1")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d E[SD]T", values["Decided"][1])
    # No field names, codes or JSON outside the folded raw record.
    for raw in ("_id", "null", "paytable.approve", "None", '"', "{"):
        assert raw not in re.sub(r"<[^>]+>", "", main), raw


def test_811a7_the_raw_record_is_folded_away_for_verification(login, auditor, manager_a, holder_a):
    make_layout(manager_a, holder_a, title="Main floor")
    event = _event("layout.create")

    page = text(login(auditor).get(f"/audit/events/{event.pk}/"))

    raw = RAW_RECORD.search(page).group(0)
    assert "<summary>Raw record (as stored and hashed)</summary>" in raw
    assert "<code>layout.create</code>" in raw
    assert "&quot;created_by_id&quot;: " in raw
    assert '<details class="raw-record" open' not in page


def test_811a7_money_shows_in_dollars_and_an_account_by_its_player_and_holder(
    login, auditor, player, funded_player, holder_a
):
    _name(player, "Pat", "Lee")
    event = _event("account.deposit")

    main = _main(text(login(auditor).get(f"/audit/events/{event.pk}/")))

    values = _values(main)
    assert "<dt>What happened</dt><dd>Deposit recorded</dd>" in main
    assert "Player account of Pat Lee at Keystone Casino" in main
    assert values["Amount"][1] == f"${event.after['amount'] // 100:,}.00"
    assert values["Balance after"][1].startswith("$")


def test_811a7_the_list_reads_who_what_and_to_what_by_name(login, auditor, manager_a, holder_a):
    _name(manager_a, "Dana", "Reyes")
    layout = make_layout(manager_a, holder_a, title="Main floor")
    layout_update(actor=manager_a, layout=layout, title="High-limit room")

    page = text(login(auditor).get("/audit/?action=layout."))

    assert '<td data-label="Who">Dana Reyes</td>' in page
    assert '<td data-label="What happened">Edited</td>' in page
    assert '<td data-label="What happened">Created</td>' in page
    assert "layout.update" not in re.sub(r"<select.*?</select>", "", page, flags=re.S)
    assert '<option value="layout.update">Edited</option>' in page  # the filter, by label


@pytest.mark.parametrize("layouts", [1, 10])
def test_811a7_the_list_names_everything_in_a_constant_number_of_queries(
    login, django_assert_num_queries, auditor, manager_a, holder_a, layouts
):
    _name(manager_a, "Dana", "Reyes")
    for number in range(layouts):
        layout = make_layout(manager_a, holder_a, title=f"Layout {number}")
        layout_update(actor=manager_a, layout=layout, title=f"Renamed {number}")
    client = login(auditor)

    # Session, user, roles; the count and the rows; the people who acted; the layouts.
    with django_assert_num_queries(8):
        response = client.get("/audit/?action=layout.")

    page = text(response)
    assert page.count('<td data-label="Who">Dana Reyes</td>') == 2 * layouts
    assert "Layout “Renamed 0” v1" in page


@pytest.mark.parametrize("events", [1, 10])
def test_811a7_an_event_page_costs_the_same_whatever_its_record_mentions(
    login, django_assert_num_queries, auditor, manager_a, holder_a, events
):
    for number in range(events):
        layout_update(
            actor=manager_a,
            layout=make_layout(manager_a, holder_a, title=f"Layout {number}"),
            title=f"Renamed {number}",
        )
    client = login(auditor)
    event = _event("layout.update")

    # Session, user, roles; the event, its neighbours; the people, the holder's name (from
    # the trail) and the layout's title.
    with django_assert_num_queries(10):
        assert client.get(f"/audit/events/{event.pk}/").status_code == 200


def test_811a7_every_event_of_an_object_is_one_link_away_and_named(
    login, auditor, manager_a, holder_a
):
    layout = make_layout(manager_a, holder_a, title="Main floor")
    layout_update(actor=manager_a, layout=layout, title="High-limit room")
    make_layout(manager_a, holder_a, title="Elsewhere")
    client = login(auditor)
    event = _event("layout.update")

    detail = text(client.get(f"/audit/events/{event.pk}/"))
    link = f"/audit/?object_type=layout&amp;object_id={layout.pk}"
    narrowed = text(client.get(link.replace("&amp;", "&")))

    assert f'href="{link}"' in detail
    assert "Showing the events of Layout “High-limit room” v1." in narrowed
    assert narrowed.count('<td data-label="What happened">') == 2
    assert "Elsewhere" not in narrowed


def test_811a7_the_page_filter_refuses_an_action_it_does_not_offer_and_the_api_reads_codes(
    login, auditor, manager_a, holder_a
):
    make_layout(manager_a, holder_a)
    client = login(auditor)

    page = client.get("/audit/?action=drop+table")
    api = client.get("/api/audit-events/?action=layout.cr&object_type=layout")

    assert page.status_code == 400
    assert "Select a valid choice" in text(page)
    assert api.status_code == 200
    assert [row["action"] for row in api.json()["results"]] == ["layout.create"]


def test_811a7_every_label_reads_as_words_and_an_unknown_action_reads_as_words_too():
    for action in ACTION_LABELS:
        assert "." not in action_label(action) and "_" not in action_label(action)
    assert action_label("paytable.amend") == "Amendment started"
    assert action_label("layout.request_changes") == "Changes requested"
    assert action_label("rules_submission.expire") == "Expired"
    assert action_label("gizmo.spin_twice") == "Gizmo: spin twice"
    assert field_label("odds.split") == "Odds: Split"
    assert field_label("games[0].paytable_id") == "Games listed 1: Paytable"
    assert field_label("created_by_id") == "Created by"
    assert field_label("some_new_thing_id") == "Some new thing"


def test_values_read_as_people_read_them():
    names = Names(people={4: "Dana Reyes"}, loaded={"holder": {2: "Keystone Casino"}})

    assert shown("created_by_id", 4, names) == "Dana Reyes"
    assert shown("author_ids", [4, 9], names) == "Dana Reyes, person 9 (no longer on record)"
    assert shown("holder_id", 2, names) == "Keystone Casino"
    assert shown("amount", 125050, names) == "$1,250.50"
    assert shown("amount", -100, names) == "−$1.00"
    assert shown("limits", {"wager": 50000}, names) == "Largest wager: $500.00"
    assert shown("decided_by_id", None, names) == "—"
    assert shown("active", True, names) == "Yes"
    assert shown("active", False, names) == "No"
    assert shown("status", "changes_requested", names) == "Changes requested"
    assert shown("odds.split", "11/2", names) == "11/2 to 1"
    assert shown("created_at", "2026-07-01T16:00:00+00:00", names) == "2026-07-01 12:00:00 EDT"
    assert shown("expiry_date", "2026-12-26", names) == "2026-12-26"
