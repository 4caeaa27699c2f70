"""In a real Chromium, under the Content-Security-Policy the pages are served with: an
officer enrols a second factor and signs in with it, a player plays and replays, an
auditor reads the API docs and the records check. Any script or style the policy blocks
fails the test (``tests.portal.browser.page``)."""

from __future__ import annotations

import pytest
from django_otp.oath import totp

from portal.game.models import Round
from tests.portal.browser import ARTIFACTS, needs_chromium
from tests.portal.factories import PASSWORD

pytestmark = [pytest.mark.django_db(transaction=True), needs_chromium]


def _b32_to_hex(secret: str) -> str:
    import base64

    padded = secret + "=" * (-len(secret) % 8)
    return base64.b32decode(padded).hex()


def _sign_in(page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")


def test_an_officer_enrols_a_second_factor_and_signs_in_with_it(
    page, live_server, officer, settings
):
    settings.JINZI_REQUIRE_2FA = True
    _sign_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/compliance/")

    assert "/accounts/2fa/setup/" in page.url
    assert page.query_selector(".qr svg") is not None  # the QR code, drawn on the server
    key = _b32_to_hex(page.inner_text("[data-secret]"))
    page.fill("input[name=code]", f"{totp(bytes.fromhex(key)):06d}")
    page.fill("input[name=password]", PASSWORD)
    page.click("main button:text('Confirm')")
    codes = page.eval_on_selector_all(
        "[data-recovery-codes] code", "els => els.map(e => e.textContent)"
    )
    assert len(codes) == 10
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "second-factor-codes.png"), full_page=True)

    page.click("header form[action='/accounts/logout/'] button")
    _sign_in(page, live_server, "officer")
    page.goto(f"{live_server.url}/compliance/")
    assert "/accounts/2fa/verify/" in page.url
    page.fill("input[name=code]", codes[0])
    page.click("main button:text('Continue')")

    assert page.url.endswith("/compliance/")
    assert page.query_selector("a[href='/compliance/layouts/']") is not None  # the dashboard


def test_a_player_plays_and_replays_under_the_policy(
    page, live_server, funded_player, live_offering
):
    _sign_in(page, live_server, funded_player.username)
    page.goto(f"{live_server.url}/play/{live_offering.pk}/")
    page.click("[data-spot='red']")
    page.click("#spin")
    page.wait_for_selector("#result:not([hidden])")
    played = Round.objects.get()

    page.goto(f"{live_server.url}/play/rounds/{played.pk}/replay/")

    # The wheel turns to where the game stopped: the angle set by replay.js, not inline.
    stop = page.eval_on_selector(
        ".replay .rotor", "el => getComputedStyle(el).getPropertyValue('--stop').trim()"
    )
    assert stop == page.get_attribute(".replay .rotor", "data-stop") + "deg"
    grid_row = page.eval_on_selector(
        ".grid [data-spot='straight:12']", "el => getComputedStyle(el).gridRowStart"
    )
    assert grid_row == "9"  # placed by its class, as the inline style once did


def test_an_auditor_reads_the_api_docs_and_the_records_check(page, live_server, auditor):
    _sign_in(page, live_server, "auditor")

    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector(".swagger-ui .info", timeout=15_000)
    page.goto(f"{live_server.url}/audit/records/")

    assert page.inner_text(".alert.ok strong") == "Intact."
