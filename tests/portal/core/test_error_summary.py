"""A refused form opens with its error summary (GOV.UK's pattern): "There is a problem", every
error in plain words, each field's as a link to that field, the form's own errors too. The
shared field partials include it (``templates/core/_error_summary.html``), so every form
has it; ``site.js`` moves the focus to it on load (``tests/system/walk`` checks that)."""

from __future__ import annotations

import re

import pytest

from portal.accounts.views import TOKEN_DAYS_PLAIN
from portal.compliance.services.layouts import layout_submit
from tests.portal.factories import approved_layout, approved_paytable, make_layout
from tests.portal.page_helpers import error_summary, field_errors, rules_form, text
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db

LINK = re.compile(r'<a href="#([\w-]+)">(.*?)</a>', re.S)


@pytest.fixture
def parts(manager_a, officer, holder_a):
    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )


def _links(page: str) -> dict[str, list[str]]:
    """The summary's links, by the id of the field each leads to."""
    links: dict[str, list[str]] = {}
    for target, message in LINK.findall(error_summary(page)):
        links.setdefault(target, []).append(message)
    return links


def test_a_refused_form_lists_each_field_error_as_a_link_to_its_field(login, manager_a, parts):
    data = rules_form(*parts, title="", chip_unit="abc", min_wager="2.555")

    response = login(manager_a).post("/compliance/rules/new/", data)

    page = text(response)
    summary = error_summary(page)
    assert response.status_code == 400
    assert 'role="alert"' in summary and 'tabindex="-1"' in summary
    assert "There is a problem" in summary
    links = _links(page)
    # One link per field error, to the field that has it, saying what is on that field.
    assert sorted(links) == ["id_chip_unit", "id_min_wager", "id_title"]
    for target, messages in links.items():
        for message in messages:
            assert message in field_errors(response, target)
        assert f'id="{target}"' in page
    assert links["id_chip_unit"] == [
        "Enter the chip unit in dollars and cents, like 1.00 (at most two digits of cents)."
    ]
    # At the top of the form, before its first field.
    assert page.index("There is a problem") < page.index('id="id_title"')
    assert not developer_words(shown_text(summary))


def test_the_forms_own_error_is_in_the_summary_too(login, client, officer):
    response = client.post(
        "/accounts/login/", {"username": "officer", "password": "not the password"}
    )

    summary = error_summary(text(response))
    assert "There is a problem" in summary
    assert "correct username and password" in summary
    assert '<ul class="errorlist nonfield">' in summary
    assert not LINK.search(summary)  # about no one field, so no link


def test_the_api_token_form_says_how_to_fix_the_days(login, manager_a):
    response = login(manager_a).post("/accounts/tokens/", {"name": "game client", "days": "abc"})

    assert response.status_code == 400
    assert _links(text(response)) == {"id_days": [TOKEN_DAYS_PLAIN]}


def test_a_refused_deposit_opens_the_account_page_with_its_summary(login, player, holder_a):
    posted = {"action": "deposit", "holder": holder_a.pk, "amount": "abc", "method": "card"}

    response = login(player).post("/play/account/", posted)

    page = text(response)
    assert response.status_code == 400
    assert list(_links(page)) == ["deposit_amount"]
    # At the top of the page, above the balances, not beside the form far below.
    assert page.index("There is a problem") < page.index('id="balances-heading"')
    assert page.count("There is a problem") == 1


def test_a_form_not_refused_has_no_summary(login, manager_a):
    for path in ("/compliance/rules/new/", "/compliance/paytables/new/", "/accounts/tokens/"):
        page = text(login(manager_a).get(path))
        assert "data-error-summary" not in page
        assert "There is a problem" not in page


def test_the_summary_needs_no_inline_script(login, manager_a, parts):
    page = text(login(manager_a).post("/compliance/rules/new/", rules_form(*parts, title="")))

    assert "data-error-summary" in page
    # The focus is moved by the site's own script file: the policy allows nothing inline.
    assert re.search(r'<script src="/static/core/site\.[\w.]*js" defer>', page)
    assert "<script>" not in page and "onload=" not in page


def test_a_refused_decision_is_summed_up_at_the_top_of_the_records_page(
    login, manager_a, officer, holder_a
):
    layout = layout_submit(actor=manager_a, layout=make_layout(manager_a, holder_a))

    # Rejecting needs a reason: none given, the decision is refused.
    response = login(officer).post(
        f"/compliance/layouts/{layout.pk}/", {"step": "reject", "reason": ""}
    )

    page = text(response)
    assert response.status_code == 400
    summary = error_summary(page)
    assert "There is a problem" in summary
    [(target, message)] = [(t, m) for t, ms in _links(page).items() for m in ms]
    assert f'id="{target}"' in page  # the link leads to the reason box
    assert page.index("There is a problem") < page.index("Decide this layout")
    assert not developer_words(shown_text(summary))
    layout.refresh_from_db()
    assert layout.status == "submitted"  # nothing changed
