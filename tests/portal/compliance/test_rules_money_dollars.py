"""A rules submission's listing limits are typed in dollars ("2.50"), kept in cents, and
shown in dollars; an amount that is not dollars and cents, or an odd number of cents as
the chip unit (reading:even-stakes, § 617b.8(g)), is refused on its field, in plain words,
with nothing saved."""

from __future__ import annotations

import re

import pytest

from portal.audit.models import AuditEvent
from portal.compliance.forms import LIMIT_NOT_MULTIPLE_PLAIN
from portal.compliance.models import ListedGame, RulesSubmission
from tests.portal.factories import approved_layout, approved_paytable, events_written, make_rules
from tests.portal.page_helpers import error_summary, field_errors, rules_form, text
from tests.portal.plain_words import developer_words, shown_text

pytestmark = pytest.mark.django_db

NEW = "/compliance/rules/new/"
LISTING_FIELDS = ("chip_unit", "min_wager", "max_wager", "max_round_stake")


@pytest.fixture
def parts(manager_a, officer, holder_a):
    return approved_paytable(manager_a, officer, holder_a), approved_layout(
        manager_a, officer, holder_a
    )


def _plain(page: str) -> None:
    """What the person reads: no field name, no Python type, no "got …"."""
    shown = shown_text(page)
    assert not developer_words(shown)
    for name in LISTING_FIELDS:
        assert name not in shown
    assert "(str)" not in shown and "got " not in shown and "minor units" not in shown


def test_dollars_typed_are_stored_as_cents(login, manager_a, parts):
    data = rules_form(
        *parts, chip_unit="2.50", min_wager="2.50", max_wager="$1,000.00", max_round_stake="2500"
    )

    response = login(manager_a).post(NEW, data)

    assert response.status_code == 302
    listing = ListedGame.objects.get()
    assert (listing.chip_unit, listing.min_wager, listing.max_wager, listing.max_round_stake) == (
        250,
        250,
        100_000,
        250_000,
    )
    games = AuditEvent.objects.get(action="rules_submission.create").after["games"]
    assert games[0]["chip_unit"] == 250


@pytest.mark.parametrize("typed", ["2.555", "abc", "2,50", "-2.00", "1e3"])
def test_an_amount_that_is_not_dollars_and_cents_is_refused(login, manager_a, parts, typed):
    written = events_written()

    response = login(manager_a).post(NEW, rules_form(*parts, min_wager=typed))

    assert response.status_code == 400
    says = "Enter the minimum wager per spot in dollars and cents, like 2.00"
    assert says in field_errors(response, "id_min_wager")
    assert says in error_summary(text(response))
    _plain(text(response))
    assert not RulesSubmission.objects.exists()
    assert events_written() == written


@pytest.mark.clause("617b.8(g)", kind="cites-in-message")
@pytest.mark.clause("reading:even-stakes", kind="proves")
def test_617b8_g_an_odd_cent_chip_unit_is_refused_citing_the_clause(login, manager_a, parts):
    written = events_written()

    # The limits stay whole dollars: with the chip unit odd, only the chip unit is wrong.
    response = login(manager_a).post(NEW, rules_form(*parts, chip_unit="0.99"))

    assert response.status_code == 400
    errors = field_errors(response, "id_chip_unit")
    assert errors.startswith("<li>§ 617b.8(g): enter a chip unit of an even number of cents")
    assert "$0.99 is an odd number of cents" in errors
    assert text(response).count("There is a problem") <= 1
    assert len(re.findall(r'class="errorlist"', response.content.decode())) <= 2  # summary, field
    _plain(text(response))
    assert not RulesSubmission.objects.exists()
    assert events_written() == written


def test_a_limit_that_is_not_a_whole_number_of_chips_is_refused_in_dollars(login, manager_a, parts):
    response = login(manager_a).post(NEW, rules_form(*parts, min_wager="1.50"))

    assert response.status_code == 400
    assert LIMIT_NOT_MULTIPLE_PLAIN.format(
        what="the minimum wager per spot", chip="$1.00", value="$1.50"
    ) in field_errors(response, "id_min_wager")
    _plain(text(response))
    assert not RulesSubmission.objects.exists()


def test_a_missing_amount_says_what_to_type(login, manager_a, parts):
    response = login(manager_a).post(NEW, rules_form(*parts, max_round_stake=""))

    assert response.status_code == 400
    assert "Enter the maximum stake per round in dollars and cents, like 2000.00" in field_errors(
        response, "id_max_round_stake"
    )


def test_the_form_asks_for_dollars_and_the_edit_form_shows_them(login, manager_a, holder_a, parts):
    submission = make_rules(manager_a, holder_a, *parts)  # stored: 100, 100, 50,000, 200,000 cents
    client = login(manager_a)

    new = text(client.get(NEW))
    edit = text(client.get(f"/compliance/rules/{submission.pk}/edit/"))

    assert "Minimum wager per spot ($)" in new and "(cents)" not in new
    assert re.search(r'name="max_round_stake" value="2000\.00"', edit)
    assert re.search(r'name="chip_unit" value="1\.00"', edit)


def test_the_submissions_page_shows_its_limits_in_dollars(
    login, auditor, manager_a, holder_a, parts
):
    submission = make_rules(manager_a, holder_a, *parts)

    page = text(login(auditor).get(f"/compliance/rules/{submission.pk}/"))

    assert re.search(r"<dt>Minimum wager per spot</dt><dd>\$1\.00</dd>", page)
    assert re.search(r"<dt>Maximum wager per spot</dt><dd>\$500\.00</dd>", page)
    assert "cents" not in shown_text(page).replace("even number of cents", "")
