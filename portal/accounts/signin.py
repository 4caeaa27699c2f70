"""The account's own pages past the login form: choosing a password, and the second factor.

Sign-in itself is Django's ``LoginView`` (behind django-axes); these pages are what
``AccountGuardMiddleware`` sends a session to before anything else, and where a user looks
after their second factor. The rules and the audit events live in ``passwords`` and
``second_factor``; the messages here are the pages' own.
"""

from __future__ import annotations

import base64

import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm
from django.contrib.auth.views import PasswordChangeView
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp.util import random_hex

from portal.access.roles import must_change_password
from portal.accounts import passwords
from portal.accounts import second_factor as factor
from portal.core.pages import domain_errors

_PENDING_KEY = "jinzi_pending_totp_key"

SAME_PASSWORD = "choose a password other than the one you were given"
WRONG_PASSWORD = "that is not your password"
WRONG_CODE = "that code is not right (or was already used); try the current one"
THROTTLED = "too many wrong codes: wait {seconds} seconds and try again"
NOT_REQUIRED = (
    "a second factor is asked of compliance officers and superusers (with JINZI_REQUIRE_2FA=1)"
)


def _next_or_home(request: HttpRequest) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return reverse_lazy("home")


# --- the password ------------------------------------------------------------------------


class OwnPasswordForm(PasswordChangeForm):
    """Django's form, and a password given by an administrator cannot be kept."""

    def clean_new_password1(self):
        password = self.cleaned_data.get("new_password1")
        if password and must_change_password(self.user) and self.user.check_password(password):
            raise forms.ValidationError(SAME_PASSWORD, code="password_unchanged")
        return password


@method_decorator(never_cache, name="dispatch")
class PasswordChange(PasswordChangeView):
    form_class = OwnPasswordForm
    template_name = "registration/password_change_form.html"
    success_url = reverse_lazy("home")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["forced"] = must_change_password(self.request.user)
        return context

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def form_valid(self, form):
        with transaction.atomic():
            response = super().form_valid(form)  # saves it, keeps this session signed in
            passwords.password_changed(user=form.user, request=self.request)
        messages.success(self.request, "Your password is changed. Other sessions are signed out.")
        return response


# --- the second factor -------------------------------------------------------------------


class CodeForm(forms.Form):
    code = forms.CharField(
        max_length=16,
        label="Code",
        help_text="The 6 digits your authenticator app shows now, or one recovery code.",
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "text"}),
    )

    def clean_code(self) -> str:
        # Recovery codes are lower case; an authenticator's are digits.
        return "".join(self.cleaned_data["code"].split()).lower()


class EnrolForm(CodeForm):
    """Enrolling asks for the password again: a session left open is not enough."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )


def _show_codes(request: HttpRequest, codes: list[str], status: int = 200) -> HttpResponse:
    return render(request, "accounts/recovery_codes.html", {"codes": codes}, status=status)


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
@domain_errors
def second_factor_setup(request: HttpRequest) -> HttpResponse:
    """Enrol an authenticator app: scan the code, confirm with its first code, keep the
    recovery codes. The key waits in the session until confirmed."""
    user = request.user
    if not factor.may_enrol(user):
        messages.info(request, NOT_REQUIRED)
        return redirect("accounts:second-factor")
    if factor.confirmed_totp(user) is not None:
        return redirect("accounts:second-factor")
    key = request.session.get(_PENDING_KEY)
    if key is None:
        key = random_hex(20)
        request.session[_PENDING_KEY] = key
    form = EnrolForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid() and not user.check_password(form.cleaned_data["password"]):
            form.add_error("password", WRONG_PASSWORD)
        if form.is_valid():
            enrolled = factor.second_factor_enrol(
                user=user, key_hex=key, token=form.cleaned_data["code"], request=request
            )
            if enrolled is not None:
                device, codes = enrolled
                del request.session[_PENDING_KEY]
                otp_login(request, device)
                if not factor.needs_second_factor(user):  # by choice: asked from now on
                    request.session[factor.ENROLLED_BY_CHOICE] = True
                return _show_codes(request, codes)
            form.add_error("code", WRONG_CODE)
        status = 400
    preview = TOTPDevice(user=user, name=factor.TOTP_DEVICE_NAME, key=key)
    qr = segno.make(preview.config_url, error="m")
    return render(
        request,
        "accounts/second_factor_setup.html",
        {
            "form": form,
            "qr_svg": qr.svg_inline(scale=4, title="Authenticator set-up code"),
            "secret": base64.b32encode(preview.bin_key).decode("ascii").rstrip("="),
            "next": _next_or_home(request),
        },
        status=status,
    )


@never_cache
@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def second_factor_verify(request: HttpRequest) -> HttpResponse:
    """The code after the password: the authenticator's, or one recovery code (used up)."""
    user = request.user
    if user.is_verified() or not factor.asks_second_factor(user, request.session):
        return redirect(_next_or_home(request))
    form = CodeForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            matched, wait = factor.device_for_code(user, form.cleaned_data["code"])
            if matched is not None:
                otp_login(request, matched)
                factor.second_factor_verified(user=user, device=matched, request=request)
                return redirect(_next_or_home(request))
            factor.second_factor_failed(user=user, request=request)
            message = THROTTLED.format(seconds=wait) if wait else WRONG_CODE
            form.add_error("code", message)
            status = 429 if wait else 400
    return render(
        request,
        "accounts/second_factor_verify.html",
        {"form": form, "next": _next_or_home(request)},
        status=status,
    )


@never_cache
@login_required
@require_http_methods(["GET", "HEAD"])
def second_factor(request: HttpRequest) -> HttpResponse:
    """The user's second factor: whether it is set up, how many recovery codes are left."""
    user = request.user
    totp = factor.confirmed_totp(user)
    recovery = factor.recovery_device(user)
    return render(
        request,
        "accounts/second_factor.html",
        {
            "totp": totp,
            "codes_left": recovery.token_set.count() if recovery else 0,
            "required": factor.needs_second_factor(user),
            "by_choice": factor.may_enrol(user) and not factor.needs_second_factor(user),
            "required_setting": settings.JINZI_REQUIRE_2FA,
        },
    )


@never_cache
@login_required
@require_POST
@domain_errors
def recovery_codes_renew(request: HttpRequest) -> HttpResponse:
    if factor.confirmed_totp(request.user) is None:
        messages.error(request, "Set up an authenticator app first.")
        return redirect("accounts:second-factor")
    return _show_codes(request, factor.recovery_codes_renew(user=request.user, request=request))


@login_required
@require_POST
@domain_errors
def second_factor_remove(request: HttpRequest) -> HttpResponse:
    user = get_user_model().objects.get(pk=request.user.pk)
    if factor.second_factor_remove(actor=request.user, user=user, request=request):
        request.session.pop(factor.ENROLLED_BY_CHOICE, None)
        messages.success(request, "Your authenticator app and recovery codes are removed.")
    return redirect("accounts:second-factor")
