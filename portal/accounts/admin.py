from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpResponseRedirect
from django_otp.plugins.otp_static.models import StaticDevice
from django_otp.plugins.otp_totp.models import TOTPDevice

from portal.accounts.models import ApiToken, CertificateHolder, Profile
from portal.accounts.passwords import password_set_by_admin
from portal.accounts.second_factor import second_factor_remove
from portal.accounts.services import holder_create, staff_picture, staff_user_changed
from portal.accounts.tokens import api_token_revoke
from portal.core.admin import LookOnlyAdmin
from portal.core.errors import DomainError


@admin.register(CertificateHolder)
class CertificateHolderAdmin(admin.ModelAdmin):
    list_display = ("name", "licence_number", "created_at")
    search_fields = ("name", "licence_number")

    def has_change_permission(self, request, obj=None) -> bool:
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request, obj, form, change) -> None:
        # Registration goes through the service so it is audited like everything else.
        created = holder_create(
            actor=request.user, name=obj.name, licence_number=obj.licence_number
        )
        obj.pk = created.pk


class ProfileInline(admin.StackedInline):
    model = Profile
    can_delete = False
    fk_name = "user"
    fields = ("holder", "must_change_password", "password_setters", "password_set_at")
    readonly_fields = ("must_change_password", "password_setters", "password_set_at")


admin.site.unregister(User)
# Second-factor devices are changed only through the audited services (the user's own
# pages, and the "reset" action below), never edited as rows.
for _device in (TOTPDevice, StaticDevice):
    if admin.site.is_registered(_device):
        admin.site.unregister(_device)


@admin.register(User)
class StaffUserAdmin(UserAdmin):
    """Django's user admin, with every change to roles, holder or powers audited.

    A password an administrator sets (for a new account or an existing one) is one only its
    user may keep: the account is marked, and its user must choose their own at next sign-in.
    """

    inlines = [ProfileInline]
    actions = ["reset_second_factor"]

    def user_change_password(self, request, id, form_url=""):
        with transaction.atomic():
            response = super().user_change_password(request, id, form_url)
            if request.method == "POST" and isinstance(response, HttpResponseRedirect):
                user = User.objects.get(pk=id)
                password_set_by_admin(actor=request.user, user=user, request=request)
        return response

    @admin.action(description="Reset the second factor (the user enrols again)")
    def reset_second_factor(self, request, queryset):
        for user in queryset:
            try:
                done = second_factor_remove(actor=request.user, user=user, request=request)
            except DomainError as error:
                self.message_user(request, f"{user}: {error.message}", level="error")
            else:
                if done:
                    self.message_user(request, f"{user}: second factor reset.")
                else:
                    self.message_user(request, f"{user} had no second factor.", level="warning")

    def save_model(self, request, obj, form, change) -> None:
        stored = User.objects.filter(pk=obj.pk).first() if change else None
        request._jinzi_before = staff_picture(stored) if stored else None
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)  # groups and profile
        user = form.instance
        staff_user_changed(actor=request.user, user=user, before=request._jinzi_before)
        if not change and user.has_usable_password():
            password_set_by_admin(actor=request.user, user=user, request=request)


@admin.register(ApiToken)
class ApiTokenAdmin(LookOnlyAdmin):
    """Tokens are issued by their users; a superuser can see them all and revoke any."""

    list_display = ("name", "user", "prefix", "created_at", "expires_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__username")
    exclude = ("digest", "auth_hash")
    actions = ["revoke"]

    def has_view_permission(self, request, obj=None) -> bool:
        return request.user.is_superuser

    def has_module_permission(self, request) -> bool:
        return request.user.is_superuser

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset):
        for token in queryset.filter(revoked_at=None):
            try:
                api_token_revoke(actor=request.user, token_id=token.pk)
            except DomainError as error:
                self.message_user(request, f"{token}: {error.message}", level="error")
            else:
                self.message_user(request, f"{token} is revoked.")
