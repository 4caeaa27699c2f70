from django.urls import path

from portal.accounts import signin, views

app_name = "accounts"

urlpatterns = [
    path("tokens/", views.api_tokens, name="api-tokens"),
    path("tokens/<int:pk>/revoke/", views.api_token_revoke_page, name="api-token-revoke"),
    path("password/", signin.PasswordChange.as_view(), name="password-change"),
    path("2fa/", signin.second_factor, name="second-factor"),
    path("2fa/setup/", signin.second_factor_setup, name="second-factor-setup"),
    path("2fa/verify/", signin.second_factor_verify, name="second-factor-verify"),
    path("2fa/recovery-codes/", signin.recovery_codes_renew, name="recovery-codes-renew"),
    path("2fa/remove/", signin.second_factor_remove, name="second-factor-remove"),
]
