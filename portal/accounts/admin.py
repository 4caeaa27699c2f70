from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User

from portal.accounts.models import ApiToken, CertificateHolder, Profile
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
    fields = ("holder",)


admin.site.unregister(User)


@admin.register(User)
class StaffUserAdmin(UserAdmin):
    """Django's user admin, with every change to roles, holder or powers audited."""

    inlines = [ProfileInline]

    def save_model(self, request, obj, form, change) -> None:
        stored = User.objects.filter(pk=obj.pk).first() if change else None
        request._jinzi_before = staff_picture(stored) if stored else None
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change) -> None:
        super().save_related(request, form, formsets, change)  # groups and profile
        staff_user_changed(actor=request.user, user=form.instance, before=request._jinzi_before)


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
