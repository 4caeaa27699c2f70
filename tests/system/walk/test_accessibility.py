"""axe-core, run inside the same Chromium, on the main pages of each role: no page may have a
violation of impact "serious" or "critical". The others are printed at the end of the run and
kept, with every detail, in ``<artifacts>/axe/<database>/<test>.json``.

axe-core comes from npm at the version the Makefile pins (``make axe``, a step of
``make test``); a test fails, never skips, when it is missing.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from portal.audit.models import AuditEvent
from portal.compliance.services.layouts import layout_amend, layout_submit, layout_update
from portal.compliance.services.paytables import paytable_amend, paytable_submit, paytable_update
from portal.compliance.services.rules import (
    rules_submission_amend,
    rules_submission_submit,
    rules_submission_update,
)
from portal.game.models import GamingAccount, Round
from portal.game.money.services.withdrawals import withdrawal_request
from portal.reports.models import ReportRun
from tests.portal.browser import needs_chromium
from tests.portal.factories import MINIMUM_ODDS, make_paytable, png_upload
from tests.portal.game.conftest import play_round

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]

# The amended layout's wheel: 7 and 1 swapped, so the diff marks moved compartments.
OTHER_ORDER = [0, 7, 1, 8, 2, 3, 9, 10, 4, 5, 11, 12, 6]
# A phone's viewport, in CSS px.
PHONE = {"width": 390, "height": 844}


def _visit(walk, axe, name: str, path: str | None = None) -> None:
    """Open ``path`` (or stay), wait for the page's main heading, run axe-core on it."""
    if path is not None:
        walk.open(path)
    expect(walk.page.get_by_role("heading", level=1).first).to_be_visible()
    axe.check(name)


def test_accessibility_signed_out(walk, axe, officer):
    _visit(walk, axe, "home", "/")
    _visit(walk, axe, "sign-in", "/accounts/login/")
    page = walk.page
    page.get_by_label("Username").fill("officer")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_be_visible()
    _visit(walk, axe, "sign-in, refused")
    axe.assert_no_serious_violations()


@pytest.fixture
def records_under_review(live_offering, manager_a, officer, holder_a):
    """A live table's approved parts, and each kind amended and submitted again."""
    paytable = paytable_amend(actor=manager_a, paytable=live_offering.paytable)
    paytable_update(
        actor=manager_a, paytable=paytable, odds={**MINIMUM_ODDS, "three_numbers": "13/4"}
    )
    paytable = paytable_submit(actor=manager_a, paytable=paytable)
    layout = layout_amend(actor=manager_a, layout=live_offering.layout)
    layout_update(
        actor=manager_a, layout=layout, wheel_order=OTHER_ORDER, artwork=png_upload("new.png")
    )
    layout = layout_submit(actor=manager_a, layout=layout)
    rules = rules_submission_amend(actor=manager_a, submission=live_offering.rules_submission)
    rules_submission_update(actor=manager_a, submission=rules, notes="Renewed")
    rules = rules_submission_submit(actor=manager_a, submission=rules)
    return paytable, layout, rules


def test_accessibility_manager(walk, axe, manager_a, holder_a, records_under_review):
    walk.sign_in("manager_a")
    _visit(walk, axe, "dashboard", "/compliance/")
    _visit(walk, axe, "my submissions", "/compliance/mine/")
    _visit(walk, axe, "paytables", "/compliance/paytables/")
    _visit(walk, axe, "new paytable", "/compliance/paytables/new/")
    page = walk.page
    page.get_by_label("Name").fill("Weekend")
    page.get_by_role("textbox", name="Straight up").fill("10")
    page.get_by_role("button", name="Create draft").click()
    expect(page.get_by_role("textbox", name="Straight up")).to_have_attribute(
        "aria-invalid", "true"
    )
    _visit(walk, axe, "new paytable, refused on a field")
    draft = make_paytable(manager_a, holder_a, name="Weekend")
    _visit(walk, axe, "paytable draft", f"/compliance/paytables/{draft.pk}/")
    axe.assert_no_serious_violations()


def test_accessibility_compliance_officer(
    walk, axe, officer2, live_offering, records_under_review, superuser
):
    paytable, layout, rules = records_under_review
    walk.sign_in("officer2")
    _visit(walk, axe, "dashboard", "/compliance/")
    _visit(walk, axe, "layouts", "/compliance/layouts/")
    _visit(walk, axe, "paytables", "/compliance/paytables/")
    _visit(walk, axe, "rules submissions", "/compliance/rules/")
    _visit(walk, axe, "offerings", "/compliance/offerings/")
    _visit(walk, axe, "availability log", "/compliance/availability/")
    _visit(walk, axe, "paytable under review", f"/compliance/paytables/{paytable.pk}/")
    _visit(walk, axe, "paytable history", f"/compliance/paytables/{paytable.pk}/?tab=history")
    _visit(walk, axe, "layout under review", f"/compliance/layouts/{layout.pk}/")
    _visit(walk, axe, "rules under review", f"/compliance/rules/{rules.pk}/")
    _visit(walk, axe, "offering", f"/compliance/offerings/{live_offering.pk}/")
    # Four-eyes: the author of a version sees why there is no decision panel.
    own = paytable_submit(
        actor=superuser, paytable=make_paytable(superuser, paytable.holder, name="Own")
    )
    walk.sign_out()
    walk.sign_in(superuser.username)
    _visit(walk, axe, "paytable, four-eyes", f"/compliance/paytables/{own.pk}/")
    axe.assert_no_serious_violations()


@pytest.fixture
def reports_folder(tmp_path, settings):
    settings.JINZI_REPORTS_DIR = tmp_path / "reports"


def test_accessibility_auditor(
    walk, axe, auditor, funded_player, live_offering, records_under_review, reports_folder
):
    played = play_round(funded_player, live_offering, "accessibility-round-1")
    walk.sign_in("auditor")
    _visit(walk, axe, "audit trail", "/audit/")
    _visit(walk, axe, "audit trail, filtered", "/audit/?action=paytable.approve")
    event = AuditEvent.objects.filter(action="paytable.submit").latest("sequence")
    _visit(walk, axe, "audit event", f"/audit/events/{event.pk}/")
    _visit(walk, axe, "audit chain check", "/audit/verify/")
    _visit(walk, axe, "regulation", "/regulation/")
    _visit(walk, axe, "game rounds", "/play/rounds/")
    _visit(walk, axe, "round record (staff)", f"/play/rounds/{played.round.pk}/")
    _visit(walk, axe, "reports", "/reports/")
    walk.page.get_by_role("button", name="Run the report").click()
    run = ReportRun.objects.get()
    expect(walk.page.get_by_role("table", name="Files")).to_be_visible()
    _visit(walk, axe, "report run", f"/reports/{run.pk}/")
    axe.assert_no_serious_violations()


def test_accessibility_player(walk, axe, funded_player, live_offering):
    walk.sign_in(funded_player.username)
    _visit(walk, axe, "tables", "/play/")
    _visit(walk, axe, "game table", f"/play/{live_offering.pk}/")
    page = walk.page
    page.get_by_role("button", name="Red", exact=True).click()
    page.get_by_role("button", name="Confirm bets and spin").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Round #\d+"), level=2)).to_be_visible()
    _visit(walk, axe, "game table, after a spin")
    _visit(walk, axe, "my games", "/play/history/")
    _visit(walk, axe, "round record", f"/play/rounds/{Round.objects.get().pk}/")
    _visit(walk, axe, "replay", "/play/replay/")
    account = GamingAccount.objects.get(player=funded_player)
    _visit(walk, axe, "my account", "/play/account/")
    _visit(walk, axe, "statement", f"/play/account/{account.pk}/statement/")
    axe.assert_no_serious_violations()


def test_accessibility_payments(walk, axe, payments_a, funded_player, live_offering):
    account = GamingAccount.objects.get(player=funded_player)
    asked = withdrawal_request(player=funded_player, account_id=account.pk, amount=2_500)
    walk.sign_in(payments_a.username)
    _visit(walk, axe, "payments queue", "/play/payments/")
    _visit(walk, axe, "withdrawal", f"/play/payments/withdrawals/{asked.pk}/")
    _visit(walk, axe, "player accounts", "/play/players/")
    _visit(walk, axe, "player account (staff)", f"/play/players/{account.pk}/")
    axe.assert_no_serious_violations()


def test_accessibility_game_table_at_phone_width(walk, axe, funded_player, live_offering):
    walk.sign_in(funded_player.username)
    walk.page.set_viewport_size(PHONE)
    _visit(walk, axe, "game table, 390 px", f"/play/{live_offering.pk}/")
    layout = walk.page.get_by_role("group", name="Betting layout")
    layout.locator('[data-spot="split:1-2"]').click()
    layout.locator('[data-spot="corner:4-5-7-8"]').click()
    expect(walk.page.get_by_text(re.compile(r"^Total staked:"))).to_contain_text("$2.00")
    _visit(walk, axe, "game table, 390 px, a split and a corner staked")
    axe.assert_no_serious_violations()


def test_accessibility_payments_queue_at_phone_width(
    walk, axe, payments_a, funded_player, live_offering
):
    account = GamingAccount.objects.get(player=funded_player)
    withdrawal_request(player=funded_player, account_id=account.pk, amount=2_500)
    walk.sign_in(payments_a.username)
    walk.page.set_viewport_size(PHONE)
    _visit(walk, axe, "payments queue, 390 px", "/play/payments/")
    axe.assert_no_serious_violations()
