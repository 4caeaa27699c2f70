"""Sign-in defences and their trail (§ 811a.7 logs): lock-out on every way in, no HTTP Basic,
a password set by an administrator that its user must replace, and the second factor for
compliance officers and superusers."""

from __future__ import annotations

import base64
import time

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import timezone
from django_otp.oath import totp
from django_otp.plugins.otp_static.models import StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from portal.accounts.second_factor import SECOND_FACTOR_REQUIRED, second_factor_remove
from portal.accounts.signin import SAME_PASSWORD, WRONG_PASSWORD
from portal.audit.chain import verify_stored
from portal.audit.models import AuditEvent
from portal.compliance.models import RecordStatus
from portal.core.errors import NotPermitted
from tests.portal.factories import PASSWORD, make_paytable, sign_in

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
NEW_PASSWORD = "a-passphrase-only-i-know-2026"


def _events(action: str):
    return list(AuditEvent.objects.filter(action=action).order_by("sequence"))


def _code(key_hex: str, offset: int = 0) -> str:
    return f"{totp(bytes.fromhex(key_hex), drift=offset):06d}"


# --- lock-out ----------------------------------------------------------------------------


def test_811a7_thirty_wrong_passwords_lock_the_login_page_even_for_the_right_one(client, officer):
    for _ in range(30):
        wrong = client.post(LOGIN, {"username": "officer", "password": "not-it"})
        assert wrong.status_code in (200, 429)

    right = client.post(LOGIN, {"username": "officer", "password": PASSWORD})

    assert right.status_code == 429
    assert "Sign-in locked" in right.content.decode()
    assert "_auth_user_id" not in client.session
    failures = _events("auth.sign_in_failed")
    assert len(failures) == 31  # every attempt, the right one during the lock too
    assert failures[0].actor_username == "anonymous"
    assert failures[0].object_id == str(officer.pk)
    assert failures[0].after["username"] == "officer" and failures[0].after["ip"] == "127.0.0.1"
    assert failures[-1].after["locked_out"] is True
    assert len(_events("auth.locked_out")) >= 1
    assert not _events("auth.sign_in")
    assert verify_stored().ok


def test_the_lock_is_per_account_and_address_and_lifts_after_its_cool_off(
    client, officer, settings
):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(LOGIN, {"username": "officer", "password": "not-it"})
    assert client.post(LOGIN, {"username": "officer", "password": PASSWORD}).status_code == 429

    other_address = client.post(
        LOGIN, {"username": "officer", "password": PASSWORD}, REMOTE_ADDR="10.0.0.9"
    )
    assert other_address.status_code == 302

    client.logout()
    later = timezone.now() + settings.AXES_COOLOFF_TIME + timezone.timedelta(minutes=1)
    with time_machine.travel(later, tick=False):
        assert client.post(LOGIN, {"username": "officer", "password": PASSWORD}).status_code == 302


def test_a_wrong_password_for_a_name_nobody_has_is_recorded_as_typed(client, db):
    client.post(LOGIN, {"username": "nobody-here", "password": "x"})

    (event,) = _events("auth.sign_in_failed")
    assert event.object_id == "nobody-here" and event.after["locked_out"] is False


def test_the_api_takes_no_http_basic_so_a_password_cannot_be_guessed_there(client, officer):
    basic = "Basic " + base64.b64encode(f"officer:{PASSWORD}".encode()).decode()

    answer = client.get("/api/tokens/", HTTP_AUTHORIZATION=basic)

    assert answer.status_code == 403
    assert "WWW-Authenticate" not in answer or "Basic" not in answer["WWW-Authenticate"]
    assert not _events("auth.sign_in")


# --- sign-in and sign-out in the trail ----------------------------------------------------


def test_811a7_sign_in_and_sign_out_are_events_in_the_chain(client, auditor):
    sign_in(client, "auditor")
    client.post("/accounts/logout/")

    (signed_in,) = _events("auth.sign_in")
    (signed_out,) = _events("auth.sign_out")
    assert signed_in.actor_id == auditor.pk and signed_in.after == {"ip": "127.0.0.1"}
    assert signed_out.actor_id == auditor.pk
    assert verify_stored().ok


def test_the_address_behind_the_tls_proxy_is_the_one_it_appended(client, auditor, settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    client.post(
        LOGIN,
        {"username": "auditor", "password": PASSWORD},
        HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7",
    )

    assert _events("auth.sign_in")[0].after["ip"] == "203.0.113.7"


# --- a password an administrator set --------------------------------------------------------


def _admin_sets_password(
    client, superuser, user, password="Temp-Passphrase-9931", *, signed_in=False
):
    if not signed_in:
        client.force_login(superuser)
    answer = client.post(
        f"/admin/auth/user/{user.pk}/password/",
        {"password1": password, "password2": password, "usable_password": "true"},
    )
    assert answer.status_code == 302, answer.content.decode()[:500]
    client.logout()
    return password


def test_811a7_a_password_set_by_an_administrator_must_be_replaced_before_anything_else(
    client, superuser, officer
):
    temporary = _admin_sets_password(client, superuser, officer)
    (set_event,) = _events("auth.password_set")
    assert set_event.actor_id == superuser.pk and set_event.object_id == str(officer.pk)

    sign_in(client, "officer", temporary)
    page = client.get("/compliance/")
    api = client.get("/api/layouts/")

    assert page.status_code == 302 and page["Location"].startswith("/accounts/password/")
    assert api.status_code == 403 and "administrator set your password" in api.json()["detail"]

    kept = client.post(
        "/accounts/password/",
        {"old_password": temporary, "new_password1": temporary, "new_password2": temporary},
    )
    assert kept.status_code == 400 and SAME_PASSWORD in kept.content.decode()

    chosen = client.post(
        "/accounts/password/",
        {"old_password": temporary, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert chosen.status_code == 302
    assert client.get("/compliance/").status_code == 200
    (change,) = _events("auth.password_change")
    assert change.actor_id == officer.pk
    assert verify_stored().ok


def test_an_account_an_administrator_creates_with_a_password_must_choose_its_own(client, superuser):
    client.force_login(superuser)
    made = client.post(
        "/admin/auth/user/add/",
        {
            "username": "newofficer",
            "password1": "Temp-Passphrase-9931",
            "password2": "Temp-Passphrase-9931",
            "usable_password": "true",
            "profile-TOTAL_FORMS": "1",
            "profile-INITIAL_FORMS": "0",
            "profile-MIN_NUM_FORMS": "0",
            "profile-MAX_NUM_FORMS": "1",
        },
    )
    assert made.status_code == 302, made.content.decode()[:800]
    user = get_user_model().objects.get(username="newofficer")

    assert user.profile.must_change_password
    assert _events("auth.password_set")[0].object_id == str(user.pk)


def test_changing_ones_own_password_is_recorded_and_ends_the_other_sessions(
    client, auditor, django_user_model
):
    from django.test import Client

    other = Client()
    sign_in(other, "auditor")
    sign_in(client, "auditor")

    changed = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert changed.status_code == 302
    assert other.get("/reports/").status_code == 302  # signed out
    assert client.get("/reports/").status_code == 200
    assert len(_events("auth.password_change")) == 1


def test_the_admins_change_password_link_leads_to_the_audited_page(client, superuser):
    client.force_login(superuser)

    answer = client.get("/admin/password_change/")

    assert answer.status_code == 302 and answer["Location"] == "/accounts/password/"


# --- the second factor ---------------------------------------------------------------------


@pytest.fixture
def two_factor(settings):
    settings.JINZI_REQUIRE_2FA = True


def _enrol(client, username: str = "officer", password: str = PASSWORD) -> tuple[str, list[str]]:
    setup = client.get("/accounts/2fa/setup/")
    assert setup.status_code == 200 and "<svg" in setup.content.decode()
    key = client.session["jinzi_pending_totp_key"]
    done = client.post("/accounts/2fa/setup/", {"code": _code(key), "password": password})
    assert done.status_code == 200
    codes = [token.token for token in StaticToken.objects.filter(device__user__username=username)]
    return key, codes


def test_officer_without_an_authenticator_is_sent_to_enrol_and_the_api_refuses_until_then(
    client, officer, two_factor
):
    sign_in(client, "officer")

    page = client.get("/compliance/")
    api = client.get("/api/layouts/")

    assert page.status_code == 302 and page["Location"].startswith("/accounts/2fa/setup/")
    assert api.status_code == 403 and api.json()["detail"] == SECOND_FACTOR_REQUIRED


def test_enrolling_needs_the_right_code_and_shows_ten_recovery_codes_once(
    client, officer, two_factor
):
    sign_in(client, "officer")
    client.get("/accounts/2fa/setup/")
    key = client.session["jinzi_pending_totp_key"]

    wrong = client.post(
        "/accounts/2fa/setup/",
        {"code": "000000" if _code(key) != "000000" else "1", "password": PASSWORD},
    )
    not_the_password = client.post(
        "/accounts/2fa/setup/", {"code": _code(key), "password": "a session left open"}
    )
    assert wrong.status_code == 400 and not_the_password.status_code == 400
    assert WRONG_PASSWORD in not_the_password.content.decode()
    assert not TOTPDevice.objects.filter(user=officer).exists()

    right = client.post("/accounts/2fa/setup/", {"code": _code(key), "password": PASSWORD})

    assert right.status_code == 200
    codes = [token.token for token in StaticToken.objects.filter(device__user=officer)]
    assert len(codes) == 10 and all(code in right.content.decode() for code in codes)
    assert client.get("/compliance/").status_code == 200  # verified by enrolling
    (event,) = _events("auth.second_factor_enrol")
    assert event.actor_id == officer.pk and event.after["recovery_codes"] == 10
    assert key not in str(event.after)  # the key itself never goes into the trail


def test_every_sign_in_asks_for_the_code_and_a_recovery_code_works_once(
    client, officer, two_factor
):
    sign_in(client, "officer")
    key, codes = _enrol(client)
    client.post("/accounts/logout/")

    sign_in(client, "officer")
    asked = client.get("/compliance/")
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/2fa/verify/")
    assert client.post("/accounts/2fa/verify/", {"code": codes[0]}).status_code == 302
    assert client.get("/compliance/").status_code == 200
    client.post("/accounts/logout/")

    sign_in(client, "officer")
    again = client.post("/accounts/2fa/verify/", {"code": codes[0]})

    assert again.status_code == 400
    assert client.get("/compliance/").status_code == 302
    verified = _events("auth.second_factor_verify")
    assert verified[0].after["with"] == "recovery code"
    assert verified[0].after["recovery_codes_left"] == 9
    assert len(_events("auth.second_factor_failed")) == 1


def test_the_authenticator_code_finishes_sign_in_and_wrong_codes_are_throttled(
    client, officer, two_factor
):
    sign_in(client, "officer")
    key, _ = _enrol(client)
    client.post("/accounts/logout/")
    sign_in(client, "officer")

    statuses = [
        client.post("/accounts/2fa/verify/", {"code": "12345x"}).status_code for _ in range(4)
    ]
    assert statuses[0] == 400 and 429 in statuses  # each device backs off after a failure

    later = timezone.now() + timezone.timedelta(minutes=10)
    with time_machine.travel(later, tick=False):
        assert client.post("/accounts/2fa/verify/", {"code": _code(key)}).status_code == 302
        assert client.get("/compliance/").status_code == 200
    assert _events("auth.second_factor_verify")[-1].after["with"] == "authenticator"


def test_impersonation_a_superuser_who_sets_an_officers_password_still_cannot_approve(
    client, superuser, officer, manager_a, holder_a, two_factor
):
    """The tester's path: set the officer's password in the admin, sign in as them, approve
    one's own paytable. The officer's second factor stops it, and the trail shows it all."""
    sign_in(client, "officer")
    _enrol(client)
    client.post("/accounts/logout/")
    paytable = make_paytable(manager_a, holder_a)
    from portal.compliance.services.paytables import paytable_submit

    paytable_submit(actor=manager_a, paytable=paytable)
    sign_in(client, "root")  # a superuser signs in with a second factor of their own
    _enrol(client, "root")
    temporary = _admin_sets_password(client, superuser, officer, signed_in=True)

    sign_in(client, "officer", temporary)
    approve = client.post(
        f"/compliance/paytables/{paytable.pk}/", {"step": "approve", "reason": "ok"}
    )
    api = client.post(f"/api/paytables/{paytable.pk}/approve/", {}, content_type="application/json")

    assert approve.status_code == 302 and "/accounts/2fa/verify/" in approve["Location"]
    assert api.status_code == 403
    paytable.refresh_from_db()
    assert paytable.status == RecordStatus.SUBMITTED
    trail = AuditEvent.objects.filter(object_type="user", object_id=str(officer.pk))
    assert [event.action for event in trail.order_by("sequence")][-2:] == [
        "auth.password_set",
        "auth.sign_in",
    ]


def test_812a3_a_3_a_player_is_not_required_a_second_factor_but_may_choose_one(
    client, player, two_factor
):
    sign_in(client, "player")
    assert client.get("/play/").status_code == 200  # not required of a player

    key, _codes = _enrol(client, "player")  # offered, and chosen
    assert client.get("/play/").status_code == 200  # this session showed the code
    client.post("/accounts/logout/")

    sign_in(client, "player")  # from now on asked at every sign-in
    asked = client.get("/play/")
    assert asked.status_code == 302 and asked["Location"].startswith("/accounts/2fa/verify/")
    later = time.time() + 30  # the next time step: the enrolment's code is used up
    with time_machine.travel(later, tick=False):
        done = client.post("/accounts/2fa/verify/", {"code": _code(key)})
        assert done.status_code == 302
        assert client.get("/play/").status_code == 200


def test_a_player_without_a_second_factor_is_never_asked_for_one(client, player, two_factor):
    sign_in(client, "player")
    client.post("/accounts/logout/")
    sign_in(client, "player")
    assert client.get("/play/").status_code == 200


def test_a_superuser_resets_a_lost_second_factor_and_the_officer_cannot_remove_their_own(
    client, superuser, officer, two_factor
):
    sign_in(client, "officer")
    _enrol(client)
    refused = client.post("/accounts/2fa/remove/")
    assert refused.status_code == 403
    assert TOTPDevice.objects.filter(user=officer).exists()
    client.post("/accounts/logout/")

    second_factor_remove(actor=superuser, user=officer)

    assert not TOTPDevice.objects.filter(user=officer).exists()
    assert not StaticToken.objects.filter(device__user=officer).exists()
    (reset,) = _events("auth.second_factor_reset")
    assert reset.actor_id == superuser.pk and reset.object_id == str(officer.pk)
    sign_in(client, "officer")
    assert client.get("/compliance/")["Location"].startswith("/accounts/2fa/setup/")


def test_new_recovery_codes_void_the_old_ones(client, officer, two_factor):
    sign_in(client, "officer")
    _, old = _enrol(client)

    renewed = client.post("/accounts/2fa/recovery-codes/")

    assert renewed.status_code == 200
    new = set(StaticToken.objects.filter(device__user=officer).values_list("token", flat=True))
    assert len(new) == 10 and not new & set(old)
    assert len(_events("auth.recovery_codes_renew")) == 1


# --- four-eyes by impersonation ---------------------------------------------------------------


def _superusers_submitted_paytable(superuser, holder):
    from portal.compliance.services.paytables import paytable_submit

    return paytable_submit(actor=superuser, paytable=make_paytable(superuser, holder, name="Own"))


def test_four_eyes_an_officer_whose_password_a_superuser_set_cannot_decide_that_superusers_work(
    client, superuser, officer, officer2, manager_a, holder_a
):
    """Without a second factor: the superuser sets the officer's password, signs in as
    them and chooses a new one. Still not the superuser's own paytable; other work, yes."""
    from portal.compliance import messages as msg
    from portal.compliance.services.paytables import paytable_approve, paytable_submit

    own = _superusers_submitted_paytable(superuser, holder_a)
    others = paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a))
    temporary = _admin_sets_password(client, superuser, officer)
    sign_in(client, "officer", temporary)
    client.post(
        "/accounts/password/",
        {"old_password": temporary, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    page = client.post(f"/compliance/paytables/{own.pk}/", {"step": "approve", "reason": "ok"})
    api = client.post(f"/api/paytables/{own.pk}/approve/", {}, content_type="application/json")
    elsewhere = client.post(
        f"/compliance/paytables/{others.pk}/", {"step": "approve", "reason": "ok"}
    )

    refusal = msg.FOUR_EYES_PASSWORD_SETTER.format(kind="paytable")
    assert page.status_code == 403 and refusal in page.content.decode()
    assert api.status_code == 403 and api.json()["detail"] == refusal
    assert elsewhere.status_code == 302
    own.refresh_from_db()
    assert own.status == RecordStatus.SUBMITTED
    assert paytable_approve(actor=officer2, paytable=own).status == RecordStatus.APPROVED


def test_four_eyes_the_owner_with_a_second_factor_enrolled_before_may_decide_again(
    client, superuser, officer, holder_a, two_factor
):
    from portal.compliance.services.paytables import paytable_approve

    sign_in(client, "officer")
    _, codes = _enrol(client)  # enrolled before anyone set the password
    client.post("/accounts/logout/")
    sign_in(client, "root")
    _enrol(client, "root")
    temporary = _admin_sets_password(client, superuser, officer, signed_in=True)
    client.post("/accounts/logout/")
    own = _superusers_submitted_paytable(superuser, holder_a)

    sign_in(client, "officer", temporary)
    client.post("/accounts/2fa/verify/", {"code": codes[0]})
    client.post(
        "/accounts/password/",
        {"old_password": temporary, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    officer.refresh_from_db()

    assert officer.profile.password_setters == [] and officer.profile.password_set_at is None
    assert _events("auth.second_factor_verify")[-1].after["owner_confirmed"] is True
    assert paytable_approve(actor=officer, paytable=own).status == RecordStatus.APPROVED


def test_four_eyes_a_second_factor_enrolled_after_the_password_was_set_proves_nothing(
    client, superuser, officer, holder_a, two_factor
):
    from portal.compliance.services.paytables import paytable_approve

    sign_in(client, "root")
    _enrol(client, "root")
    temporary = _admin_sets_password(client, superuser, officer, signed_in=True)
    client.post("/accounts/logout/")
    own = _superusers_submitted_paytable(superuser, holder_a)

    sign_in(client, "officer", temporary)  # whoever holds the password enrols a new device
    _enrol(client, password=temporary)

    with pytest.raises(NotPermitted, match="a password was set by an administrator"):
        paytable_approve(actor=get_user_model().objects.get(pk=officer.pk), paytable=own)


def test_a_password_alone_cannot_change_the_password_before_the_second_factor(
    client, officer, two_factor
):
    sign_in(client, "officer")
    _enrol(client)
    client.post("/accounts/logout/")
    sign_in(client, "officer")  # an attacker with the password, without the device

    changed = client.post(
        "/accounts/password/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )

    assert changed.status_code == 302 and "/accounts/2fa/verify/" in changed["Location"]
    officer.refresh_from_db()
    assert officer.check_password(PASSWORD)
    assert not _events("auth.password_change")


def test_four_eyes_setting_a_password_again_does_not_make_an_administrators_device_the_owners(
    client, superuser, officer, holder_a, two_factor
):
    """The superuser sets the password, enrols a device as the officer, sets the password
    again and signs in with that device: the device is younger than the first setting."""
    from portal.compliance.services.paytables import paytable_approve

    sign_in(client, "root")
    _enrol(client, "root")
    first = _admin_sets_password(client, superuser, officer, signed_in=True)
    client.post("/accounts/logout/")
    sign_in(client, "officer", first)
    _, codes = _enrol(client, password=first)
    client.post("/accounts/logout/")
    sign_in(client, "root")
    client.post("/accounts/2fa/verify/", {"code": _root_code()})
    again = _admin_sets_password(
        client, superuser, officer, "Second-Passphrase-7714", signed_in=True
    )
    client.post("/accounts/logout/")
    sign_in(client, "officer", again)
    client.post("/accounts/2fa/verify/", {"code": codes[0]})
    own = _superusers_submitted_paytable(superuser, holder_a)

    with pytest.raises(NotPermitted, match="a password was set by an administrator"):
        paytable_approve(actor=get_user_model().objects.get(pk=officer.pk), paytable=own)


def _root_code() -> str:
    return StaticToken.objects.filter(device__user__username="root").first().token


def test_four_eyes_an_admin_cannot_approve_what_they_wrote_as_a_manager_they_set_the_password_of(
    client, superuser, manager_a, holder_a
):
    from portal.compliance.services.paytables import paytable_approve, paytable_submit

    _admin_sets_password(client, superuser, manager_a)
    # Signed in as the manager with that password, the administrator submits a paytable.
    written = paytable_submit(actor=manager_a, paytable=make_paytable(manager_a, holder_a))

    with pytest.raises(NotPermitted, match="a password was set by an administrator"):
        paytable_approve(actor=superuser, paytable=written)


def test_resetting_a_second_factor_revokes_the_users_api_tokens(client, superuser, officer):
    from portal.accounts.models import ApiToken
    from portal.accounts.tokens import api_token_issue

    sign_in(client, "officer")
    with override_settings(JINZI_REQUIRE_2FA=True):
        _enrol(client)
    api_token_issue(user=officer, name="script")

    second_factor_remove(actor=superuser, user=officer)

    (token,) = ApiToken.objects.filter(user=officer)
    assert token.revoked_at is not None
    assert [e.actor_id for e in _events("api_token.revoke")] == [superuser.pk]


def test_a_forwarded_address_from_a_connection_that_is_not_the_proxy_is_ignored(
    client, auditor, settings
):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    client.post(
        LOGIN,
        {"username": "auditor", "password": PASSWORD},
        REMOTE_ADDR="198.51.100.20",
        HTTP_X_FORWARDED_FOR="203.0.113.7",
    )

    assert _events("auth.sign_in")[0].after["ip"] == "198.51.100.20"
